import { describe, expect, it } from "vitest";
import { addUsage, checkBudget, checkSpend, NO_USAGE, resolveLimits } from "../../../src/agent/budget.js";
import { checkBranchName, slugify, targetBranch } from "../../../src/agent/branch.js";
import {
  buildCommitMessage,
  chooseSubject,
  extractCommitSubject,
  fallbackSubject,
  parseIdentity,
  requestBody,
  validateSubject,
} from "../../../src/agent/commit-message.js";
import { tailForModel } from "../../../src/agent/test-run-for-model.js";
import { failureLines, outputDigest } from "../../../src/agent/failure-lines.js";
import { compareTests, showsNewFailure } from "../../../src/agent/verdict.js";
import { summary } from "../../fakes/ports/scripted.js";

describe("budgets", () => {
  const limits = resolveLimits({ maxAttempts: 2, tokenBudget: 1000, wallTimeMs: 10_000 });
  it("defaults nonsense values", () => {
    expect(resolveLimits({ maxAttempts: 0, tokenBudget: -1, wallTimeMs: Number.NaN })).toEqual({
      maxAttempts: 3,
      tokenBudget: 200_000,
      wallTimeMs: 1_200_000,
    });
  });
  it("stops on attempts, then tokens, then time", () => {
    const state = { attemptsUsed: 0, usage: NO_USAGE, startedAt: 0 };
    expect(checkBudget(limits, state, 0)).toBeUndefined();
    expect(checkBudget(limits, { ...state, attemptsUsed: 2 }, 0)?.reason).toBe("max-attempts");
    expect(checkBudget(limits, { ...state, attemptsUsed: 2 }, 0)?.message).toBe(
      "All 2 attempts were used without a change that passes the tests.",
    );
    expect(checkBudget({ ...limits, maxAttempts: 1 }, { ...state, attemptsUsed: 1 }, 0)?.message).toBe(
      "The one attempt allowed was used without a change that passes the tests.",
    );
    const spent = addUsage(NO_USAGE, { promptTokens: 900, completionTokens: 100, totalTokens: 1000 });
    expect(spent.calls).toBe(1);
    expect(checkSpend(limits, { ...state, usage: spent }, 0)?.reason).toBe("token-budget");
    expect(checkSpend(limits, state, 9_999)).toBeUndefined();
    expect(checkSpend(limits, state, 10_000)?.reason).toBe("wall-time");
  });
});

