/**
 * Which command runs a repository's tests when neither the request nor the repo config names one (pure): one
 * detected from the project's files. Python needs one probe (is pytest installed?), which the caller runs through
 * the test runner and passes back as `pytestAvailable`.
 */

import { chainedTestScript, partCommand, swallowedCommand } from "./chained-script.js";
import { yarnPlugAndPlay } from "./node-manager.js";
import { toxCommands } from "./tox-config.js";
import { lintScript } from "./lint-script.js";
import { PYTHON_CHECK_FILES, pythonChecks } from "./python-checks.js";
import { typeCheckScript } from "./type-check-script.js";

export type TestCommandSource = "request" | "repo-config" | "detected";

export interface TestCommand {
  readonly command: string;
  readonly source: TestCommandSource;
  /** How `command` is run when not as one command line: its steps, in order (see `npmTestCommand`). */
  readonly steps?: readonly TestStep[];
}

export interface TestStep {
  readonly command: string;
  /** A step that runs tests, whose output names them (a script may run its runner more than once). */
  readonly main: boolean;
  /**
   * A check patchsmith added after `npm test` (the project's type check, its lint): it runs on a time limit of its own, and
   * running out of it fails that step alone, so that a slow check never turns every run into a timeout.
   */
  readonly added?: boolean;
  /** What an added check checks: a request about that keeps it even when it fails before (unenforced-checks.ts). */
  readonly checks?: CheckKind;
}

export type CheckKind = "lint" | "types";

/** A check patchsmith adds after the tests: its command and what it checks. */
export interface AddedCheck {
  readonly command: string;
  readonly checks: CheckKind;
}

/** What detection needs to know about the project: its tracked paths and a few small files' contents. */
export interface ProjectFacts {
  readonly paths: readonly string[];
  readonly read: (path: string) => string | undefined;
}

/** The files detection reads, so the caller can fetch exactly these. */
export const DETECTION_FILES = [
  "package.json",
  ".yarnrc.yml",
  "pyproject.toml",
  "setup.cfg",
  "tox.ini",
  "Makefile",
  "makefile",
  ...PYTHON_CHECK_FILES,
] as const;

// npm init writes this placeholder; running it would report a failure that means "no tests".
const NPM_PLACEHOLDER = /no test specified/i;

/** The scripts of package.json (strings only); undefined when there is none or it does not parse. */
function npmScripts(facts: ProjectFacts): Readonly<Record<string, string>> | undefined {
  const text = facts.read("package.json");
  if (text === undefined) return undefined;
  try {
    const pkg = JSON.parse(text) as { scripts?: Record<string, unknown> };
    const scripts: Record<string, string> = {};
    for (const [name, script] of Object.entries(pkg.scripts ?? {})) {
      if (typeof script === "string" && script.trim() !== "") scripts[name] = script;
    }
    return scripts;
  } catch {
    return undefined;
  }
}

/**
 * `npm test`; when package.json has a `pretest` or `posttest` script, run as its steps, each whatever the others'
 * outcome. npm stops at the first failing step, so a lint in `pretest` failing on lines nobody touched hides every
 * test result, and a `posttest` that cannot pass in the sandbox (an audit asking the registry: the tests run without
 * network) runs only once the tests pass, which makes a fixed repository look broken in a new way. Step by step,
 * each fails the same way before and after a change, and each is judged on its own (a build in `pretest` that a
 * change breaks is worse however the tests then do).
 */
function npmTestCommand(scripts: Readonly<Record<string, string>>, facts: ProjectFacts): Detection | undefined {
  const test = scripts["test"];
  if (test === undefined || NPM_PLACEHOLDER.test(test)) return undefined;
  // Plug'n'Play leaves no node_modules/.bin for npm to run the script with; Yarn runs it (and no pre/post script).
  if (yarnPlugAndPlay(facts)) return { kind: "command", command: "yarn test" };
  const pre = scripts["pretest"] !== undefined;
  const post = scripts["posttest"] !== undefined;
  // A script ending in `|| true`, or piped into `tee`, passes whatever its tests say: what comes before that runs
  // instead.
  const swallowed = swallowedCommand(test);
  // A script that chains a lint or a type check around the runner is run part by part too (chained-script.ts),
  // each part as npm would run it.
  const chained = chainedTestScript(swallowed ?? test, scripts);
  // The project's type check and lint, when the tests do not check types or lint (type-check-script.ts,
  // lint-script.ts).
  const typeCheck = typeCheckScript(scripts);
  const lint = lintScript(scripts);
  const added: AddedCheck[] = [
    ...(typeCheck === undefined ? [] : [{ command: `npm run ${typeCheck}`, checks: "types" as const }]),
    ...(lint === undefined ? [] : [{ command: `npm run ${lint}`, checks: "lint" as const }]),
  ];
  if (!pre && !post && chained === undefined && swallowed === undefined && added.length === 0)
    return { kind: "command", command: "npm test" };
  const testSteps =
    chained === undefined
      ? [{ command: swallowed === undefined ? "npm test --ignore-scripts" : partCommand(swallowed), main: true }]
      : chained.parts.map((part, i) => ({ command: partCommand(part), main: chained.tests.includes(i) }));
  const steps: TestStep[] = [
    ...(pre ? [{ command: "npm run pretest", main: false }] : []),
    ...testSteps,
    ...(post ? [{ command: "npm run posttest", main: false }] : []),
    ...added.map(addedStep),
  ];
  const command = ["npm test", ...added.map((check) => check.command)].join(THEN);
  return { kind: "command", command, steps };
}

const isPythonTestFile = (p: string): boolean => /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(p);

const DJANGO_TESTS = "python3 manage.py test";

