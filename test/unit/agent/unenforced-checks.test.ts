import { describe, expect, it } from "vitest";
import type { TestCommand } from "../../../src/agent/test-command.js";
import type { TestStepRun, TestSummary } from "../../../src/agent/types.js";
import { checksAskedFor, withoutUnenforcedChecks } from "../../../src/agent/unenforced-checks.js";

const step = (command: string, passed: boolean, tail: string, main = false): TestStepRun => ({
  command,
  main,
  passed,
  exitCode: passed ? 0 : 1,
  failureLines: [],
  outputDigest: "",
  tail,
});

const test: TestCommand = {
  command: "npm test, then npm run typecheck, then npm run lint",
  source: "detected",
  steps: [
    { command: "npm run pretest", main: false },
    { command: "npm test --ignore-scripts", main: true },
    { command: "npm run typecheck", main: false, added: true, checks: "types" },
    { command: "npm run lint", main: false, added: true, checks: "lint" },
  ],
};

const summary = (steps: TestStepRun[]): TestSummary => ({
  command: test.command,
  passed: steps.every((s) => s.passed),
  exitCode: steps.find((s) => !s.passed)?.exitCode ?? 0,
  timedOut: false,
  failing: [],
  tail: steps.map((s) => s.tail).join(""),
  durationMs: 1,
  steps,
});

describe("withoutUnenforcedChecks", () => {
  it("leaves out the added checks that failed before any change, from the command, the steps and the baseline", () => {
    const baseline = summary([
      step("npm run pretest", true, "built\n"),
      step("npm test --ignore-scripts", true, "ok 1\n", true),
      step("npm run typecheck", true, "\n"),
      step("npm run lint", false, "legacy.js\n  1:1  error  no-var\n"),
    ]);
    const enforced = withoutUnenforcedChecks(test, baseline)!;
    expect(enforced.dropped).toEqual(["npm run lint"]);
    expect(enforced.test.command).toBe("npm test, then npm run typecheck");
    expect(enforced.test.steps?.map((s) => s.command)).toEqual([
      "npm run pretest",
      "npm test --ignore-scripts",
      "npm run typecheck",
    ]);
    expect(enforced.baseline).toMatchObject({ passed: true, exitCode: 0, tail: "built\nok 1\n\n" });
    expect(enforced.baseline.steps?.map((s) => s.command)).not.toContain("npm run lint");
  });

  it("keeps the project's own steps that fail, and leaves everything when no added check failed", () => {
    const failing = summary([
      step("npm run pretest", false, "lint error\n"),
      step("npm test --ignore-scripts", true, "ok 1\n", true),
      step("npm run typecheck", false, "error TS2304\n"),
      step("npm run lint", true, ""),
    ]);
    const enforced = withoutUnenforcedChecks(test, failing)!;
    expect(enforced.dropped).toEqual(["npm run typecheck"]);
    expect(enforced.test.command).toBe("npm test, then npm run lint");
    expect(enforced.baseline).toMatchObject({ passed: false, exitCode: 1 });
    expect(enforced.baseline.tail).toBe(failing.tail);
    const passing = summary(failing.steps!.map((s) => ({ ...s, passed: true, exitCode: 0 })));
    expect(withoutUnenforcedChecks(test, passing)).toBeUndefined();
  });

  it("keeps a failing check of the kind the request is about: its failures are the request's specification", () => {
    const baseline = summary([
      step("npm run pretest", true, ""),
      step("npm test --ignore-scripts", true, "ok 1\n", true),
      step("npm run typecheck", false, "error TS2304\n"),
      step("npm run lint", false, "no-var\n"),
    ]);
    expect(withoutUnenforcedChecks(test, baseline, checksAskedFor("Fix the lint errors"))?.dropped).toEqual([
      "npm run typecheck",
    ]);
    expect(withoutUnenforcedChecks(test, baseline, checksAskedFor("fix mypy/flake8 findings"))).toBeUndefined();
  });

  it("reads what a request asks to be checked from words that name a linter or type errors", () => {
    const asked = (request: string): string[] => [...checksAskedFor(request)].sort();
    expect(asked("Fix the ESLint warnings in src/")).toEqual(["lint"]);
    expect(asked("make the linter happy")).toEqual(["lint"]);
    expect(asked("Fix the type errors tsc reports")).toEqual(["types"]);
    expect(asked("fix mypy/flake8 findings")).toEqual(["lint", "types"]);
    expect(asked("Apply black formatting to calc/")).toEqual(["lint"]);
    expect(asked("the isort check fails on main")).toEqual(["lint"]);
    // Not words about checks.
    expect(asked("Handle all types of input; the standard deviation is wrong")).toEqual([]);
    expect(asked("The chart draws black lines on a dark theme")).toEqual([]);
  });
});
