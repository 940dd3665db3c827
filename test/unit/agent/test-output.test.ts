import { describe, expect, it } from "vitest";
import { summaryForReport, summarizeTestRun, summarizeTestSteps } from "../../../src/agent/test-output.js";
import { testRunForModel } from "../../../src/agent/test-run-for-model.js";
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

describe("paths in the clone", () => {
  const lint = "ERROR: /tmp/patchsmith-Ab12/calc/bounds.py Imports are incorrectly sorted and/or formatted.\n";

  it("are made relative in a run's tail and failure lines, and in every step's", () => {
    const whole = summarizeTestRun(run("make test", 1, lint), "/tmp/patchsmith-Ab12");
    expect(whole.tail).toBe("ERROR: calc/bounds.py Imports are incorrectly sorted and/or formatted.\n");
    const stepped = summarizeTestSteps(
      "npm test",
      [{ step: { command: "npm run lint", main: false }, run: run("npm run lint", 1, lint) }],
      "/tmp/patchsmith-Ab12",
    );
    expect(JSON.stringify(stepped)).not.toContain("/tmp/patchsmith-Ab12");
    expect(stepped.steps?.[0]?.failureLines).toEqual([
      "ERROR: calc/bounds.py Imports are incorrectly sorted and/or formatted.",
    ]);
  });
});

describe("summarizeTestSteps", () => {
  it("a check patchsmith added that runs out of time fails as a step, and the run did not time out", () => {
    const tests = run("npm test --ignore-scripts", 0, "# pass 3\n");
    const slow = { ...run("npm run typecheck", 1, "> tsc --noEmit\n"), passed: false, exitCode: null, timedOut: true };
    const summary = summarizeTestSteps("npm test, then npm run typecheck", [
      { step: { command: tests.command, main: true }, run: tests },
      { step: { command: slow.command, main: false, added: true }, run: slow },
    ]);
    expect(summary.timedOut).toBe(false);
    expect(summary.passed).toBe(false);
    expect(summary.steps?.[1]).toMatchObject({ command: "npm run typecheck", passed: false, timedOut: true });
    expect(testRunForModel(summary)).toMatch(
      /^`npm run typecheck` failed \(it ran out of time\); the end of its output:/,
    );
    const same = summarizeTestSteps("npm test", [{ step: { command: slow.command, main: false }, run: slow }]);
    expect(same.timedOut).toBe(true);
  });
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
    expect(summary.steps?.map((s) => s.tail)).toEqual([lint.output, tests.output]);
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

  it("names the failing tests of every step that runs tests, each step its own", () => {
    const jestFailure = (name: string) =>
      `FAIL test/display.test.js\n  ● ${name}\n\n    expect(received).toBe(expected)\n\nTest Suites: 1 failed, 1 total\n`;
    const zone = run("npm exec -c 'cross-env TZ=Pacific/Auckland npm run test-tz'", 0, "Test Suites: 1 passed\n");
    const lint = run("npm exec -c 'eslint src'", 1, "src/a.js:1:1  error  Missing semicolon\n");
    const all = run("npm exec -c 'jest --coverage'", 1, jestFailure("Format › year"));
    const again = run("npm exec -c 'TZ=UTC jest'", 1, jestFailure("Format › year") + jestFailure("Parse › zone"));
    const summary = summarizeTestSteps("npm test", [
      { step: { command: zone.command, main: true }, run: zone },
      { step: { command: lint.command, main: false }, run: lint },
      { step: { command: all.command, main: true }, run: all },
      { step: { command: again.command, main: true }, run: again },
    ]);
    expect(summary.failing).toEqual(["Format › year", "Parse › zone"]);
    expect(summary.steps?.map((s) => s.failing)).toEqual([
      [],
      undefined,
      ["Format › year"],
      ["Format › year", "Parse › zone"],
    ]);
  });
});

describe("a run whose lint fails before tests that pass", () => {
  const lint = run(
    "npm run lint",
    1,
    "\n> pkg@1.0.0 lint\n> eslint .\n\n/clone/lib/loader.js\n  132:12  error  Parsing error: Unexpected token ,\n\n✖ 1 problem (1 error, 0 warnings)\n",
  );
  const mocha = run(
    "mocha",
    0,
    `${Array.from({ length: 400 }, (_, i) => `    ✓ loads case ${String(i)} of the suite`).join("\n")}\n\n  400 passing (2s)\n`,
  );
  const summary = summarizeTestSteps(
    "npm test",
    [
      { step: { command: lint.command, main: false }, run: lint },
      { step: { command: mocha.command, main: true }, run: mocha },
    ],
    "/clone",
  );

  it("keeps the failed step's output end, which the whole run's end no longer shows", () => {
    expect(summary.steps?.[0]?.tail).toBe(lint.output.replace("/clone/lib", "lib"));
  });

  it("shows the model the lint's errors first, then the tests' end, within the bound", () => {
    const text = testRunForModel(summary);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(text).toMatch(/^`npm run lint` failed \(exit code 1\); the end of its output:\n/);
    expect(text).toContain("lib/loader.js\n  132:12  error  Parsing error: Unexpected token ,");
    expect(text.indexOf("Parsing error")).toBeLessThan(text.indexOf("400 passing"));
    // Shown once: the tests' part is their own output.
    expect(text.split("Parsing error").length).toBe(2);
  });

  it("redacts what every part of the run printed", () => {
    const secret = "s3cr3t-value";
    const leaky = summarizeTestSteps("npm test", [
      { step: { command: "npm run lint", main: false }, run: run("npm run lint", 1, `token ${secret}\n`) },
      {
        step: { command: "node --test", main: true },
        run: run("node --test", 1, `not ok 1 - reads the token\n  ---\n  error: 'got ${secret}'\n  ...\n`),
      },
    ]);
    expect(JSON.stringify(leaky)).toContain(secret);
    const clean = summaryForReport(leaky, (text) => text.replaceAll(secret, "[redacted]"));
    expect(JSON.stringify(clean)).not.toContain(secret);
    expect(clean.failing).toEqual(leaky.failing);
  });
});
