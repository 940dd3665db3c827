/**
 * `runFix` with the real adapters: the openai SDK against the fake OpenAI server on 127.0.0.1, real git clones of
 * real temp repositories with real failing tests, the real test runner. The model's replies are scripted.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { runFix } from "../../src/agent/run-fix.js";
import type { FixReport, FixRequest } from "../../src/agent/types.js";
import { makeNodeRepo, makePythonRepo, type TempRepo } from "../fakes/git-repos.js";
import { startFakeOpenAI, type FakeOpenAIServer, type ScriptStep } from "../fakes/openai-server.js";
import { API_KEY, block, commitsOf, realDeps, treeState } from "./fix-helpers.js";

const BOT = "patchsmith[bot] <patchsmith[bot]@users.noreply.github.com>";
const BUGGY = "  return total / (values.length - 1);";
const FIXED = "  return total / values.length;";
const FIX = block("src/stats.js", BUGGY, FIXED, "fix(stats): divide the mean by the number of values");

/** A fenced git diff of the fix to src/stats.js, followed by the sections given (lines of other files' diffs). */
const gitDiffWithFix = (...sections: string[]): string =>
  [
    "```diff",
    "diff --git a/src/stats.js b/src/stats.js",
    "--- a/src/stats.js",
    "+++ b/src/stats.js",
    "@@ @@",
    `-${BUGGY}`,
    `+${FIXED}`,
    ...sections,
    "```",
  ].join("\n");

let repos: TempRepo[] = [];
let servers: FakeOpenAIServer[] = [];
let kept: string[] = [];

afterEach(async () => {
  for (const dir of kept) rmSync(dir, { recursive: true, force: true });
  for (const repo of repos) repo.cleanup();
  for (const server of servers) await server.close();
  repos = [];
  servers = [];
  kept = [];
});

async function fix(
  script: readonly ScriptStep[],
  request: Partial<FixRequest> = {},
  repo: TempRepo = makeNodeRepo(),
): Promise<{ report: FixReport; repo: TempRepo; server: FakeOpenAIServer; before: ReturnType<typeof treeState> }> {
  repos.push(repo);
  const server = await startFakeOpenAI(script);
  servers.push(server);
  const before = treeState(repo);
  const report = await runFix(realDeps(server.url), {
    repo: repo.dir,
    instruction: "The mean of [2, 4, 6] should be 4",
    coAuthor: "Ada Lovelace <ada@example.com>",
    trailers: { "Patchsmith-Request": "https://example.com/issues/1" },
    keep: true,
    ...request,
  });
  if (report.clonePath !== undefined) kept.push(report.clonePath);
  // The caller's working tree is never touched.
  expect(treeState(repo)).toEqual(before);
  return { report, repo, server, before };
}

function expectAttributedCommits(report: FixReport, count: number): void {
  expect(report.commits).toHaveLength(count);
  const commits = commitsOf(report.clonePath!, `${report.baseSha}..${report.headSha}`);
  expect(commits).toHaveLength(count);
  for (const commit of commits) {
    expect(commit.author).toBe(BOT);
    expect(commit.message).toMatch(
      /\n\nCo-authored-by: Ada Lovelace <ada@example.com>\nPatchsmith-Model: fake-model\nPatchsmith-Request: https:\/\/example.com\/issues\/1$/,
    );
  }
}

/** A lint that fails on an untouched file (README.md) whatever the change, and on a `debugger` in src/stats.js. */
const LINT_SCRIPT = [
  'import { readFileSync } from "node:fs";',
  "let problems = 0;",
  'if (readFileSync("README.md", "utf8").includes("helpers.")) {',
  '  console.error("README.md:3:26  error  Sentences end without a full stop  house/style");',
  "  problems++;",
  "}",
  'readFileSync("src/stats.js", "utf8").split("\\n").forEach((line, i) => {',
  '  if (!line.includes("debugger")) return;',
  "  console.error(`src/stats.js:${i + 1}:3  error  Unexpected debugger statement  no-debugger`);",
  "  problems++;",
  "});",
  "process.exit(problems > 0 ? 1 : 0);",
  "",
].join("\n");

/** The Node repository with these npm scripts, LINT_SCRIPT as scripts/lint.js, and `files` besides. */
const lintedRepo = (scripts: Record<string, string>, files: Record<string, string> = {}): TempRepo =>
  makeNodeRepo({
    files: {
      "package.json": `${JSON.stringify({ name: "tiny-stats", type: "module", private: true, scripts })}\n`,
      "scripts/lint.js": LINT_SCRIPT,
      ...files,
    },
  });