describe("acceptance rule", () => {
  const before = summary("t", ["a", "b"]);
  it("green beats everything", () => {
    expect(compareTests(before, summary("t", [])).verdict).toBe("green");
  });
  it("fewer failures of the same tests is no worse", () => {
    expect(compareTests(before, summary("t", ["a"]))).toEqual({ verdict: "no-worse", stillFailing: ["a"] });
  });
  it("a new failing name is worse", () => {
    expect(compareTests(before, summary("t", ["a", "c"]))).toMatchObject({ verdict: "worse", newFailures: ["c"] });
  });
  it("says a new failing name may not have run before when the run before the change timed out", () => {
    const hung = summary("t", ["a"], { timedOut: true });
    expect(compareTests(hung, summary("t", ["c"]))).toMatchObject({
      verdict: "worse",
      newFailures: ["c"],
      why: "1 test(s) fail that did not fail before (the run before the change timed out, so they may not have run then)",
    });
    expect(compareTests(before, summary("t", ["c"]))).toMatchObject({
      why: "1 test(s) fail that did not fail before",
    });
  });
  it("any failure over a passing baseline is worse, and so is a timeout", () => {
    expect(compareTests(summary("t", []), summary("t", ["a"])).verdict).toBe("worse");
    expect(compareTests(before, summary("t", ["a"], { timedOut: true })).verdict).toBe("worse");
  });
  it("says what a run fails on when no test fails by name any more (a coverage threshold)", () => {
    const was = summary("lab", ["link reports link.depth"], { tail: "1 of 33 tests failed\n" });
    const tail = "33 tests complete\nCoverage: 99.98% (2/8341)\nCode coverage below threshold: 99.98 < 100\n";
    expect(compareTests(was, summary("lab", [], { passed: false, exitCode: 1, tail }))).toMatchObject({
      verdict: "worse",
      why: "no test fails by name now, but the run fails on a line it did not print before: Code coverage below threshold: 99.98 < 100",
    });
    expect([
      ...failureLines('Jest: "global" coverage threshold for lines (100%) not met: 99.5%\nCoverage: 90%'),
    ]).toEqual(['Jest: "global" coverage threshold for lines (100%) not met: 99.5%']);
  });
  it("quotes the error a run fails on, not the banner above it (Vitest's unhandled type error)", () => {
    const was = summary("vitest", ["withBase > a"], { tail: " FAIL  test/base.test.ts > withBase > a\n" });
    const tail = [
      " Test Files  14 passed (14)",
      "⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯",
      "Vitest caught 1 unhandled error during the test run.",
      "⎯⎯⎯ Unhandled Source Error ⎯⎯⎯",
      "TypeCheckError: This comparison appears to be unintentional because the types 'string' and 'number' have no overlap.",
      "      Errors  1 error",
    ].join("\n");
    expect(compareTests(was, summary("vitest", [], { passed: false, exitCode: 1, tail }))).toMatchObject({
      verdict: "worse",
      why:
        "no test fails by name now, but the run fails on a line it did not print before: TypeCheckError: This " +
        "comparison appears to be unintentional because the types 'string' and 'number' have no overlap.",
    });
  });
  it("a limit the baseline did not run into is worse; one it ran into too is weighed by the failing names", () => {
    const memory = { kind: "memory" as const, message: "the command used more than 4 GiB of memory" };
    expect(compareTests(before, summary("t", ["a"], { limit: memory }))).toMatchObject({
      verdict: "worse",
      why: "the tests ran into a limit: the command used more than 4 GiB of memory",
    });
    const killedBefore = summary("t", ["a", "b"], { limit: memory });
    expect(compareTests(killedBefore, summary("t", ["a"], { limit: memory })).verdict).toBe("no-worse");
    expect(compareTests(killedBefore, summary("t", []))).toEqual({ verdict: "green" });
  });
  it("unnamed failures cannot prove no-worse, unless the run fails exactly as the baseline did", () => {
    expect(compareTests(summary("t", [], { passed: false }), summary("t", [], { passed: false })).verdict).toBe(
      "worse",
    );
    const lint = (extra: string, ms: number) =>
      summary("t", [], {
        passed: false,
        exitCode: 1,
        tail: `  12 passing (${String(ms)}ms)\n${extra}/clone/lib/usage.ts\n  515:7  error  Replace \`|\` prettier/prettier\n✖ 1 problem (1 error, 0 warnings)`,
      });
    expect(compareTests(lint("", 30), lint("", 41))).toEqual({
      verdict: "no-worse",
      stillFailing: [],
      unnamed: ["515:7 error Replace `|` prettier/prettier", "✖ 1 problem (1 error, 0 warnings)"],
    });
    // One error line more, another exit code, or a run that prints no failure line: worse.
    expect(compareTests(lint("", 30), lint("  9:1  error  Missing semicolon  semi\n", 30)).verdict).toBe("worse");
    expect(compareTests(lint("", 30), { ...lint("", 30), exitCode: 2 }).verdict).toBe("worse");
    expect(
      compareTests(lint("", 30), summary("t", [], { passed: false, exitCode: 1, tail: "12 passing" })).verdict,
    ).toBe("worse");
  });
  it("named failures gone while a step after the tests fails as in the baseline is no worse", () => {
    const audit =
      "> posttest\n> npm audit --production\nnpm error code ENOTCACHED\nnpm error request to https://registry.npmjs.org/npm failed";
    const baseline = summary("t", ["dash › option value"], {
      passed: false,
      exitCode: 1,
      tail: `not ok 3 should be deeply equivalent\n# tests 171\n# pass  169\n# fail  2\n${audit}`,
    });
    const after = (tail: string, exitCode = 1) => summary("t", [], { passed: false, exitCode, tail });
    expect(compareTests(baseline, after(`# tests 171\n# pass  171\n# fail 0\n\n# ok\n${audit}`))).toEqual({
      verdict: "no-worse",
      stillFailing: [],
      unnamed: ["npm error code ENOTCACHED", "npm error request to https://registry.npmjs.org/npm failed"],
    });
    // A failure line the baseline did not print, another exit code, or no failure line at all: worse.
    expect(compareTests(baseline, after(`# ok\n${audit}\nnpm error missing script: lint`)).verdict).toBe("worse");
    expect(compareTests(baseline, after(`# ok\n${audit}`, 2)).verdict).toBe("worse");
    expect(compareTests(baseline, after("# tests 171\n# pass  171")).verdict).toBe("worse");
  });
  describe("tests that could not run before the change (their file did not load)", () => {
    const block = (name: string, file: string) => ({ name, text: name, file });
    it("when no test ran at all, a test failing after the change was not passing before: no worse, said apart", () => {
      const nothing = summary("npm test", ["test/main.js (failed to run)"], {
        notRun: { all: true, files: ["test/main.js"] },
      });
      expect(compareTests(nothing, summary("npm test", ["fetch › follows https", "fetch › family"]))).toEqual({
        verdict: "no-worse",
        stillFailing: [],
        notRunBefore: ["fetch › follows https", "fetch › family"],
      });
      // Still failing to load is failing as before.
      expect(compareTests(nothing, nothing)).toEqual({
        verdict: "no-worse",
        stillFailing: ["test/main.js (failed to run)"],
      });
    });
    it("when one file did not load, only that file's tests are excused", () => {
      const baseline = summary("npm test", ["test/a.test.js (failed to run)", "b › rounds"], {
        notRun: { all: false, files: ["test/a.test.js"] },
      });
      const after = (names: [string, string][]) =>
        summary(
          "npm test",
          names.map(([name]) => name),
          {
            failures: names.map(([name, file]) => block(name, file)),
          },
        );
      expect(
        compareTests(
          baseline,
          after([
            ["a › splits", "test/a.test.js"],
            ["b › rounds", "test/b.test.js"],
          ]),
        ),
      ).toEqual({ verdict: "no-worse", stillFailing: ["b › rounds"], notRunBefore: ["a › splits"] });
      expect(
        compareTests(
          baseline,
          after([
            ["a › splits", "test/a.test.js"],
            ["b › pads", "test/b.test.js"],
          ]),
        ),
      ).toMatchObject({
        verdict: "worse",
        newFailures: ["b › pads"],
      });
      // A failure whose file the runner did not name is not excused.
      expect(compareTests(baseline, summary("npm test", ["a › splits"])).verdict).toBe("worse");
    });
  });
  describe("a command run step by step (npm's pretest, test, posttest)", () => {
    const LINT = "README.md:3:26  error  Sentences end without a full stop";
    const AUDIT = "npm error code ENOTCACHED";
    const step = (command: string, lines: string[], main = false, output = lines.join("\n"), failing?: string[]) => ({
      command,
      main,
      ...(failing === undefined ? {} : { failing }),
      passed: lines.length === 0 && output === "",
      exitCode: lines.length === 0 && output === "" ? 0 : 1,
      failureLines: lines,
      outputDigest: outputDigest(output),
    });
    const run = (failing: string[], lint: string[], audit: string[], testLines = failing.map((f) => `not ok ${f}`)) =>
      summary("npm test", failing, {
        passed: failing.length + lint.length + audit.length === 0,
        exitCode: failing.length + lint.length + audit.length === 0 ? 0 : 1,
        steps: [
          step("npm run pretest", lint),
          step("npm test --ignore-scripts", testLines, true, testLines.join("\n"), failing),
          step("npm run posttest", audit),
        ],
      });
    const baseline = run(["mean"], [LINT], [AUDIT]);
    it("tests fixed while the other steps fail as before: no worse, those steps' lines unnamed", () => {
      expect(compareTests(baseline, run([], [LINT], [AUDIT]))).toEqual({
        verdict: "no-worse",
        stillFailing: [],
        unnamed: [LINT, AUDIT],
      });
      expect(compareTests(baseline, run(["mean"], [LINT], [AUDIT]))).toEqual({
        verdict: "no-worse",
        stillFailing: ["mean"],
        unnamed: [LINT, AUDIT],
      });
    });
    it("a step failing in a new way is worse, however the tests do", () => {
      const broken = "src/stats.js:9:3  error  Unexpected debugger statement";
      expect(compareTests(baseline, run(["mean"], [LINT, broken], [AUDIT]))).toMatchObject({
        verdict: "worse",
        why: `\`npm run pretest\` fails differently than before the change: ${broken}`,
      });
      expect(compareTests(run(["mean"], [], [AUDIT]), run([], [LINT], [AUDIT]))).toMatchObject({
        verdict: "worse",
        why: "`npm run pretest` passed before the change and fails now",
      });
      // A baseline that ran out of time before the step: it did not pass then, it did not run.
      const cut = run(["mean"], [], []);
      const unrun = { ...cut, steps: cut.steps!.slice(0, 2) };
      expect(compareTests(unrun, run(["mean"], [], [AUDIT]))).toMatchObject({
        verdict: "worse",
        why: "`npm run posttest` fails now, and did not run before the change",
      });
    });
    it("a step printing what it printed before fails as before, though no line of it reads as a failure", () => {
      const check = (output: string) =>
        summary("npm test", [], {
          passed: false,
          exitCode: 1,
          steps: [step("npm test --ignore-scripts", [], true, ""), step("npm run posttest", [], false, output)],
        });
      const was = summary("npm test", ["mean"], {
        passed: false,
        exitCode: 1,
        steps: [
          step("npm test --ignore-scripts", ["not ok mean"], true),
          step("npm run posttest", [], false, "The repo file settings.yml needs to be updated:\n  - name: latest"),
        ],
      });
      expect(compareTests(was, check("The repo file settings.yml needs to be updated:\n  - name: latest"))).toEqual({
        verdict: "no-worse",
        stillFailing: [],
        unnamed: ["`npm run posttest` fails as before"],
      });
      expect(compareTests(was, check("The repo file ci.yml needs to be updated:\n  - name: latest"))).toMatchObject({
        verdict: "worse",
        why: "`npm run posttest` fails differently than before the change",
      });
    });
    it("a tests step that names nothing and prints what it printed before fails as before", () => {
      const aborted = (output: string) =>
        summary("npm test", [], {
          passed: false,
          exitCode: 1,
          steps: [step("npm test --ignore-scripts", [], true, output)],
        });
      expect(compareTests(aborted("Unknown argument: qux"), aborted("Unknown argument: qux"))).toEqual({
        verdict: "no-worse",
        stillFailing: [],
        unnamed: ["the tests fail as before, printing the same"],
      });
      expect(compareTests(aborted("Unknown argument: qux"), aborted("Unknown argument: baz")).verdict).toBe("worse");
    });
    describe("a script that runs its tests more than once (per time zone)", () => {
      const zoned = (first: string[], second: string[], secondLines = second.map((f) => `not ok ${f}`)) =>
        summary("npm test", [...new Set([...first, ...second])], {
          // The lint between them fails every time.
          passed: false,
          exitCode: 1,
          steps: [
            step(
              "npm run test-tz",
              first.map((f) => `not ok ${f}`),
              true,
              first.map((f) => `not ok ${f}`).join("\n"),
              first,
            ),
            step("npm run pretest", [LINT]),
            step("jest --coverage", secondLines, true, secondLines.join("\n"), second),
          ],
        });
      it("a test failing in any of those steps that passed in it before is worse", () => {
        expect(compareTests(zoned([], ["year"]), zoned(["year"], ["year"]))).toMatchObject({
          verdict: "worse",
          newFailures: ["year"],
        });
        expect(compareTests(zoned(["zone"], ["year"]), zoned(["zone"], ["year", "sum"]))).toMatchObject({
          verdict: "worse",
          newFailures: ["sum"],
        });
      });
      it("each step failing only as it did is no worse, with every name still failing", () => {
        expect(compareTests(zoned(["zone"], ["year", "sum"]), zoned(["zone"], ["sum"]))).toEqual({
          verdict: "no-worse",
          stillFailing: ["zone", "sum"],
          unnamed: [LINT],
        });
        expect(compareTests(zoned(["zone"], ["year"]), zoned([], []))).toEqual({
          verdict: "no-worse",
          stillFailing: [],
          unnamed: [LINT],
        });
      });
      it("a step that names nothing is judged by what it prints", () => {
        const crash = ["Error: Cannot find module './zone'"];
        expect(compareTests(zoned([], ["year"], crash), zoned([], [], crash))).toEqual({
          verdict: "no-worse",
          stillFailing: [],
          unnamed: [LINT, ...crash],
        });
        expect(compareTests(zoned([], ["year"]), zoned([], [], crash)).verdict).toBe("worse");
      });
    });
    it("the tests step is judged on its own lines and names", () => {
      expect(compareTests(baseline, run(["mean", "sum"], [LINT], [AUDIT]))).toMatchObject({
        verdict: "worse",
        newFailures: ["sum"],
      });
      // Failing without a name, with a line the baseline's tests step did not print.
      expect(compareTests(baseline, run([], [LINT], [AUDIT], ["TypeError: sum is not a function"])).verdict).toBe(
        "worse",
      );
    });
  });
  it("a passing test titled with a failure word, or a coverage row of a file so named, is not a failure line", () => {
    const output = [
      "    ✔ reports error if error occurs parsing positional",
      "  ✓ throws an exception on bad input (3 ms)",
      "ok 4 - error messages name the flag",
      "  yerror.ts                           |     100 |       50 |     100 |     100 | 4                  ",
      "    1) reports an error for a missing flag",
      "not ok 5 - error messages name the flag",
    ].join("\n");
    expect([...failureLines(output)]).toEqual([
      "1) reports an error for a missing flag",
      "not ok 5 - error messages name the flag",
    ]);
  });
  it("compares failure lines without colours, timestamps (npm's log names too) or the positions an edit above them shifts", () => {
    const once = [
      "\x1b[91m03 02 2026 10:41:07.118:ERROR [launcher]: \x1b[39mNo browser binary found",
      "2026-02-03T10:41:07.5Z error while bundling src/enhanceError.js",
      "  12:5  error  'unused' is assigned a value but never used  no-unused-vars",
      "src/parse.ts(40,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "npm error A complete log of this run can be found in: /home/u/.npm/_logs/2026-11-27T17_40_33_071Z-debug-0.log",
    ].join("\n");
    const later = [
      "\x1b[91m03 02 2026 10:42:55.009:ERROR [launcher]: \x1b[39mNo browser binary found",
      "2026-02-03T10:42:59.1Z error while bundling src/enhanceError.js",
      "  14:5  error  'unused' is assigned a value but never used  no-unused-vars",
      "src/parse.ts(42,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "npm error A complete log of this run can be found in: /home/u/.npm/_logs/2026-11-27T17_40_40_377Z-debug-0.log",
    ].join("\n");
    const withSideStep = (output: string) =>
      summary("npm test", ["mean"], {
        passed: false,
        exitCode: 1,
        steps: [
          { command: "npm run test:unit", main: true, passed: false, exitCode: 1, failureLines: [], outputDigest: "" },
          {
            command: "npm run test:browser",
            main: false,
            passed: false,
            exitCode: 1,
            failureLines: [...failureLines(output)],
            outputDigest: outputDigest(output),
          },
        ],
      });
    expect(outputDigest(later)).toBe(outputDigest(once));
    expect(compareTests(withSideStep(once), withSideStep(later))).toMatchObject({ verdict: "no-worse" });
    // Shown as printed, colours aside.
    expect([...failureLines(later)][2]).toBe("14:5 error 'unused' is assigned a value but never used no-unused-vars");
    const renamed = later.replace("'unused'", "'other'");
    expect(compareTests(withSideStep(once), withSideStep(renamed))).toMatchObject({
      verdict: "worse",
      why: "`npm run test:browser` fails differently than before the change: 14:5 error 'other' is assigned a value but never used no-unused-vars",
    });
  });
  it("a summary counting no failures is not a failure line", () => {
    const lines = failureLines(
      "# fail 0\nTests: 0 failed, 3 passed\nerrors: 0\n# fail 10\n✖ 1 problem (1 error, 0 warnings)",
    );
    expect([...lines]).toEqual(["# fail 10", "✖ 1 problem (1 error, 0 warnings)"]);
  });
  it("tells whether a run shows a new failure", () => {
    expect(showsNewFailure(summary("t", []), summary("t", ["x"]))).toBe(true);
    expect(showsNewFailure(before, summary("t", ["a"]))).toBe(false);
    expect(showsNewFailure(before, summary("t", ["z"]))).toBe(true);
  });
});

