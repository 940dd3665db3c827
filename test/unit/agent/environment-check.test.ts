import { describe, expect, it } from "vitest";
import { environmentProblem, pythonModulesOf } from "../../../src/agent/environment-check.js";
import { summarizeTestSteps } from "../../../src/agent/test-output.js";
import type { TestSummary } from "../../../src/agent/types.js";
import type { RunSummary } from "../../../src/ports/sandbox-runner.js";

const names = { pythonModules: new Set(["calc", "helpers"]) };

function failed(tail: string, extra: Partial<TestSummary> = {}): TestSummary {
  return {
    command: "npm test",
    passed: false,
    exitCode: 1,
    timedOut: false,
    failing: [],
    tail,
    durationMs: 5,
    ...extra,
  };
}

describe("environmentProblem", () => {
  it.each([
    ["sh: 1: tape: not found", 127, "the command `tape` is not installed"],
    ["bash: line 1: pytest: command not found", 127, "the command `pytest` is not installed"],
    ["Error: Cannot find module 'mocha'\nRequire stack:", 1, "the package `mocha` is not installed"],
    [
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'vitest' imported from",
      1,
      "the package `vitest` is not installed",
    ],
    [
      "E   ModuleNotFoundError: No module named 'requests.adapters'",
      2,
      "the Python package `requests` is not installed",
    ],
    ['npm error Missing script: "test"', 1, 'package.json has no "test" script'],
    ["collected 0 items\n\n=== no tests ran in 0.01s ===", 5, "no test was collected"],
    [
      "main.go:3:8: no required module provides package github.com/x/y; to add it:",
      1,
      "the Go module github.com/x/y is not downloaded",
    ],
  ])("%s", (tail, exitCode, why) => {
    expect(environmentProblem(failed(tail, { exitCode }), names)).toMatchObject({ why });
  });

  it("a missing module of the repository's own is the code's fault, not the environment's", () => {
    expect(environmentProblem(failed("Error: Cannot find module './lib/parse'"), names)).toBeUndefined();
    expect(environmentProblem(failed("ModuleNotFoundError: No module named 'calc.bounds'"), names)).toBeUndefined();
  });

  it("run step by step, tests that pass ran, whatever the steps around them printed", () => {
    const step = (command: string, main: boolean, exitCode: number) => ({
      command,
      main,
      passed: exitCode === 0,
      exitCode,
      failureLines: [],
      outputDigest: "",
    });
    const audit = failed("# pass 12\nsh: 1: aud: not found", {
      exitCode: 127,
      steps: [step("npm test --ignore-scripts", true, 0), step("npm run posttest", false, 127)],
    });
    expect(environmentProblem(audit, names)).toBeUndefined();
    const runner = failed("sh: 1: tape: not found", {
      exitCode: 1,
      steps: [step("npm run pretest", false, 1), step("npm test --ignore-scripts", true, 127)],
    });
    expect(environmentProblem(runner, names)?.why).toBe("the command `tape` is not installed");
  });
  it("run step by step, a failing tests step is read alone: a side step's missing package stops nothing", () => {
    const step = (command: string, main: boolean, tail: string) => ({
      command,
      main,
      passed: false,
      exitCode: 1,
      failureLines: [],
      outputDigest: "",
      ...(main ? { tail } : {}),
    });
    const lint = "Error: Cannot find module 'eslint-plugin-unicorn'";
    const tests = "1 of 12 tests failed (the runner's report, unread)";
    const sideStep = failed(`${lint}\n${tests}`, {
      steps: [step("npm run pretest", false, lint), step("npm exec -c 'ava'", true, tests)],
    });
    expect(environmentProblem(sideStep, names)).toBeUndefined();
    const inTestsStep = failed(`${lint}\nError: Cannot find module 'ava'`, {
      steps: [step("npm run pretest", false, lint), step("npm exec -c 'ava'", true, "Error: Cannot find module 'ava'")],
    });
    expect(environmentProblem(inTestsStep, names)?.why).toBe("the package `ava` is not installed");
  });

  it("a run that names failing tests ran, whatever else it printed", () => {
    const ran = failed("not ok 1 parses\nCannot find module 'optional-peer'", { failing: ["parses"] });
    expect(environmentProblem(ran, names)).toBeUndefined();
  });

  it("when not one test ran, the files that failed to load are not failures of the code, and the signs decide", () => {
    const vitest = [
      " FAIL  src/a/test.ts [ src/a/test.ts ]",
      "Error: Cannot find package 'fast-check' imported from /clone/src/a/test.ts",
      " Test Files  250 failed (250)",
      "      Tests  no tests",
    ].join("\n");
    const loadFailures = { failing: ["src/a/test.ts"] };
    expect(environmentProblem(failed(vitest, loadFailures), names)).toEqual({
      why: "the package `fast-check` is not installed",
      evidence: "Error: Cannot find package 'fast-check' imported from /clone/src/a/test.ts",
    });
    const jest = "FAIL test/a.test.js\n  Cannot find module 'supertest' from 'test/a.test.js'\nTests:       0 total";
    expect(environmentProblem(failed(jest, loadFailures), names)?.why).toBe("the package `supertest` is not installed");
    // A syntax error of the repository's own also stops every file loading: that one is the model's to fix.
    const syntax = " FAIL  src/a/test.ts\nSyntaxError: Unexpected token '}'\n      Tests  no tests";
    expect(environmentProblem(failed(syntax, loadFailures), names)).toBeUndefined();
  });

  it("output naming a file inside a submodule that could not be checked out is the environment's", () => {
    const tail = "ENOENT: no such file or directory, open '/tmp/clone/submodules/tz/tsconfig.json'";
    const withSubmodule = { ...names, missingSubmodules: ["submodules/tz"] };
    expect(environmentProblem(failed(tail, { failing: ["src/a/test.ts"] }), withSubmodule)?.why).toBe(
      "the submodule `submodules/tz` is not checked out, and the tests read files inside it",
    );
    // A path that merely starts like it is not inside it.
    expect(environmentProblem(failed("open 'submodules/tzdata/x'"), withSubmodule)).toBeUndefined();
  });

  it("a lint stopped by a sandbox limit says nothing about tests that ran and failed", () => {
    const memory = { kind: "memory" as const, message: "the command used more than 4 GiB of memory" };
    const ran = (command: string, output: string, extra: Partial<RunSummary> = {}): RunSummary => ({
      command,
      passed: false,
      exitCode: 1,
      timedOut: false,
      output,
      droppedBytes: 0,
      durationMs: 3,
      ...extra,
    });
    const lint = ran("npm run lint", "Killed\n", { exitCode: 137, limit: memory });
    const tests = ran("npm exec -c 'tape'", "not ok 1 adds\n# fail 1\n");
    const baseline = summarizeTestSteps("npm test", [
      { step: { command: lint.command, main: false }, run: lint },
      { step: { command: tests.command, main: true }, run: tests },
    ]);
    expect(environmentProblem(baseline, names)).toBeUndefined();
  });

  it("a sandbox limit at the baseline is an environment problem; a passing run never is", () => {
    const memory = { kind: "memory" as const, message: "the command used more than 4 GiB of memory" };
    const limited = failed("", { limit: memory });
    expect(environmentProblem(limited, names)?.why).toContain("4 GiB");
    const processes = { kind: "processes" as const, message: "the command started more than 512 processes" };
    expect(environmentProblem(failed("", { limit: processes, failing: ["spawns"] }), names)?.why).toBe(
      processes.message,
    );
    expect(environmentProblem({ ...failed("sh: 1: x: not found"), passed: true, exitCode: 0 }, names)).toBeUndefined();
  });

  it("a test file ended for its memory while the runner named it is a failing test, not the environment", () => {
    const memory = { kind: "memory" as const, message: "the command used more than 4 GiB of memory" };
    const killed = failed("not ok 1 - test/ids.test.js\n  signal: 'SIGKILL'\n# fail 1\n", {
      limit: memory,
      failing: ["test/ids.test.js"],
    });
    expect(environmentProblem(killed, names)).toBeUndefined();
  });

  it("an ordinary assertion failure is not an environment problem", () => {
    expect(environmentProblem(failed("AssertionError: expected 3 to equal 4"), names)).toBeUndefined();
  });
});

describe("pythonModulesOf", () => {
  it("finds packages, src-layout packages and top-level modules", () => {
    expect([...pythonModulesOf(["calc/__init__.py", "src/util/x.py", "setup.py", "README.md"])].sort()).toEqual([
      "calc",
      "setup",
      "util",
    ]);
  });

  it("a run stopped by a test file that cannot load a package is the environment's, though the file is named", () => {
    const stopped = failed(
      " Exception during run: Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'chai' imported from /r/test/a.js",
      { failing: ["test/a.js (failed to run)"], notRun: { all: true, files: ["test/a.js"] } },
    );
    expect(environmentProblem(stopped, names)?.why).toBe("the package `chai` is not installed");
    const ownExport = failed("SyntaxError: The requested module '../src/is.js' does not provide an export named 'x'", {
      failing: ["test/a.js (failed to run)"],
      notRun: { all: true, files: ["test/a.js"] },
    });
    expect(environmentProblem(ownExport, names)).toBeUndefined();
  });
});