describe("patchsmith fix, real adapters", () => {
  it("fixes a Node project: one attributed commit on a new branch, tests red before and green after", async () => {
    const { report, server } = await fix([FIX]);
    expect(report.status).toBe("success");
    expect(report.branch).toBe("patchsmith/the-mean-of-2-4-6-should-be-4");
    expectAttributedCommits(report, 1);
    expect(report.commits[0]!.subject).toBe("fix(stats): divide the mean by the number of values");
    expect(report.tests.before).toMatchObject({ command: "npm test", passed: false });
    expect(report.tests.before!.failing).toContain("mean averages the values");
    expect(report.tests.after?.passed).toBe(true);
    expect(report.changedFiles.map((f) => f.path)).toEqual(["src/stats.js"]);
    expect(report.diffStat).toContain("src/stats.js");
    expect(report.usage.calls).toBe(1);
    expect(report.usage.totalTokens).toBeGreaterThan(0);
    // The prompt carried the file, wrapped as data, and the failing test.
    const prompt = server.chatRequests[0]!.messages.at(-1)!.content;
    expect(prompt).toContain('<untrusted-data source="file src/stats.js">');
    expect(prompt).toContain("mean averages the values");
  });

  it("fixes a Python project with its real tests", async () => {
    const py = makePythonRepo();
    const bug = py.bug!;
    const { report } = await fix(
      [block(bug.path, bug.buggy, bug.fixed, "fix(bounds): clamp inside the range")],
      {
        instruction: "clamp() returns the wrong value inside the range",
      },
      py,
    );
    expect(report.status).toBe("success");
    expectAttributedCommits(report, 1);
    expect(report.tests.before?.passed).toBe(false);
    expect(report.tests.after?.passed).toBe(true);
    expect(report.testCommand?.source).toBe("detected");
  });

  // flake8 is a Debian package .ci/run installs.
  const hasFlake8 = spawnSync("flake8", ["--version"], { stdio: "ignore" }).status === 0;
  it.skipIf(!hasFlake8)(
    "runs the flake8 a Python project configures after its tests: a change it rejects is not taken",
    async () => {
      const py = makePythonRepo({ files: { ".flake8": "[flake8]\nmax-line-length = 100\n" } });
      const bug = py.bug!;
      const docstring = '"""Keeping numbers inside bounds."""';
      const { report, server } = await fix(
        [
          [
            block(bug.path, bug.buggy, bug.fixed, "fix(bounds): clamp inside the range"),
            block(bug.path, docstring, `${docstring}\nimport os`),
          ].join("\n\n"),
          block(bug.path, `${docstring}\nimport os`, docstring),
        ],
        { instruction: "clamp() returns the wrong value inside the range" },
        py,
      );
      expect(report.testCommand?.command).toMatch(/, then flake8 --extend-exclude \.venv$/);
      expect(report.tests.before?.steps?.map((s) => s.passed)).toEqual([false, true]);
      expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
      expect(report.attempts[0]!.tests!.failing).toEqual([]);
      expect(report.attempts[0]!.note).toContain(
        "`flake8 --extend-exclude .venv` passed before the change and fails now",
      );
      const reflection = server.chatRequests[1]!.messages.at(-1)!.content;
      expect(reflection).toContain("calc/bounds.py:2:1: F401 'os' imported but unused");
      expect(report.status).toBe("success");
      expect(report.diff).not.toContain("import os");
    },
  );

  it.skipIf(!hasFlake8)(
    "runs the flake8 call a Python project's CI workflow makes after its tests: a change it rejects is not taken",
    async () => {
      const workflow = [
        "on: [push]",
        "jobs:",
        "  lint:",
        "    runs-on: ubuntu-latest",
        "    steps:",
        "      - run: pip install flake8",
        "      - run: flake8 . --count --select=E9,F63,F7,F82 --show-source --statistics",
        "",
      ].join("\n");
      const py = makePythonRepo({ files: { ".github/workflows/ci.yml": workflow } });
      const bug = py.bug!;
      const RANGE = "    return low <= value <= high";
      // Untested, so the tests pass; an undefined name, which the workflow's flake8 selects.
      const describe = `${RANGE}\n\n\ndef describe(value):\n    return f"{value} in {bounds}"`;
      const { report, server } = await fix(
        [
          [
            block(bug.path, bug.buggy, bug.fixed, "fix(bounds): clamp inside the range"),
            block(bug.path, RANGE, describe),
          ].join("\n\n"),
          block(bug.path, '    return f"{value} in {bounds}"', '    return f"{value} in range"'),
        ],
        { instruction: "clamp() returns the wrong value inside the range" },
        py,
      );
      const check = "flake8 . --count --select=E9,F63,F7,F82 --show-source --statistics --extend-exclude .venv";
      expect(report.testCommand?.command.endsWith(`, then ${check}`)).toBe(true);
      expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
      expect(report.attempts[0]!.tests!.failing).toEqual([]);
      const reflection = server.chatRequests[1]!.messages.at(-1)!.content;
      expect(reflection).toContain("F821 undefined name 'bounds'");
      expect(report.status).toBe("success");
      expect(report.diff).toContain('in range"');
    },
  );

  // mypy is a Debian package .ci/run installs.
  const hasMypy = spawnSync("mypy", ["--version"], { stdio: "ignore" }).status === 0;
  it.skipIf(!hasMypy)(
    "runs the mypy a Python project configures after its tests: a change whose types are wrong is not taken",
    async () => {
      const py = makePythonRepo({ files: { "setup.cfg": "[mypy]\nfiles = calc\n" } });
      const bug = py.bug!;
      const signature = "def clamp(value, low, high):";
      const typed = "def clamp(value: int, low: int, high: int)";
      const { report, server } = await fix(
        [
          [
            block(bug.path, bug.buggy, bug.fixed, "fix(bounds): clamp inside the range"),
            block(bug.path, signature, `${typed} -> str:`),
          ].join("\n\n"),
          block(bug.path, `${typed} -> str:`, `${typed} -> int:`),
        ],
        { instruction: "clamp() returns the wrong value inside the range" },
        py,
      );
      expect(report.testCommand?.command).toMatch(/, then mypy$/);
      expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
      expect(report.attempts[0]!.tests!.failing).toEqual([]);
      expect(report.attempts[0]!.note).toContain("`mypy` passed before the change and fails now");
      const reflection = server.chatRequests[1]!.messages.at(-1)!.content;
      expect(reflection).toContain('Incompatible return value type (got "int", expected "str")');
      expect(report.status).toBe("success");
      expect(report.diff).toContain("-> int:");
    },
  );

  // Black is a Debian package .ci/run installs.
  const hasBlack = spawnSync("black", ["--version"], { stdio: "ignore" }).status === 0;
  it.skipIf(!hasBlack)(
    "shows the model what Black would write when the Black check chained before the tests fails, and the next reply passes it",
    async () => {
      const py = makePythonRepo();
      const bug = py.bug!;
      const unformatted = bug.fixed.replace(", high)", ",high)");
      const { report, server } = await fix(
        [
          block(bug.path, bug.buggy, unformatted, "fix(bounds): clamp inside the range"),
          block(bug.path, unformatted, bug.fixed),
        ],
        {
          instruction: "clamp() returns the wrong value inside the range",
          testCommand: `black --check calc && ${py.testCommand}`,
        },
        py,
      );
      expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
      const reflection = server.chatRequests[1]!.messages.at(-1)!.content;
      expect(reflection).toContain("black would write calc/bounds.py so:\n--- calc/bounds.py");
      expect(reflection).toContain(`\n-${unformatted}\n+${bug.fixed}\n`);
      expect(report.status).toBe("success");
    },
  );

  const hasIsort = spawnSync("isort", ["--version"], { stdio: "ignore" }).status === 0;
  it.skipIf(!hasIsort)("shows the model the diff isort would make when its check fails after the edits", async () => {
    const py = makePythonRepo();
    const bug = py.bug!;
    const header = '"""Keeping numbers inside bounds."""';
    const unsorted = `${header}\nimport sys\nimport math`;
    const { report, server } = await fix(
      [
        [
          block(bug.path, bug.buggy, bug.fixed, "fix(bounds): clamp inside the range"),
          block(bug.path, header, unsorted),
        ].join("\n\n"),
        block(bug.path, "import sys\nimport math", "import math\nimport sys"),
      ],
      {
        instruction: "clamp() returns the wrong value inside the range",
        testCommand: `isort --check-only calc && ${py.testCommand}`,
      },
      py,
    );
    expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
    const reflection = server.chatRequests[1]!.messages.at(-1)!.content;
    expect(reflection).toMatch(/isort would write calc\/bounds\.py so:\n--- calc\/bounds\.py:before/);
    expect(reflection).toContain("\n+import math\n import sys\n-import math\n");
    expect(reflection).not.toContain(py.dir);
    expect(report.status).toBe("success");
  });

  it("shows the model the repository's notes for coding agents, the root's and those of the folders it edits", async () => {
    const repo = makeNodeRepo({
      files: {
        "AGENTS.md": "# Notes for agents\n\nRun `npm test`. Keep functions pure.\n",
        "src/AGENTS.md": "Every exported function has a one-line doc comment.\n",
        "docs/AGENTS.md": "Docs are written in British English.\n",
      },
    });
    const { report, server } = await fix([FIX], {}, repo);
    expect(report.status).toBe("success");
    const prompt = server.chatRequests[0]!.messages.at(-1)!.content;
    expect(prompt).toContain(
      "The repository's notes for coding agents (AGENTS.md): follow them where they bear on the task.",
    );
    expect(prompt).toContain('<untrusted-data source="file AGENTS.md">\n# Notes for agents\n\nRun `npm test`.');
    expect(prompt).toContain("Every exported function has a one-line doc comment.");
    expect(prompt).not.toContain("British English");
    expect(report.context?.instructions).toEqual(["AGENTS.md", "src/AGENTS.md"]);
  });

  it("runs the tests again when a test that passed before fails once after the change, and takes the change when it passes", async () => {
    // A test that fails on the second run of the suite only, counting runs in a folder git ignores (kept between runs).
    const flaky = [
      'import { test } from "node:test";',
      'import assert from "node:assert/strict";',
      'import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";',
      "",
      'test("answers within the deadline", () => {',
      '  mkdirSync(".runs", { recursive: true });',
      '  const run = existsSync(".runs/count") ? Number(readFileSync(".runs/count", "utf8")) + 1 : 1;',
      '  writeFileSync(".runs/count", String(run));',
      '  assert.notEqual(run, 2, "the deadline passed");',
      "});",
      "",
    ].join("\n");
    const repo = makeNodeRepo({ files: { ".gitignore": "node_modules/\n.runs/\n", "test/flaky.test.js": flaky } });
    const { report } = await fix([FIX, "DONE"], {}, repo);
    expect(report.tests.before!.failing).toEqual(["mean averages the values"]);
    expect(report.attempts.map((a) => a.accepted)).toEqual([true]);
    expect(report.attempts[0]!.note).toContain(
      "1 test(s) failed on the first run and passed when run again (flaky?): answers within the deadline",
    );
    expect(report.status).toBe("success");
    expectAttributedCommits(report, 1);
  });

  it("recovers a drifted edit on the ladder (indentation drift)", async () => {
    const drifted = block(
      "src/stats.js",
      `    const total = sum(values);\n  ${BUGGY}`,
      `    const total = sum(values);\n  ${FIXED}`,
    );
    const { report } = await fix([drifted]);
    expect(report.status).toBe("success");
    expect(report.attempts[0]!.edits[0]).toMatchObject({ ok: true });
    expect(report.attempts[0]!.edits[0]!.strategy).not.toBe("exact");
    expectAttributedCommits(report, 1);
  });

  it("commits the modes of a git diff: a new script and a moved one are executable in the commit and on disk", async () => {
    const repo = makeNodeRepo({ files: { "scripts/check.sh": "#!/bin/sh\nnpm test\n" } });
    execFileSync("git", ["update-index", "--chmod=+x", "scripts/check.sh"], { cwd: repo.dir });
    execFileSync("git", ["commit", "--quiet", "-m", "check script"], { cwd: repo.dir });
    execFileSync("chmod", ["+x", "scripts/check.sh"], { cwd: repo.dir });
    const diff = gitDiffWithFix(
      "diff --git a/scripts/check.sh b/scripts/check",
      "similarity index 100%",
      "rename from scripts/check.sh",
      "rename to scripts/check",
      "diff --git a/scripts/mean.sh b/scripts/mean.sh",
      "new file mode 100755",
      "--- /dev/null",
      "+++ b/scripts/mean.sh",
      "@@ -0,0 +1,2 @@",
      "+#!/bin/sh",
      "+node -e 'console.log(1)'",
    );
    const { report } = await fix([diff], {}, repo);
    expect(report.status).toBe("success");
    const modeAt = (path: string): string =>
      execFileSync("git", ["ls-tree", report.headSha, path], { cwd: report.clonePath!, encoding: "utf8" }).split(
        " ",
      )[0]!;
    expect(modeAt("scripts/check")).toBe("100755");
    expect(modeAt("scripts/mean.sh")).toBe("100755");
    expect(modeAt("src/stats.js")).toBe("100644");
    expect(modeAt("scripts/check.sh")).toBe("");
    // The clone's working tree agrees with its commit.
    expect(execFileSync("git", ["status", "--porcelain"], { cwd: report.clonePath!, encoding: "utf8" })).toBe("");
  });

  it("leaves a binary file a diff deletes in place and commits the rest of the change", async () => {
    const repo = makeNodeRepo({ files: { "docs/logo.png": "\u0089PNG\u0000\u0001" } });
    const diff = gitDiffWithFix(
      "diff --git a/docs/logo.png b/docs/logo.png",
      "deleted file mode 100644",
      "index d41be67..0000000",
      "Binary files a/docs/logo.png and /dev/null differ",
    );
    const { report } = await fix([diff, "DONE"], {}, repo);
    expect(report.status).toBe("success");
    expect(report.attempts[0]!.edits).toContainEqual(
      expect.objectContaining({ path: "docs/logo.png", ok: false, reason: "binary-file" }),
    );
    const tree = execFileSync("git", ["ls-tree", "-r", "--name-only", report.headSha], {
      cwd: report.clonePath!,
      encoding: "utf8",
    });
    expect(tree).toContain("docs/logo.png");
    expectAttributedCommits(report, 1);
  });

  it("retries a failed edit with the engine's message and fresh content, then succeeds", async () => {
    const wrong = block("src/stats.js", "  return total / (values.length + 1);", FIXED);
    const { report, server } = await fix([wrong, FIX]);
    expect(report.status).toBe("success");
    expect(report.attempts).toHaveLength(1);
    expect(report.attempts[0]!.retried).toBe(true);
    expect(report.attempts[0]!.edits.map((e) => e.ok)).toEqual([false, true]);
    const retry = server.chatRequests[1]!.messages.at(-1)!.content;
    expect(retry).toContain(BUGGY.trim());
    expectAttributedCommits(report, 1);
  });

  it("lands an edit that names its file by the bare file name, in the repository's only file of that name", async () => {
    const { report } = await fix([block("stats.js", BUGGY, FIXED, "fix(stats): divide the mean by the count")]);
    expect(report.status).toBe("success");
    expect(report.attempts[0]!.edits).toEqual([{ path: "src/stats.js", ok: true, strategy: "exact" }]);
    expectAttributedCommits(report, 1);
  });

  it("rejects a fix that breaks another test and commits the repair of the next attempt", async () => {
    const MAX = "  return values.length === 0 ? undefined : Math.max(...values);";
    const MIN = "  return values.length === 0 ? undefined : Math.min(...values);";
    const breaking = [FIX, block("src/stats.js", MAX, MIN)].join("\n\n");
    const repair = block("src/stats.js", MIN, MAX, "fix(stats): divide by the count");
    const { report, server } = await fix([breaking, repair]);
    expect(report.status).toBe("success");
    expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
    expect(server.chatRequests[1]!.messages.at(-1)!.content).toContain("max finds the largest value");
    expectAttributedCommits(report, 1);
    expect(report.changedFiles[0]!.after).toContain("Math.max(...values)");
  });

  it("tells a model that resends its first edit that the edit is already in the file, and commits the repair", async () => {
    const MAX = "  return values.length === 0 ? undefined : Math.max(...values);";
    const MIN = "  return values.length === 0 ? undefined : Math.min(...values);";
    const breaking = [FIX, block("src/stats.js", MAX, MIN)].join("\n\n");
    const repair = block("src/stats.js", MIN, MAX, "fix(stats): divide by the count");
    // Attempt 2 first sends the mean fix again, written against the file as it first was.
    const { report, server } = await fix([breaking, FIX, repair]);
    const retry = server.chatRequests[2]!.messages.at(-1)!.content;
    expect(retry).toMatch(
      /src\/stats\.js \(edit at reply line \d+\): the SEARCH text stood at lines \d+-\d+ of src\/stats\.js before your earlier edits, which changed those lines and are still in the file \(not undone\)\. They already read as this edit would leave them/,
    );
    expect(retry).toContain(`| ${FIXED}`);
    expect(retry).toContain("This change is made: do not send it again.");
    expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
    expect(report.status).toBe("success");
    expectAttributedCommits(report, 1);
  });

  describe("a change that makes the failing test pass by changing the tests", () => {
    const SKIP = block(
      "test/stats.test.js",
      'test("mean averages the values", () => {',
      'test.skip("mean averages the values", () => {',
    );

    it("is not accepted: the tests run as they were, the change to them is undone, and the real fix is committed", async () => {
      const { report, server } = await fix([SKIP, FIX]);
      expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
      expect(report.attempts[0]!.note).toBe(
        "with the tests as they were, 1 test(s) that failed before still fail: the change to the tests made them pass",
      );
      expect(report.attempts[0]!.tests!.failing).toEqual(["mean averages the values"]);
      const reflection = server.chatRequests[1]!.messages.at(-1)!.content;
      expect(reflection).toContain(
        "Your edits were applied, and the tests pass only because of your changes to `test/stats.test.js`: run with " +
          "that file as it was and the rest of your change in place, they fail",
      );
      expect(reflection).toContain("Failing: mean averages the values. Your changes to it were undone.");
      expect(reflection).toContain('test("mean averages the values", () => {');
      expect(report.status).toBe("success");
      expectAttributedCommits(report, 1);
      expect(report.changedFiles.map((f) => f.path)).toEqual(["src/stats.js"]);
    });

    it("in a Python project, a skip decorator: the tests run as they were, and the real fix is committed", async () => {
      const py = makePythonRepo();
      const bug = py.bug!;
      const skip = block(
        "tests/test_bounds.py",
        "    def test_clamp_inside(self):",
        '    @unittest.skip("later")\n    def test_clamp_inside(self):',
      );
      const fixIt = block(bug.path, bug.buggy, bug.fixed, "fix(bounds): clamp inside the range");
      const { report } = await fix(
        [skip, fixIt],
        { instruction: "clamp() returns the wrong value inside the range" },
        py,
      );
      expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
      expect(report.attempts[0]!.note).toContain(
        "with the tests as they were, 1 test(s) that failed before still fail",
      );
      expect(report.changedFiles.map((f) => f.path)).toEqual(["calc/bounds.py"]);
      expect(report.status).toBe("success");
    });

    it("is what a request that names the test file asks for", async () => {
      const { report } = await fix([SKIP], { instruction: "Skip the mean test in test/stats.test.js for now" });
      expect(report.attempts.map((a) => a.accepted)).toEqual([true]);
      expect(report.changedFiles.map((f) => f.path)).toEqual(["test/stats.test.js"]);
    });

    it("a new test beside the fix, in the same file, is kept", async () => {
      const added = block(
        "test/stats.test.js",
        'test("max finds the largest value", () => {',
        'test("mean of one value is that value", () => {\n  assert.equal(mean([5]), 5);\n});\n\ntest("max finds the largest value", () => {',
      );
      const { report } = await fix([[FIX, added].join("\n\n")]);
      expect(report.attempts.map((a) => a.accepted)).toEqual([true]);
      expect(report.changedFiles.map((f) => f.path).sort()).toEqual(["src/stats.js", "test/stats.test.js"]);
    });
  });

  describe("a lint chained before the tests in the test script fails whatever the change", () => {
    const chainedRepo = () => lintedRepo({ test: "node scripts/lint.js && node --test" });

    it("the tests still run and judge the fix: the failing test is named before and passes after", async () => {
      const { report } = await fix([FIX, "DONE"], {}, chainedRepo());
      expect(report.tests.before!.failing).toEqual(["mean averages the values"]);
      expect(report.attempts[0]!.accepted).toBe(true);
      expect(report.tests.after!.failing).toEqual([]);
      expect(report.status).toBe("success");
      expectAttributedCommits(report, 1);
    });

    it("a change that breaks another test is not accepted, though the lint fails as before", async () => {
      const MAX = "  return values.length === 0 ? undefined : Math.max(...values);";
      const MIN = "  return values.length === 0 ? undefined : Math.min(...values);";
      const breaking = [FIX, block("src/stats.js", MAX, MIN)].join("\n\n");
      const { report } = await fix([breaking, breaking], { maxAttempts: 1 }, chainedRepo());
      expect(report.attempts[0]!.tests!.failing).toEqual(["max finds the largest value"]);
      expect(report.attempts.map((a) => a.accepted)).toEqual([false]);
      expect(report.commits).toEqual([]);
    });
  });

  describe("a test script ending in `|| true` passes whatever its tests say", () => {
    const swallowing = () => lintedRepo({ test: "node --test || true" });

    it("the tests run without it: the failing test is named before, and a change that breaks another is refused", async () => {
      const MAX = "  return values.length === 0 ? undefined : Math.max(...values);";
      const MIN = "  return values.length === 0 ? undefined : Math.min(...values);";
      const breaking = [FIX, block("src/stats.js", MAX, MIN)].join("\n\n");
      // A rejected attempt's edits stay for the next one: the second reply puts `max` back.
      const { report } = await fix(
        [breaking, block("src/stats.js", MIN, MAX), "DONE"],
        { maxAttempts: 2 },
        swallowing(),
      );
      expect(report.tests.before).toMatchObject({ passed: false, failing: ["mean averages the values"] });
      expect(report.attempts[0]!.tests!.failing).toEqual(["max finds the largest value"]);
      expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
      expect(report.tests.after?.passed).toBe(true);
      expectAttributedCommits(report, 1);
    });
  });

  describe("npm's pretest and posttest fail whatever the change (a lint on an untouched file, an offline audit)", () => {
    const lifecycleRepo = () =>
      lintedRepo(
        { pretest: "node scripts/lint.js", test: "node --test", posttest: "node scripts/audit.js" },
        {
          "scripts/audit.js": [
            'console.error("npm error code ENOTCACHED");',
            'console.error("npm error audit: the registry cannot be reached");',
            "process.exit(1);",
            "",
          ].join("\n"),
        },
      );

    it("the tests still run and judge the fix: the failing test is named before and passes after", async () => {
      const { report, server } = await fix([FIX, "DONE"], {}, lifecycleRepo());
      // The model is told which step still fails, and that the tests pass.
      expect(server.chatRequests[1]!.messages.at(-1)!.content).toContain(
        "Your edits were applied, but `npm test` fails, run as its steps: tests pass; `npm run pretest` failed (exit code 1); `npm run posttest` failed (exit code 1).",
      );
      expect(report.tests.before!.failing).toContain("mean averages the values");
      expect(report.tests.before!.tail).toContain("house/style");
      expect(report.attempts[0]!.accepted).toBe(true);
      expect(report.tests.after!.failing).toEqual([]);
      expect(report.tests.after!.tail).toContain("registry cannot be reached");
      expect(report.status).toBe("success");
      expectAttributedCommits(report, 1);
    });

    it("a change that breaks the pretest lint is not accepted, though the tests fail no worse", async () => {
      const MAX = "  return values.length === 0 ? undefined : Math.max(...values);";
      const linted = block("src/stats.js", MAX, `  debugger;\n${MAX}`);
      const { report } = await fix([linted, linted], { maxAttempts: 1 }, lifecycleRepo());
      expect(report.attempts[0]!.tests!.failing).toEqual(["mean averages the values"]);
      expect(report.attempts[0]!.note).toContain("`npm run pretest` fails differently than before the change");
      expect(report.attempts.map((a) => a.accepted)).toEqual([false]);
      expect(report.commits).toEqual([]);
    });

    it("a change that breaks another test is not accepted", async () => {
      const MAX = "  return values.length === 0 ? undefined : Math.max(...values);";
      const MIN = "  return values.length === 0 ? undefined : Math.min(...values);";
      const breaking = [FIX, block("src/stats.js", MAX, MIN)].join("\n\n");
      const { report } = await fix([breaking, breaking], { maxAttempts: 1 }, lifecycleRepo());
      expect(report.attempts.map((a) => a.accepted)).toEqual([false]);
      expect(report.commits).toEqual([]);
    });
  });

  describe("a lint whose report holds hundreds of old warnings below the file the change breaks", () => {
    // ESLint's stylish layout: a file's path alone, then its problems by line and column, then the counts.
    const STYLISH = [
      'import { readFileSync } from "node:fs";',
      'const files = { "src/stats.js": [], "src/vendor.js": [] };',
      'readFileSync("src/stats.js", "utf8").split("\\n").forEach((line, i) => {',
      '  if (line.includes("debugger")) files["src/stats.js"].push(`  ${i + 1}:3  error  Unexpected debugger statement  no-debugger`);',
      "});",
      'for (let i = 1; i <= 300; i++) files["src/vendor.js"].push(`  ${i}:1  warning  Unexpected console statement  no-console`);',
      "let errors = 0;",
      "for (const [file, problems] of Object.entries(files)) {",
      "  if (problems.length === 0) continue;",
      "  console.log(`/work/${file}`);",
      '  for (const p of problems) { console.log(p); if (p.includes(" error ")) errors++; }',
      '  console.log("");',
      "}",
      "console.log(`✖ ${300 + errors} problems (${errors} errors, 300 warnings)`);",
      // process.exit() right after printing, as many command-line tools end: nothing it printed may be lost.
      "process.exit(errors > 0 ? 1 : 0);",
      "",
    ].join("\n");
    const stylishRepo = () =>
      makeNodeRepo({
        files: {
          "package.json": `${JSON.stringify({ name: "tiny-stats", type: "module", private: true, scripts: { pretest: "node scripts/lint.js", test: "node --test" } })}\n`,
          "scripts/lint.js": STYLISH,
        },
      });

    it("the model reads the new error under its file's path, though the end of the output is old warnings", async () => {
      const MAX = "  return values.length === 0 ? undefined : Math.max(...values);";
      const linted = [FIX, block("src/stats.js", MAX, `  debugger;\n${MAX}`)].join("\n\n");
      const { report, server } = await fix([linted, "DONE", "DONE"], { maxAttempts: 2 }, stylishRepo());
      expect(report.attempts[0]!.accepted).toBe(false);
      const reflection = server.chatRequests[1]!.messages.at(-1)!.content;
      const lead = "`npm run pretest` failed (exit code 1); what it reports that it did not before your change:";
      expect(reflection).toContain(lead);
      const fresh = reflection
        .slice(reflection.indexOf(lead) + lead.length)
        .split("\n\n")[0]!
        .trim()
        .split("\n");
      expect(fresh).toEqual([
        "/work/src/stats.js",
        expect.stringMatching(/^ {2}\d+:3 {2}error {2}Unexpected debugger statement {2}no-debugger$/),
        "✖ 301 problems (1 errors, 300 warnings)",
      ]);
      // The end of the output, shown after it, is the old warnings.
      expect(reflection).toContain("The end of its output:");
      expect(reflection).toContain("300:1  warning  Unexpected console statement");
    });
  });

  describe("a test file importing what the request asks to add, beside a test that cannot pass offline", () => {
    const MEDIAN_TEST = [
      'import { test } from "node:test";',
      'import assert from "node:assert/strict";',
      'import { median } from "../src/stats.js";',
      "",
      'test("median takes the middle value", () => {',
      "  assert.equal(median([3, 1, 2]), 2);",
      "});",
      "",
      'test("median of the published sample", () => {',
      '  assert.fail("the sample is fetched from the network");',
      "});",
      "",
    ].join("\n");
    const MAX_END = ["  return values.length === 0 ? undefined : Math.max(...values);", "}"].join("\n");
    const ADD_MEDIAN = block(
      "src/stats.js",
      MAX_END,
      [
        MAX_END,
        "",
        "/** Middle value of the sorted values. */",
        "export function median(values) {",
        "  const sorted = [...values].sort((a, b) => a - b);",
        "  return sorted[Math.floor(sorted.length / 2)];",
        "}",
      ].join("\n"),
      "feat(stats): add median",
    );

    it("commits the change: the file's tests could not run before, so the one failing now is not new", async () => {
      const repo = makeNodeRepo({ bug: false, files: { "test/median.test.js": MEDIAN_TEST } });
      const { report } = await fix([ADD_MEDIAN, "DONE"], { instruction: "Add median to the stats helpers" }, repo);
      expect(report.tests.before!.failing).toEqual(["test/median.test.js"]);
      expect(report.tests.before!.notRun).toEqual({ all: false, files: ["test/median.test.js"] });
      expect(report.attempts[0]!.accepted).toBe(true);
      expect(report.attempts[0]!.tests!.failing).toEqual(["median of the published sample"]);
      expect(report.attempts[0]!.note).toBe("no new failures, but 1 test(s) that could not run before the change fail");
      expect((report.notes ?? []).join("\n")).toContain(
        "1 test(s) could not run before the change (their file did not load) and fail with it: median of the published sample",
      );
      expect(report.status).toBe("success");
      expectAttributedCommits(report, 1);
    });

    it("a change that breaks a test of another file is still refused", async () => {
      const repo = makeNodeRepo({ bug: false, files: { "test/median.test.js": MEDIAN_TEST } });
      const MAX = "  return values.length === 0 ? undefined : Math.max(...values);";
      const breaking = [ADD_MEDIAN, block("src/stats.js", MAX, MAX.replace("Math.max", "Math.min"))].join("\n\n");
      const { report } = await fix(
        [breaking],
        { instruction: "Add median to the stats helpers", maxAttempts: 1 },
        repo,
      );
      expect(report.attempts[0]!.accepted).toBe(false);
      expect(report.commits).toEqual([]);
    });

    it("a test file that cannot load before or after is named apart, with what it lacks, not as a failing test", async () => {
      const plots = ["import unittest", "", "import plotkit_absent", "", "", "class PlotTest(unittest.TestCase):"];
      const py = makePythonRepo({
        files: { "tests/test_plots.py": [...plots, "    def test_draws(self):", "        pass", ""].join("\n") },
      });
      const bug = py.bug!;
      const fixIt = block(bug.path, bug.buggy, bug.fixed, "fix(bounds): clamp inside the range");
      const { report, server } = await fix(
        [fixIt, "DONE"],
        { instruction: "clamp() returns the wrong value inside the range" },
        py,
      );
      expect(report.tests.before!.notRun!.files).toEqual(["tests/test_plots.py"]);
      expect(report.status).toBe("success");
      expect(report.attempts[0]!.note).toBe(
        "no new failures, but 1 test file(s) that could not load before still cannot",
      );
      const notes = (report.notes ?? []).join("\n");
      expect(notes).not.toContain("still fail as they did");
      expect(notes).toMatch(
        /1 test file\(s\) could not load, before the change and with it, so none of their tests judged it: tests\/test_plots\.py \(the Python package `plotkit_absent` is not installed\)/,
      );
      const [first, second] = server.chatRequests.map((r) => r.messages.at(-1)!.content);
      expect(first).toContain(
        "Failing: tests/test_bounds.py::BoundsTest::test_clamp_inside.\nTest files that could not load (none of " +
          "their tests ran, so they cannot judge your change): tests/test_plots.py.",
      );
      expect(second).toContain(
        "Test files that could not load before your change and still cannot (none of their tests ran): " +
          "tests/test_plots.py.",
      );
      expect(second).not.toContain("Failing before and still failing");
    });
  });

  it("gives up, bounded, on garbage output, leaving no commit", async () => {
    const { report, server } = await fix(Array<string>(4).fill("\u0000\u0001 lorem ipsum {{{ <<<<<<< SEARCH"), {
      maxAttempts: 2,
    });
    expect(report.status).toBe("exhausted");
    expect(report.commits).toEqual([]);
    expect(report.headSha).toBe(report.baseSha);
    expect(report.attempts).toHaveLength(2);
    expect(server.chatRequests).toHaveLength(4);
    expect(report.failure?.reason).toBe("max-attempts");
  });

  it("does not believe a model that says it is done while the tests fail", async () => {
    const { report } = await fix(Array<string>(4).fill("Done! I fixed the mean; all tests pass now."), {
      maxAttempts: 2,
    });
    expect(report.status).toBe("exhausted");
    expect(report.commits).toEqual([]);
    expect(report.tests.after?.passed).toBe(false);
  });

  it("rides out a 429 from the model (the SDK's retry) and succeeds", async () => {
    const { report, server } = await fix([{ status: 429, retryAfterMs: 10, message: "rate limited" }, FIX]);
    expect(report.status).toBe("success");
    expect(server.chatRequests).toHaveLength(2);
    expect(report.usage.calls).toBe(1);
    expectAttributedCommits(report, 1);
  });

  it("times out a hanging test suite and leaves no process behind", async () => {
    const marker = `patchsmith-hang-${process.pid}-${Date.now()}`;
    const hang = `node -e "setInterval(() => {}, 1000) /* ${marker} */"`;
    const { report } = await fix([FIX], { testCommand: hang, testTimeoutMs: 1500, maxAttempts: 1 });
    expect(report.tests.before?.timedOut).toBe(true);
    expect(report.status).not.toBe("success");
    expect(report.commits).toEqual([]);
    const ps = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
    expect(ps).not.toContain(marker);
  });

  it("keeps secrets out of a test that prints the environment, the prompt and the report", async () => {
    process.env.PATCHSMITH_E2E_TOKEN = API_KEY;
    try {
      const dump = `node -e "console.log(JSON.stringify(process.env)); process.exit(1)"`;
      const { report, server } = await fix([FIX], { testCommand: dump, maxAttempts: 1 });
      expect(JSON.stringify(report)).not.toContain(API_KEY);
      expect(JSON.stringify(server.chatRequests.map((r) => r.messages))).not.toContain(API_KEY);
      expect(report.tests.before?.tail).toContain("PATH");
    } finally {
      delete process.env.PATCHSMITH_E2E_TOKEN;
    }
  });

  it("refuses an edit to a workflow file and applies the rest", async () => {
    const repo = makeNodeRepo({ files: { ".github/workflows/ci.yml": "on: push\n" } });
    const sneaky = [block(".github/workflows/ci.yml", "on: push", "on: pull_request_target"), FIX].join("\n\n");
    const { report } = await fix([sneaky, FIX], {}, repo);
    expect(report.status).toBe("success");
    expect(report.attempts[0]!.edits[0]).toMatchObject({ ok: false, reason: "forbidden-path" });
    expect(report.changedFiles.map((f) => f.path)).toEqual(["src/stats.js"]);
  });
});