describe("reflection truncation", () => {
  it("keeps the last 60 lines and says how many were cut", () => {
    const output = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n");
    const tail = tailForModel(output);
    expect(tail.startsWith("… (40 earlier lines not shown)\nline 41\n")).toBe(true);
    expect(tail.endsWith("line 100")).toBe(true);
  });
  it("caps bytes too, keeping the end", () => {
    const output = Array.from({ length: 50 }, (_, i) => `${i}:${"x".repeat(200)}`).join("\n");
    const tail = tailForModel(output, 60, 1000);
    expect(new TextEncoder().encode(tail).length).toBeLessThan(1100);
    expect(tail).toContain(`49:${"x".repeat(200)}`);
    expect(tail).not.toContain("\n0:");
  });
  it("leaves short output alone", () => {
    expect(tailForModel("ok\n")).toBe("ok");
  });
  it("says a run of progress-mark lines in one line, keeping a single one as it is", () => {
    const dots = Array.from({ length: 36 }, () => `  ${".".repeat(50)}`);
    const output = ["> lab -t 100", ...dots, "  ..", "", "1802 tests complete", "  ....x.....", "ok"].join("\n");
    expect(tailForModel(output)).toBe(
      ["> lab -t 100", "(36 lines of progress marks)", "  ..", "", "1802 tests complete", "  ....x.....", "ok"].join(
        "\n",
      ),
    );
  });
  it("reads Mocha's dot reporter's marks as progress marks", () => {
    const dots = Array.from({ length: 5 }, () => `  ${"\u2024".repeat(40)}!${"\u2024".repeat(10)},,`);
    expect(tailForModel(["> mocha --reporter dot", ...dots, "  1 failing"].join("\n"))).toBe(
      ["> mocha --reporter dot", "(5 lines of progress marks)", "  1 failing"].join("\n"),
    );
  });
  it("says a run of lines about passing tests in one line, keeping short runs and failures as they are", () => {
    const passes = (n: number, line: (k: number) => string): string[] => Array.from({ length: n }, (_, k) => line(k));
    const output = [
      "  parser",
      ...passes(40, (k) => `    ✔ parses case ${k}`),
      "  options",
      ...passes(3, (k) => `    ✔ reads option ${k}`),
      "    1) rejects a bad flag",
      ...passes(12, (k) => `PASS tests/file${k}.test.js`),
      "FAIL tests/flags.test.js",
      ...passes(5, (k) => `ok ${k + 1} - case ${k}`),
      "not ok 6 - case 5",
      "ok 7 - case 6 # SKIP no network",
      "  361 passing (112ms)",
    ].join("\n");
    expect(tailForModel(output).split("\n")).toEqual([
      "  parser",
      "(40 lines of passing tests)",
      "  options",
      "    ✔ reads option 0",
      "    ✔ reads option 1",
      "    ✔ reads option 2",
      "    1) rejects a bad flag",
      "(12 lines of passing tests)",
      "FAIL tests/flags.test.js",
      "(5 lines of passing tests)",
      "not ok 6 - case 5",
      "ok 7 - case 6 # SKIP no network",
      "  361 passing (112ms)",
    ]);
  });
});

