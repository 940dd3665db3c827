/**
 * Real git repositories in temp folders for tests: a small Node library and a small Python library, each with real
 * tests and a known, configurable bug; and bare remotes for push tests.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const TEST_IDENTITY = { name: "Repo Owner", email: "owner@example.com" } as const;

export interface TempRepo {
  /** The working tree (a normal, non-bare repository). */
  readonly dir: string;
  readonly branch: string;
  readonly headSha: string;
  /** The command that runs the repository's tests. */
  readonly testCommand: string;
  /** The known bug, when planted: the file and the exact text that fixes it (for scripted model replies). */
  readonly bug?: {
    readonly path: string;
    readonly buggy: string;
    readonly fixed: string;
    readonly failingTest: string;
  };
  cleanup(): void;
}

export interface RepoOptions {
  /** Plant the known bug (default true): one test fails until it is fixed. */
  readonly bug?: boolean;
  /** Default branch name (default "main"). */
  readonly branch?: string;
  /** Extra files, relative path → content, committed with the rest. */
  readonly files?: Readonly<Record<string, string>>;
  /** Parent folder (default the OS temp dir). */
  readonly tempRoot?: string;
}

/** Runs git with a fixed identity and none of the machine's hooks or signing. */
export function git(cwd: string, args: readonly string[]): string {
  return execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "commit.gpgSign=false", ...args], {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: TEST_IDENTITY.name,
      GIT_AUTHOR_EMAIL: TEST_IDENTITY.email,
      GIT_COMMITTER_NAME: TEST_IDENTITY.name,
      GIT_COMMITTER_EMAIL: TEST_IDENTITY.email,
    },
  });
}

export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

