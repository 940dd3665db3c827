/**
 * Which command runs a repository's tests when neither the request nor the repo config names one (pure): one
 * detected from the project's files. Python needs one probe (is pytest installed?), which the caller runs through
 * the test runner and passes back as `pytestAvailable`.
 */

export type TestCommandSource = "request" | "repo-config" | "detected";

export interface TestCommand {
  readonly command: string;
  readonly source: TestCommandSource;
}

/** What detection needs to know about the project: its tracked paths and a few small files' contents. */
export interface ProjectFacts {
  readonly paths: readonly string[];
  readonly read: (path: string) => string | undefined;
}

/** The files detection reads, so the caller can fetch exactly these. */
export const DETECTION_FILES = [
  "package.json",
  "pyproject.toml",
  "setup.cfg",
  "tox.ini",
  "Makefile",
  "makefile",
] as const;

// npm init writes this placeholder; running it would report a failure that means "no tests".
const NPM_PLACEHOLDER = /no test specified/i;

function hasNpmTest(facts: ProjectFacts): boolean {
  const text = facts.read("package.json");
  if (text === undefined) return false;
  try {
    const pkg = JSON.parse(text) as { scripts?: Record<string, unknown> };
    const script = pkg.scripts?.["test"];
    return typeof script === "string" && script.trim() !== "" && !NPM_PLACEHOLDER.test(script);
  } catch {
    return false;
  }
}

const isPythonTestFile = (p: string): boolean => /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(p);

/** "pytest" when the project shows pytest config or Python test files; the folder tests live in, if any. */
function pythonTests(facts: ProjectFacts): { readonly testsDir: string | undefined } | undefined {
  const { paths } = facts;
  const pytestConfig =
    paths.includes("pytest.ini") ||
    paths.includes("conftest.py") ||
    /\[tool\.pytest/.test(facts.read("pyproject.toml") ?? "") ||
    /\[tool:pytest\]/.test(facts.read("setup.cfg") ?? "") ||
    /\[pytest\]/.test(facts.read("tox.ini") ?? "");
  const inTestsDir = paths.some((p) => /^tests?\//.test(p) && p.endsWith(".py"));
  if (!pytestConfig && !inTestsDir && !paths.some(isPythonTestFile)) return undefined;
  const dir = paths.some((p) => p.startsWith("tests/"))
    ? "tests"
    : paths.some((p) => p.startsWith("test/"))
      ? "test"
      : undefined;
  return { testsDir: dir };
}

function hasMakeTest(facts: ProjectFacts): boolean {
  const text = facts.read("Makefile") ?? facts.read("makefile");
  return text !== undefined && /^test\s*:/m.test(text);
}

export type Detection =
  | { readonly kind: "command"; readonly command: string }
  /** Python: run `pytest` when the probe says it is installed, else `fallback` (unittest). */
  | { readonly kind: "python"; readonly pytest: string; readonly fallback: string; readonly probe: string }
  | { readonly kind: "none" };

export const PYTEST_PROBE = 'python3 -c "import pytest"';

export function detectTestCommand(facts: ProjectFacts): Detection {
  if (hasNpmTest(facts)) return { kind: "command", command: "npm test" };
  const python = pythonTests(facts);
  if (python !== undefined) {
    const fallback =
      python.testsDir === undefined
        ? "python3 -m unittest discover"
        : `python3 -m unittest discover -s ${python.testsDir}`;
    return { kind: "python", pytest: "python3 -m pytest", fallback, probe: PYTEST_PROBE };
  }
  if (facts.paths.includes("go.mod")) return { kind: "command", command: "go test ./..." };
  if (facts.paths.includes("Cargo.toml")) return { kind: "command", command: "cargo test" };
  if (hasMakeTest(facts)) return { kind: "command", command: "make test" };
  return { kind: "none" };
}