describe("commit subjects", () => {
  it("reads the last COMMIT line outside code fences", () => {
    const reply = "```\nCOMMIT: fix: inside a fence\n```\nCOMMIT: feat(cli): add --json\n";
    expect(extractCommitSubject(reply)).toBe("feat(cli): add --json");
    expect(extractCommitSubject("**COMMIT:** `fix: quoted`")).toBe("fix: quoted");
  });
  it("validates the Conventional Commits form and length", () => {
    expect(validateSubject("fix(parser): handle empty input")).toEqual({
      ok: true,
      subject: "fix(parser): handle empty input",
    });
    expect(validateSubject("feat!: drop node 18").ok).toBe(true);
    expect(validateSubject("fix(isTaxID): correct the dk-DK century").ok).toBe(true);
    expect(validateSubject("Fixed stuff").ok).toBe(false);
    expect(validateSubject(`fix: ${"x".repeat(70)}`).ok).toBe(false);
    expect(validateSubject("fix: run /fix again").ok).toBe(false);
    expect(validateSubject("wip: x").ok).toBe(false);
  });
  it("derives a deterministic fallback from the instruction and paths", () => {
    expect(fallbackSubject("Fix the crash in parse() when input is empty", ["src/parser.ts"])).toBe(
      "fix(parser): the crash in parse() when input is empty",
    );
    expect(fallbackSubject("Add a --json flag", ["src/cli/a.ts", "src/cli/b.ts"])).toBe("feat(cli): add a --json flag");
    expect(fallbackSubject("Add a --json flag", ["src/a.ts", "src/b.ts"])).toBe("feat: add a --json flag");
    expect(fallbackSubject("Fix the mean", ["packages/stats/src/index.js"])).toBe("fix(stats): the mean");
    expect(fallbackSubject("Fix the mean", ["packages/stats/lib/mean.js", "packages/stats/test/mean.js"])).toBe(
      "fix(stats): the mean",
    );
    expect(fallbackSubject("Fix the import", ["calc/__init__.py"])).toBe("fix(calc): the import");
    expect(fallbackSubject("Fix the entry", ["index.js"])).toBe("fix: the entry");
    expect(fallbackSubject("Fix the entry", ["src/index.ts"])).toBe("fix: the entry");
    expect(fallbackSubject("Document the flags", ["README.md"])).toBe("docs(readme): document the flags");
    // A request that opens with the scope's label, or that is written as a subject, says its head once.
    expect(fallbackSubject("devtools: support the Firefox stack", ["src/middleware/devtools.ts"])).toBe(
      "feat(devtools): support the Firefox stack",
    );
    expect(fallbackSubject("Fix(isTaxID): correct the dk-DK century", ["src/lib/isTaxID.js"])).toBe(
      "fix(isTaxID): correct the dk-DK century",
    );
    expect(fallbackSubject("perf: cache the keys", ["src/a/keys.ts"])).toBe("perf(keys): cache the keys");
    // Markdown's marks go, the names they do not mark stay whole.
    expect(fallbackSubject("Fail with *INCORRECT_PACKAGE_MAIN* when main is missing", ["lib/a.js", "lib/b.js"])).toBe(
      "fix: fail with INCORRECT_PACKAGE_MAIN when main is missing",
    );
    expect(fallbackSubject("Make `parse_args` _really_ skip `__proto__`", ["cli/args.py"])).toBe(
      "chore(args): make parse_args really skip __proto__",
    );
    // Without a scope from the paths, the label is the scope.
    expect(
      fallbackSubject("Headers: don't forward cookies", ["src/index.js", "src/utils/is.js"], {
        fixesFailingTests: true,
      }),
    ).toBe("fix(headers): don't forward cookies");
    expect(fallbackSubject("api: reject empty names", ["src/client.ts"])).toBe(
      "chore(client): api: reject empty names",
    );
    // A change that made failing tests pass is a fix, whatever the words.
    expect(fallbackSubject("Do not set Content-Length", ["lib/response.js"], { fixesFailingTests: true })).toBe(
      "fix(response): do not set Content-Length",
    );
    // A request for something new stays a feature when the tests written for it failed first.
    expect(
      fallbackSubject("Add a logLevel option", ["index.js", "types/index.d.ts"], { fixesFailingTests: true }),
    ).toBe("feat: add a logLevel option");
    // The name of a function is not a request for something new.
    expect(fallbackSubject("add() subtracts", ["add.js"], { fixesFailingTests: true })).toBe(
      "fix(add): add() subtracts",
    );
    expect(fallbackSubject("Do not set Content-Length", ["lib/response.js"])).toBe(
      "chore(response): do not set Content-Length",
    );
    const long = fallbackSubject(`/fix ${"make the widget frobnicate ".repeat(10)}`, []);
    expect(long.length).toBeLessThanOrEqual(72);
    expect(long.startsWith("chore: make the widget")).toBe(true);
    expect(validateSubject(long).ok).toBe(true);
    expect(chooseSubject("COMMIT: nonsense", "Rename foo to bar", ["a.ts", "b/c.ts"])).toBe(
      "refactor: rename foo to bar",
    );
  });
  it("builds the message with one-line trailers", () => {
    const message = buildCommitMessage({
      subject: "fix: x",
      model: "m",
      coAuthor: "Ada <ada@x.org>",
      trailers: { "Patchsmith-Request": "https://e/1\nSigned-off-by: evil", "bad key": "v" },
    });
    expect(message).toBe(
      "fix: x\n\nCo-authored-by: Ada <ada@x.org>\nPatchsmith-Model: m\nPatchsmith-Request: https://e/1 Signed-off-by: evil\n",
    );
  });
  it("drops Markdown's emphasis marks, not a star that is text", () => {
    expect(fallbackSubject("subset() should treat * as a superset of any range", ["ranges/subset.js"])).toBe(
      "fix(subset): subset() should treat * as a superset of any range",
    );
    expect(fallbackSubject("Make **all** errors *fatal* in `parse`", [])).toMatch(/: make all errors fatal in parse$/);
    expect(fallbackSubject("Support globs like src/**/*.js", [])).toMatch(/: support globs like src\/\*\*\/\*\.js$/);
  });
  it("lower-cases a sentence's first word, not a name", () => {
    expect(fallbackSubject("FnvHasher::write computes FNV-1", ["lib.rs"])).toBe(
      "chore: FnvHasher::write computes FNV-1",
    );
    expect(fallbackSubject("URL parsing drops the port", [])).toMatch(/: URL parsing drops the port$/);
    expect(fallbackSubject("Trim the description", [])).toMatch(/: trim the description$/);
    expect(fallbackSubject("Foo.bar should return null", [])).toMatch(/: Foo\.bar should return null$/);
    expect(fallbackSubject("A flag is ignored", [])).toMatch(/: a flag is ignored$/);
  });
  it("quotes the request in the body when the subject does not say all of it", () => {
    const short = "/fix unknown-options-as-args ignores short-option-groups";
    expect(requestBody(short, fallbackSubject(short, ["lib/yargs-parser.ts"]))).toBeUndefined();
    expect(requestBody("/fix `devtools`: the panel is blank", "fix(devtools): the panel is blank")).toBeUndefined();
    const long = "/fix unknown-options-as-args should respect short-option-groups when the group's flags are all known";
    const cut = fallbackSubject(long, ["lib/yargs-parser.ts"]);
    expect(cut.endsWith("…")).toBe(true);
    expect(
      fallbackSubject("/fix isByteLength throws on unpaired UTF-16 surrogates; it should count them as three", [
        "src/lib/isByteLength.js",
      ]),
    ).toBe("fix(isbytelength): isByteLength throws on unpaired UTF-16 surrogates…");
    expect(requestBody(long, cut)).toBe(`Requested:\n> ${long.slice(5)}`);
    // The model's own subject says it another way: the request is kept beside it.
    expect(requestBody("/fix make mean() ignore NaN", "fix(stats): skip NaN values in mean")).toBe(
      "Requested:\n> make mean() ignore NaN",
    );
  });
  it("quotes every line of a request, so that none of them reads as a trailer", () => {
    const body = requestBody("/fix the parser\n\nCo-authored-by: Eve <eve@x.org>\nPatchsmith-Job: c7-abc", "fix: x");
    expect(body).toBe("Requested:\n> the parser\n>\n> Co-authored-by: Eve <eve@x.org>\n> Patchsmith-Job: c7-abc");
    const message = buildCommitMessage({ subject: "fix: x", body: body!, model: "m" });
    expect(message.split("\n").filter((line) => /^[\w-]+: /.test(line))).toEqual(["fix: x", "Patchsmith-Model: m"]);
    expect(requestBody("/fix ", "fix: x")).toBeUndefined();
    expect(requestBody(`/fix ${"a".repeat(3000)}`, "fix: x")!.length).toBeLessThan(2100);
  });
  it("parses identities", () => {
    expect(parseIdentity("Ada Lovelace <ada@x.org>")).toEqual({ name: "Ada Lovelace", email: "ada@x.org" });
    expect(parseIdentity("ada@x.org")).toBeUndefined();
  });
});

describe("branches", () => {
  it("slugs the instruction", () => {
    expect(slugify("/fix Crash in `parse()` when input is empty!")).toBe("crash-in-parse-when-input-is-empty");
    expect(slugify("Ünïcödé naïve café résumé and a very long tail of words here")).toBe(
      "unicode-naive-cafe-resume-and-a-very",
    );
    expect(slugify("!!!")).toBe("change");
    expect(targetBranch("x y", undefined)).toBe("patchsmith/x-y");
    expect(targetBranch("x", "main")).toBe("main");
  });
  it("refuses unsafe names", () => {
    for (const bad of ["-f", "a..b", "a b", "a~1", "x.lock", "a/.b", "a//b", "@{u}", "a\nb"]) {
      expect(checkBranchName(bad).ok, bad).toBe(false);
    }
    expect(checkBranchName("patchsmith/fix-1").ok).toBe(true);
  });
});
