import { describe, expect, it } from "vitest";
import { renderReportMarkdown, toJsonReport } from "../../../src/agent/render-report.js";
import { describeTestRun, testCell } from "../../../src/agent/render-tests.js";
import type { FixReport } from "../../../src/agent/types.js";
import { parseFixArgs } from "../../../src/cli/fix.js";
import { summary } from "../../fakes/ports/scripted.js";

const report: FixReport = {
  status: "success",
  branch: "patchsmith/fix-mean",
  baseSha: "a".repeat(40),
  headSha: "b".repeat(40),
  commits: [{ sha: "b".repeat(40), subject: "fix(stats): divide by the count", message: "…" }],
  attempts: [
    {
      number: 1,
      edits: [
        { path: "src/a.js", ok: true, strategy: "exact" },
        { path: "src/b.js", ok: false, reason: "search-not-found", message: "…" },
      ],
      retried: true,
      tests: summary("npm test", ["max"]),
      accepted: false,
      note: "1 test(s) fail that did not fail before",
    },
    {
      number: 2,
      edits: [{ path: "src/a.js", ok: true, strategy: "indentation" }],
      retried: false,
      tests: summary("npm test", []),
      accepted: true,
      commit: "b".repeat(40),
    },
  ],
  tests: { before: summary("npm test", ["mean"]), after: summary("npm test", []) },
  usage: { calls: 3, promptTokens: 1000, completionTokens: 234, totalTokens: 1234 },
  diffStat: " src/a.js | 2 +-\n 1 file changed",
  diff: "",
  changedFiles: [],
  pushed: true,
  testCommand: { command: "npm test", source: "detected" },
  reproduction: { testPath: "test/repro.test.js", failedBefore: true, passesAfter: true },
};

describe("report rendering", () => {
  it("renders a readable Markdown summary", () => {
    const md = renderReportMarkdown(report);
    expect(md).toContain("## patchsmith: done");
    expect(md).toContain(
      "Branch `patchsmith/fix-mean` (pushed) · 1 commit · 2 attempts · 1,234 tokens in 3 model calls",
    );
    expect(md).toContain("Tests (`npm test`): before: 1 failing: mean; after: pass.");
    expect(md).toContain("Reproducing test `test/repro.test.js`: failed without the fix, passes with it.");
    expect(md).toContain(
      "1. not accepted (1 test(s) fail that did not fail before): 1 edit applied (exact); 1 failed: search-not-found in src/b.js; retried once; tests: 1 failing: max",
    );
    expect(md).toContain("2. accepted as bbbbbbb: 1 edit applied (indentation); tests: pass");
    expect(md).not.toContain("What went wrong");
    const flaky = "1 test(s) failed on the first run and passed when run again (flaky?): max";
    const noted = { ...report, attempts: report.attempts.map((a) => (a.accepted ? { ...a, note: flaky } : a)) };
    expect(renderReportMarkdown(noted)).toContain(`2. accepted as bbbbbbb (${flaky}): 1 edit applied`);
  });
  it("names the steps besides the tests that fail", () => {
    const step = (command: string, passed: boolean, main = false) => ({
      command,
      main,
      passed,
      exitCode: passed ? 0 : 1,
      failureLines: passed ? [] : ["npm error code ENOTCACHED"],
      outputDigest: "",
    });
    const after = summary("npm test", [], {
      passed: false,
      exitCode: 1,
      steps: [step("npm test --ignore-scripts", true, true), step("npm run posttest", false)],
    });
    const md = renderReportMarkdown({ ...report, tests: { before: summary("npm test", ["mean"]), after } });
    expect(md).toContain(
      "Tests (`npm test`): before: 1 failing: mean; after: tests pass; `npm run posttest` failed (exit code 1).",
    );
    expect(testCell(after)).toBe("⚠️ tests passed; `npm run posttest` failed");
    const memory = { kind: "memory" as const, message: "the command used more than 4 GiB of memory" };
    const stopped = { ...after, steps: [after.steps![0]!, { ...step("npm run posttest", false), limit: memory }] };
    expect(renderReportMarkdown({ ...report, tests: { before: null, after: stopped } })).toContain(
      "after: tests pass; `npm run posttest` failed (the command used more than 4 GiB of memory).",
    );
  });
  it("says the tests pass only when every step that runs them passed", () => {
    const step = (command: string, passed: boolean) => ({
      command,
      main: true,
      passed,
      exitCode: passed ? 0 : 1,
      failureLines: passed ? [] : ["Error: Cannot find module './zone'"],
      outputDigest: "",
    });
    const after = summary("npm test", [], {
      passed: false,
      exitCode: 1,
      steps: [step("npm run test-tz", true), step("npm exec -c 'jest --coverage'", false)],
    });
    expect(describeTestRun(after)).toBe("tests fail (exit code 1)");
    expect(testCell(after)).toBe("❌ failed (exit 1)");
    const green = { ...after, steps: after.steps!.map((s) => ({ ...s, passed: true, exitCode: 0 })) };
    expect(describeTestRun(green)).toBe("tests pass");
  });
  it("counts test files that could not load apart from failing tests", () => {
    const run = summary("python3 -m pytest", ["tests/test_wait.py::test_cap", "tests/test_tenacity.py"], {
      failures: [
        { name: "tests/test_wait.py::test_cap", text: "assert 2 == 1" },
        { name: "tests/test_tenacity.py", text: "No module named 'typeguard'", notRun: true },
      ],
    });
    expect(describeTestRun(run)).toBe(
      "1 failing: tests/test_wait.py::test_cap; 1 test file could not load: tests/test_tenacity.py",
    );
    expect(testCell(run)).toBe("❌ failed (exit 1, 1 failing test, 1 test file not loaded)");
    const onlyUnloaded = { ...run, failing: ["tests/test_tenacity.py"], failures: [run.failures![1]!] };
    expect(describeTestRun(onlyUnloaded)).toBe(
      "tests fail (exit code 1); 1 test file could not load: tests/test_tenacity.py",
    );
    expect(testCell(onlyUnloaded)).toBe("❌ failed (exit 1, 1 test file not loaded)");
  });
  it("shows the failure of a run that did not succeed", () => {
    const md = renderReportMarkdown({
      ...report,
      status: "exhausted",
      failure: { reason: "max-attempts", message: "All 3 attempts were used." },
    });
    expect(md).toContain("## patchsmith: stopped before the tests passed");
    expect(md).toContain("### What went wrong (max-attempts)\n```\nAll 3 attempts were used.\n```");
  });
  it("puts the documented JSON keys first", () => {
    const json = toJsonReport({ ...report, failure: { reason: "x", message: "y" } });
    expect(Object.keys(json).slice(0, 7)).toEqual([
      "status",
      "branch",
      "commits",
      "attempts",
      "tests",
      "usage",
      "failure",
    ]);
    expect(Object.keys(toJsonReport(report))).not.toContain("failure");
  });
});