function makeRepo(
  prefix: string,
  files: Readonly<Record<string, string>>,
  options: RepoOptions,
  testCommand: string,
  bug: TempRepo["bug"],
): TempRepo {
  const dir = mkdtempSync(join(options.tempRoot ?? tmpdir(), prefix));
  const branch = options.branch ?? "main";
  git(dir, ["init", "--quiet", "--initial-branch", branch]);
  writeFiles(dir, { ...files, ...(options.files ?? {}) });
  git(dir, ["add", "--all"]);
  git(dir, ["commit", "--quiet", "-m", "Initial commit"]);
  const headSha = git(dir, ["rev-parse", "HEAD"]).trim();
  return {
    dir,
    branch,
    headSha,
    testCommand,
    ...(bug === undefined ? {} : { bug }),
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A repository of exactly these files, committed on `main`. */
export function makeRepoFrom(
  prefix: string,
  files: Readonly<Record<string, string>>,
  options: RepoOptions = {},
): TempRepo {
  return makeRepo(prefix, files, options, "", undefined);
}

const NODE_BUGGY = "  return total / (values.length - 1);";
const NODE_FIXED = "  return total / values.length;";

/** A Node ESM library (`src/stats.js`) with node:test tests; `npm test` runs `node --test`, no install needed. */
export function makeNodeRepo(options: RepoOptions = {}): TempRepo {
  const planted = options.bug ?? true;
  const files = {
    "package.json": `${JSON.stringify(
      { name: "tiny-stats", version: "1.0.0", type: "module", private: true, scripts: { test: "node --test" } },
      null,
      2,
    )}\n`,
    ".gitignore": "node_modules/\n",
    "README.md": "# tiny-stats\n\nSmall statistics helpers.\n",
    "src/stats.js": [
      "/** Sum of the values. */",
      "export function sum(values) {",
      "  return values.reduce((acc, value) => acc + value, 0);",
      "}",
      "",
      "/** Arithmetic mean; 0 for an empty list. */",
      "export function mean(values) {",
      "  if (values.length === 0) return 0;",
      "  const total = sum(values);",
      planted ? NODE_BUGGY : NODE_FIXED,
      "}",
      "",
      "/** Largest value; undefined for an empty list. */",
      "export function max(values) {",
      "  return values.length === 0 ? undefined : Math.max(...values);",
      "}",
      "",
    ].join("\n"),
    "test/stats.test.js": [
      'import { test } from "node:test";',
      'import assert from "node:assert/strict";',
      'import { sum, mean, max } from "../src/stats.js";',
      "",
      'test("sum adds the values", () => {',
      "  assert.equal(sum([1, 2, 3]), 6);",
      "});",
      "",
      'test("mean averages the values", () => {',
      "  assert.equal(mean([2, 4, 6]), 4);",
      "});",
      "",
      'test("max finds the largest value", () => {',
      "  assert.equal(max([3, 9, 2]), 9);",
      "});",
      "",
    ].join("\n"),
  };
  const bug = { path: "src/stats.js", buggy: NODE_BUGGY, fixed: NODE_FIXED, failingTest: "mean averages the values" };
  return makeRepo("patchsmith-node-", files, options, "npm test", planted ? bug : undefined);
}

/** True when `python3 -m pytest` works on this machine. */
export function hasPytest(): boolean {
  return spawnSync("python3", ["-m", "pytest", "--version"], { stdio: "ignore" }).status === 0;
}

const PY_BUGGY = "    return max(low, min(value, low))";
const PY_FIXED = "    return max(low, min(value, high))";

/**
 * A Python package (`calc/bounds.py`) with unittest-style tests, run by pytest when installed, else by unittest
 * (both read the same test file).
 */
export function makePythonRepo(options: RepoOptions = {}): TempRepo {
  const planted = options.bug ?? true;
  const files = {
    ".gitignore": "__pycache__/\n.pytest_cache/\n",
    "calc/__init__.py": "",
    "calc/bounds.py": [
      '"""Keeping numbers inside bounds."""',
      "",
      "",
      "def clamp(value, low, high):",
      '    """Return value limited to the closed range [low, high]."""',
      planted ? PY_BUGGY : PY_FIXED,
      "",
      "",
      "def in_range(value, low, high):",
      "    return low <= value <= high",
      "",
    ].join("\n"),
    "tests/__init__.py": "",
    "tests/test_bounds.py": [
      "import unittest",
      "",
      "from calc.bounds import clamp, in_range",
      "",
      "",
      "class BoundsTest(unittest.TestCase):",
      "    def test_clamp_inside(self):",
      "        self.assertEqual(clamp(5, 0, 10), 5)",
      "",
      "    def test_clamp_below(self):",
      "        self.assertEqual(clamp(-3, 0, 10), 0)",
      "",
      "    def test_in_range(self):",
      "        self.assertTrue(in_range(3, 1, 4))",
      "",
      "",
      'if __name__ == "__main__":',
      "    unittest.main()",
      "",
    ].join("\n"),
  };
  const testCommand = hasPytest() ? "python3 -m pytest -q -p no:cacheprovider" : "python3 -m unittest discover -v";
  const bug = { path: "calc/bounds.py", buggy: PY_BUGGY, fixed: PY_FIXED, failingTest: "test_clamp_inside" };
  return makeRepo("patchsmith-py-", files, options, testCommand, planted ? bug : undefined);
}

export interface BareRemote {
  readonly dir: string;
  /** file:// URL of the bare repository. */
  readonly url: string;
  cleanup(): void;
}

/** A bare copy of `repo` to clone from and push to (pushing to a checked-out branch of a work tree is refused). */
export function makeBareRemote(repo: Pick<TempRepo, "dir">, tempRoot?: string): BareRemote {
  const parent = mkdtempSync(join(tempRoot ?? tmpdir(), "patchsmith-remote-"));
  const dir = join(parent, "remote.git");
  git(parent, ["clone", "--quiet", "--bare", "--", repo.dir, dir]);
  return {
    dir,
    url: `file://${dir}`,
    cleanup: () => {
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

/** Adds a commit to a working tree (e.g. someone else pushing meanwhile); returns its SHA. */
export function commitFile(dir: string, path: string, content: string, message = `Update ${path}`): string {
  writeFiles(dir, { [path]: content });
  git(dir, ["add", "--all"]);
  git(dir, ["commit", "--quiet", "-m", message]);
  return git(dir, ["rev-parse", "HEAD"]).trim();
}
