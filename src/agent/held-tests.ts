/**
 * The tests as they were (pure helpers): a change that makes failing tests pass by changing the tests (a skip, a
 * deleted case, a weaker assertion, a config that leaves them out) proves nothing about the code. When an attempt
 * made tests pass that failed before and changed the files that define the tests, they run once more as they were
 * at the last accepted state, with the rest of the change in place, and those tests must not fail there.
 */
import { basename } from "node:path";
import { isTestPath } from "./test-paths.js";
import type { TestSummary } from "./types.js";

/**
 * Files that decide which tests run and how, besides the tests themselves. (`pyproject.toml`, `setup.cfg` and
 * `tox.ini` hold far more than that, which a fix may need: they are not held.)
 */
const TEST_CONFIG =
  /^(?:package\.json|conftest\.py|pytest\.ini|\.mocharc(?:\.[a-z]+)?|\.taprc|(?:jest|vitest|vite|ava|karma|playwright)\.config\.[cm]?[jt]s(?:on)?)$/;

/** The fields of package.json that say how the tests run; the rest (exports, dependencies, type) may be the fix. */
const PACKAGE_TEST_FIELDS = ["scripts", "jest", "ava", "mocha", "c8", "nyc", "tap", "vitest"];

/**
 * `current` with the test fields of `accepted`, or undefined when those agree (or either is not an object): a fix
 * that changes `exports` or `type` keeps that change while the tests run as they were.
 */
function heldPackageJson(accepted: string, current: string): string | undefined {
  const parse = (text: string): Record<string, unknown> | undefined => {
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === "object" && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  };
  const was = parse(accepted);
  const now = parse(current);
  if (was === undefined || now === undefined) return undefined;
  const same = (field: string): boolean => JSON.stringify(was[field]) === JSON.stringify(now[field]);
  if (PACKAGE_TEST_FIELDS.every(same)) return undefined;
  const kept = Object.entries(now).filter(([field]) => !PACKAGE_TEST_FIELDS.includes(field));
  const tests = Object.entries(was).filter(([field]) => PACKAGE_TEST_FIELDS.includes(field));
  return `${JSON.stringify(Object.fromEntries([...kept, ...tests]), null, 2)}\n`;
}

/** Whether a path defines tests: a test file (or a helper among them), or a runner's configuration. */
export const definesTests = (path: string): boolean => isTestPath(path) || TEST_CONFIG.test(basename(path));

/**
 * The test-defining paths whose content differs from the last accepted state, each with that content (null: it
 * did not exist, so it goes). A new test file only adds tests and stays; a new configuration may leave tests out.
 */
export function heldVersions(
  written: ReadonlyMap<string, string | null>,
  accepted: (path: string) => string | null | undefined,
): Map<string, string | null> {
  const held = new Map<string, string | null>();
  for (const [path, content] of written) {
    if (!definesTests(path)) continue;
    const was = accepted(path);
    if (was === undefined || was === content) continue;
    if (was === null && !TEST_CONFIG.test(basename(path))) continue;
    if (basename(path) === "package.json") {
      const tests = was !== null && content !== null ? heldPackageJson(was, content) : undefined;
      if (tests !== undefined) held.set(path, tests);
      continue;
    }
    held.set(path, was);
  }
  return held;
}

/**
 * Whether the request names one of the paths: then changing it is what was asked. A file name alone counts when
 * it says what the file is (`stats.test.js`, `conftest.py`); `test/stats.js` is named only whole, since `stats.js`
 * is as likely the code.
 */
export function requestNames(instruction: string, paths: Iterable<string>): boolean {
  const text = instruction.toLowerCase();
  return [...paths].some((path) => {
    const name = basename(path);
    return text.includes(path.toLowerCase()) || (definesTests(name) && text.includes(name.toLowerCase()));
  });
}

/** The tests the baseline named that a run no longer names as failing: what the change made pass. */
export const madePass = (baseline: TestSummary | null, after: TestSummary): string[] =>
  (baseline?.failing ?? []).filter((name) => !after.failing.includes(name));

/**
 * Why the change does not hold with the tests as they were, or undefined when it does: every test the baseline
 * named that the change made pass must not fail there. A test that passed before and fails there is not held
 * against it: a fix may mean to change what a test asserts, and the request judges that.
 */
export function heldVerdict(
  baseline: TestSummary | null,
  after: TestSummary,
  held: TestSummary,
): { why: string; failing: string[] } | undefined {
  const fixed = madePass(baseline, after);
  const failing = held.failing.filter((name) => fixed.includes(name));
  if (failing.length === 0) return undefined;
  return {
    why: `with the tests as they were, ${failing.length} test(s) that failed before still fail: the change to the tests made them pass`,
    failing,
  };
}
