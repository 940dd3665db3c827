import { describe, expect, it } from "vitest";
import { summarizeTestSteps } from "../../../src/agent/test-output.js";
import type { RunSummary } from "../../../src/ports/sandbox-runner.js";

const run = (command: string, exitCode: number, output: string): RunSummary => ({
  command,
  passed: exitCode === 0,
  exitCode,
  timedOut: false,
  output,
  droppedBytes: 0,
  durationMs: 3,
});

describe("summarizeTestSteps", () => {
  it("keeps the tests step's own output end, and the whole run's, with each step's failure lines", () => {
    const lint = run("npm run pretest", 1, "Error: Cannot find module 'eslint-plugin-x'\n");
    const tests = run("npm exec -c 'node --test'", 1, "not ok 1 - adds\n# fail 1\n");
    const summary = summarizeTestSteps(
      "npm test",
      [
        { step: { command: lint.command, main: false }, run: lint },
        { step: { command: tests.command, main: true }, run: tests },
      ],
      "/clone",
    );
    expect(summary.tail).toBe(`${lint.output}${tests.output}`);
    expect(summary.steps?.map((s) => s.tail)).toEqual([undefined, tests.output]);
    expect(summary.steps?.[0]?.failureLines).toEqual(["Error: Cannot find module 'eslint-plugin-x'"]);
    expect(summary.exitCode).toBe(1);
  });

  it("gives the run the tests step's limit; a lint stopped by one keeps it on its own step", () => {
    const memory = { kind: "memory" as const, message: "the command used more than 4 GiB of memory" };
    const lint = { ...run("npm run lint", 137, "Killed\n"), limit: memory };
    const tests = run("npm exec -c 'node --test'", 1, "not ok 1 - adds\n# fail 1\n");
    const steps = [
      { step: { command: lint.command, main: false }, run: lint },
      { step: { command: tests.command, main: true }, run: tests },
    ];
    const summary = summarizeTestSteps("npm test", steps);
    expect(summary.limit).toBeUndefined();
    expect(summary.steps?.map((s) => s.limit)).toEqual([memory, undefined]);
    const stopped = summarizeTestSteps("npm test", [steps[0]!, { ...steps[1]!, run: { ...tests, limit: memory } }]);
    expect(stopped.limit).toEqual(memory);
  });
});