/** Whether the project configures pytest (a pytest.ini, a root conftest.py, a pytest section in its config files). */
export function hasPytestConfig(facts: ProjectFacts): boolean {
  return (
    facts.paths.includes("pytest.ini") ||
    facts.paths.includes("conftest.py") ||
    /\[tool\.pytest/.test(facts.read("pyproject.toml") ?? "") ||
    /\[tool:pytest\]/.test(facts.read("setup.cfg") ?? "") ||
    /\[pytest\]/.test(facts.read("tox.ini") ?? "")
  );
}

/**
 * Whether the project runs its tests with unittest, as it says itself: the commands of tox.ini or the Makefile's
 * `test` target run `-m unittest` and name no pytest. Pytest collects such suites too, but not always (a helper
 * class named `Test…` with an `__init__` stops its collection): the project's own runner is the one it passes.
 */
function runsUnittest(facts: ProjectFacts): boolean {
  const makefile = facts.read("Makefile") ?? facts.read("makefile") ?? "";
  const testTarget = /^test\s*:.*\n((?:\t.*\n?)*)/m.exec(makefile)?.[1] ?? "";
  const declared = `${testTarget}\n${toxCommands(facts.read("tox.ini"))}`;
  return /-m\s+unittest\b/.test(declared) && !/pytest/.test(declared);
}

/**
 * "pytest" when the project shows pytest config or Python test files; the folder tests live in, if any, and
 * whether the project says it runs them with unittest (and shows no pytest config).
 */
function pythonTests(
  facts: ProjectFacts,
  pytestConfig: boolean,
): { readonly testsDir: string | undefined; readonly unittest: boolean } | undefined {
  const { paths } = facts;
  const inTestsDir = paths.some((p) => /^tests?\//.test(p) && p.endsWith(".py"));
  if (!pytestConfig && !inTestsDir && !paths.some(isPythonTestFile)) return undefined;
  const dir = paths.some((p) => p.startsWith("tests/"))
    ? "tests"
    : paths.some((p) => p.startsWith("test/"))
      ? "test"
      : undefined;
  return { testsDir: dir, unittest: !pytestConfig && runsUnittest(facts) };
}

function hasMakeTest(facts: ProjectFacts): boolean {
  const text = facts.read("Makefile") ?? facts.read("makefile");
  return text !== undefined && /^test\s*:/m.test(text);
}

export type Detection =
  | { readonly kind: "command"; readonly command: string; readonly steps?: readonly TestStep[] }
  /**
   * Python: run `pytest` when the probe says it is installed, else `fallback` (unittest); then the `added` checks
   * (`withAddedChecks`).
   */
  | {
      readonly kind: "python";
      readonly pytest: string;
      readonly fallback: string;
      readonly probe: string;
      readonly added: readonly AddedCheck[];
    }
  | { readonly kind: "none" };

/** How a test command's label joins the checks patchsmith adds after its tests (`npm test, then npm run lint`). */
export const THEN = ", then ";

const addedStep = (check: AddedCheck): TestStep => ({
  command: check.command,
  main: false,
  added: true,
  checks: check.checks,
});

/** A test command line, run as one step, then the checks patchsmith adds after it (each a step of its own). */
export function withAddedChecks(
  command: string,
  added: readonly AddedCheck[],
): { readonly command: string; readonly steps?: readonly TestStep[] } {
  if (added.length === 0) return { command };
  return {
    command: [command, ...added.map((check) => check.command)].join(THEN),
    steps: [{ command, main: true }, ...added.map(addedStep)],
  };
}

export const PYTEST_PROBE = 'python3 -c "import pytest"';

/**
 * pytest as detected: a test module that cannot be imported (an optional dependency no set-up installs) no longer
 * stops the whole session ("Interrupted: 1 error during collection"), so the other modules' tests still run and
 * judge a change; the module itself is reported as not run, before and after alike, and a change that breaks
 * another module's import still shows as that module newly failing.
 */
const DETECTED_PYTEST = "python3 -m pytest --continue-on-collection-errors";

/** `npm test` as detected, when package.json has a test script: it comes before any other ecosystem's tests. */
function npmDetection(facts: ProjectFacts): Detection | undefined {
  const scripts = npmScripts(facts);
  return scripts === undefined ? undefined : npmTestCommand(scripts, facts);
}

/** Whether the detected tests are `npm test` (so no Python checks run after them, whatever Python files there are). */
export const detectsNpmTest = (facts: ProjectFacts): boolean => npmDetection(facts) !== undefined;

export function detectTestCommand(facts: ProjectFacts): Detection {
  const npm = npmDetection(facts);
  if (npm !== undefined) return npm;
  // A Django project runs its tests through manage.py (its runner sets Django up; its apps' tests live in tests.py),
  // unless it configures pytest (pytest-django).
  const pytestConfig = hasPytestConfig(facts);
  // The checkers the project configures, which its CI runs beside the tests (python-checks.ts).
  const checks = pythonChecks(facts);
  if (facts.paths.includes("manage.py") && !pytestConfig)
    return { kind: "command", ...withAddedChecks(DJANGO_TESTS, checks) };
  const python = pythonTests(facts, pytestConfig);
  if (python !== undefined) {
    const fallback =
      python.testsDir === undefined
        ? "python3 -m unittest discover"
        : `python3 -m unittest discover -s ${python.testsDir}`;
    if (python.unittest) return { kind: "command", ...withAddedChecks(fallback, checks) };
    return { kind: "python", pytest: DETECTED_PYTEST, fallback, probe: PYTEST_PROBE, added: checks };
  }
  if (facts.paths.includes("go.mod")) return { kind: "command", command: "go test ./..." };
  if (facts.paths.includes("Cargo.toml")) return { kind: "command", command: "cargo test" };
  if (hasMakeTest(facts)) return { kind: "command", command: "make test" };
  return { kind: "none" };
}