describe("fix arguments", () => {
  it("builds a request from the flags", () => {
    const parsed = parseFixArgs(
      [
        "--repo",
        "repo",
        "--branch",
        "dev",
        "--into",
        "dev",
        "--test",
        "make t",
        "--model",
        "m",
        "--max-attempts",
        "5",
        "--co-author",
        "A <a@b.c>",
        "--push",
        "--keep",
        "--json",
        "fix",
        "it",
      ],
      "/home/me",
    );
    expect(parsed).toEqual({
      ok: true,
      json: true,
      request: {
        repo: "/home/me/repo",
        instruction: "fix it",
        branch: "dev",
        into: "dev",
        testCommand: "make t",
        model: "m",
        maxAttempts: 5,
        coAuthor: "A <a@b.c>",
        push: { lease: null },
        keep: true,
        trailers: { "Patchsmith-Request": "patchsmith fix (command line)" },
      },
    });
    const url = parseFixArgs(["--repo", "https://example.com/o/r.git", "x"], "/tmp");
    expect(url.ok && url.request.repo).toBe("https://example.com/o/r.git");
  });
  it("takes the time one run of the tests may take, in minutes", () => {
    const parsed = parseFixArgs(["--repo", ".", "--test-minutes", "2.5", "x"], "/tmp");
    expect(parsed.ok && parsed.request.testTimeoutMs).toBe(150_000);
  });
  it("takes set-up commands (repeatable), or none at all", () => {
    const two = parseFixArgs(["--repo", ".", "--setup", "npm ci", "--setup", "npm run build", "x"], "/tmp");
    expect(two.ok && two.request.setup).toEqual(["npm ci", "npm run build"]);
    const none = parseFixArgs(["--repo", ".", "--no-setup", "x"], "/tmp");
    expect(none.ok && none.request.setup).toBe(false);
    const both = parseFixArgs(["--repo", ".", "--no-setup", "--setup", "npm ci", "x"], "/tmp");
    expect(!both.ok && both.message).toContain("exclude each other");
    const empty = parseFixArgs(["--repo", ".", "--setup", " ", "x"], "/tmp");
    expect(!empty.ok && empty.message).toContain("--setup needs a command");
  });
  it("reports usage errors", () => {
    const message = (argv: string[]): string => {
      const parsed = parseFixArgs(argv, "/");
      return parsed.ok ? "" : parsed.message;
    };
    expect(message(["x"])).toContain("--repo");
    expect(message(["--repo", "."])).toContain("instruction is missing");
    expect(message(["--repo", ".", "--max-attempts", "0", "x"])).toContain("positive whole number");
    expect(message(["--repo", ".", "--test-minutes", "soon", "x"])).toContain(
      "--test-minutes must be a positive number",
    );
    expect(message(["--repo", ".", "--test-minutes", "0", "x"])).toContain("--test-minutes must be a positive number");
    expect(message(["--repo", ".", "--into", "a..b", "x"])).toContain("--into");
    expect(message(["--repo", ".", "--co-author", "nobody", "x"])).toContain("Name <email>");
    expect(message(["--repo", ".", "--frobnicate", "x"])).toContain("frobnicate");
  });
});
