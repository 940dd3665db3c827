import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_FAILING_NAMES, MAX_FAILURES, parseFailures } from "../../../src/agent/failures/index.js";
import { buildReflectionPrompt, describeTests } from "../../../src/agent/build-prompt.js";
import { summarizeTestRun, summaryForReport } from "../../../src/agent/test-output.js";
import { testRunForModel } from "../../../src/agent/test-run-for-model.js";
import { compareTests } from "../../../src/agent/verdict.js";

const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, "../../fixtures/runners", name), "utf8");

describe("parseFailures on outputs of runners CI does not install (fixtures/runners/README.md)", () => {
  it("Jest: the ● headings, the matcher's message with expected and received, the frame in the repository", () => {
    const { runners, failures } = parseFailures(fixture("jest.txt"));
    expect(runners).toEqual(["jest"]);
    expect(failures.map((f) => f.name)).toEqual(["calc › averages", "calc › parse › reads --flag=false as false"]);
    expect(failures[0]!.text).toContain("Expected: 4\n    Received: 6");
    expect(failures[0]!.text).toContain("at Object.toBe (test/calc.test.js:4:52)");
    // The code frame (with its gutter) is noise next to the frame's file and line.
    expect(failures[0]!.text).not.toMatch(/\d+ \|/);
  });

  it("AVA: the ✘ names, and each test's difference under its name", () => {
    const { failures } = parseFailures(fixture("ava.txt"));
    expect(failures.map((f) => f.name)).toEqual(["averages", "reads --flag=false as false"]);
    expect(failures[1]!.text).toContain("-   flag: true,\n  +   flag: false,");
    expect(failures[1]!.text).toContain("avatest/calc.test.js:5:48");
  });

  it("AVA 3: the ✖ names (a duration or an error thrown aside), and each test's difference under its name", () => {
    const { runners, failures } = parseFailures(fixture("ava3.txt"));
    expect(runners).toEqual(["ava"]);
    expect(failures.map((f) => f.name)).toEqual(["calc › averages", "calc › parse › reads --flag=false as false"]);
    expect(failures[0]!.text).toContain("- 6\n  + 4");
    expect(failures[1]!.text).toContain("avatest/calc.test.js:6:20");
  });

  it("go test: subtests by their full name, the t.Errorf lines, with or without -v", () => {
    for (const file of ["go.txt", "go-verbose.txt"]) {
      const { failures } = parseFailures(fixture(file));
      expect(failures.map((f) => f.name)).toEqual(["TestMean", "TestTable", "TestTable/two", "TestTable/three"]);
      expect(failures[0]!.text).toContain("calc_test.go:7: Mean([2 4 6]) = 6, want 4");
      expect(failures[2]!.text).toContain("calc_test.go:20: got 4, want 2");
    }
  });
});

describe("parseFailures on TAP", () => {
  it("skips the parents of failing subtests and TODO/SKIP directives", () => {
    const tap = [
      "TAP version 13",
      "# Subtest: passes",
      "ok 1 - passes",
      "# Subtest: fails here",
      "not ok 2 - fails here",
      "  ---",
      "  error: '1 == 2'",
      "  ...",
      "# Subtest: suite",
      "    # Subtest: inner fails",
      "    not ok 1 - inner fails",
      "      ---",
      "      error: 'no'",
      "      ...",
      "    1..1",
      "not ok 3 - suite",
      "not ok 4 - later top-level failure",
      "not ok 5 - not done yet # TODO",
      "1..5",
    ].join("\n");
    const { failures } = parseFailures(tap);
    expect(failures.map((f) => f.name)).toEqual(["fails here", "inner fails", "later top-level failure"]);
    expect(failures[0]!.text).toBe("not ok fails here\nerror: '1 == 2'");
  });
});

describe("parseFailures on AVA's summary lines, which carry the error's message after the title", () => {
  it("names each failure by its title alone, as its details do", () => {
    const { failures } = parseFailures(fixture("ava-messages.txt"));
    expect(failures.map((f) => [f.name, f.file])).toEqual([
      ["averages", "test/calc.js"],
      ["loads a config", undefined],
    ]);
    expect(failures[1]!.text).toContain("cannot load config");
  });
});

describe("parseFailures on AVA with a test file that cannot load", () => {
  const run = (file: string) =>
    summarizeTestRun({
      command: "npm test",
      passed: false,
      exitCode: 1,
      timedOut: false,
      output: fixture(file),
      droppedBytes: 0,
      durationMs: 5,
    });
  it("names the file that did not load apart, and gives each failure its file", () => {
    const { failures } = parseFailures(fixture("ava-load-before.txt"));
    expect(failures.map((f) => [f.name, f.file, f.notRun === true])).toEqual([
      ["mean › averages", "test/mean.js", false],
      ["test/median.js (failed to run)", "test/median.js", true],
    ]);
    expect(failures[1]!.text).toContain("does not provide an export named 'median'");
  });
  it("does not count the tests of that file, failing once it loads, as new failures", () => {
    expect(compareTests(run("ava-load-before.txt"), run("ava-load-after.txt"))).toEqual({
      verdict: "no-worse",
      stillFailing: ["mean › averages"],
      notRunBefore: ["median › takes the median"],
    });
  });
});

describe("parseFailures on Jest with several test files", () => {
  it("ends a failure where the next file's result starts", () => {
    const { failures } = parseFailures(fixture("jest-files.txt"));
    expect(failures.map((f) => [f.name, f.file])).toEqual([["calc › averages", "test/calc.test.js"]]);
    expect(failures[0]!.text).toContain("Received: 6");
    expect(failures[0]!.text).toContain("test/calc.test.js:3:50");
    expect(failures[0]!.text).not.toContain("PASS");
  });
});

describe("parseFailures on pytest's long tracebacks", () => {
  it("keeps the error and its place, not the whole function pytest lists above them", () => {
    const [failure] = parseFailures(fixture("pytest-long.txt"), "/project").failures;
    expect(failure!.name).toBe("tests/test_calc.py::SpreadTest::test_empty");
    expect(failure!.text).toContain("E       IndexError: list index out of range");
    expect(failure!.text).toContain("calc.py:31: IndexError");
    expect(failure!.text).toContain(">       lowest = ordered[0]");
    expect(failure!.text).toContain("    def spread(values):");
    expect(failure!.text).not.toContain("Equal values have no spread");
    // The test's own entry is short and stays whole.
    expect(failure!.text).toContain(">       self.assertEqual(spread([]), 0)");
  });
});

describe("parseFailures on node:test's spec reporter of Node.js 24", () => {
  it("reads each failure from the recap, where alone it carries its error", () => {
    const { runners, failures } = parseFailures(fixture("node24-spec.txt"), "/project");
    expect(runners).toEqual(["node:test"]);
    expect(failures.map((f) => [f.name, f.file])).toEqual([
      ["averages", "calc.test.mjs"],
      ["reads --flag=false as false", "calc.test.mjs"],
    ]);
    expect(failures[0]!.text).toContain("6 !== 4");
    expect(failures[0]!.text).toContain("calc.test.mjs:5:33");
    expect(failures[1]!.text).toMatch(/\+\s+flag: true/);
  });
});

describe("parseFailures on node-tap", () => {
  it("names an assertion by the subtests around it, and a repeated default message by its place", () => {
    const { runners, failures } = parseFailures(fixture("node-tap.txt"));
    expect(runners).toEqual(["tap"]);
    // The second "should be equal" passed: the third keeps its own place.
    expect(failures.map((f) => f.name)).toEqual([
      "test/calc.js › should be equal #1",
      "test/calc.js › should be equal #3",
      "test/calc.js › parse › reads --flag=false as false",
    ]);
    expect(failures[0]!.text).toContain("+3");
    expect(failures[1]!.text).toContain("+6");
  });
});

describe("parseFailures on Mocha under c8", () => {
  it("ends the last failure where the coverage report starts", () => {
    const { runners, failures } = parseFailures(fixture("mocha-c8.txt"));
    expect(runners).toEqual(["mocha"]);
    expect(failures.map((f) => f.name)).toEqual(["calc › averages", "calc › reads --flag=false as false"]);
    expect(failures[1]!.text).toContain('"flag": false');
    expect(failures[1]!.text).toContain("test/calc.js:5:52");
    expect(failures[1]!.text).not.toMatch(/% Stmts|calc\.js \s*\||threshold/);
  });

  it("ends it at istanbul's text summary too", () => {
    const output = [
      "  1 failing",
      "",
      "  1) calc",
      "       averages:",
      "      AssertionError: expected 6 to equal 4",
      "      at Context.<anonymous> (test/calc.js:4:33)",
      "",
      "=============================== Coverage summary ===============================",
      "Statements   : 100% ( 2/2 )",
      "================================================================================",
    ].join("\n");
    const [failure] = parseFailures(output).failures;
    expect(failure!.text).toContain("expected 6 to equal 4");
    expect(failure!.text).not.toContain("Statements");
  });
});

describe("parseFailures on tap 14's buffered subtests", () => {
  it("names the failing assertions and a file that exited on its own, not a file whose assertions failed", () => {
    const { failures } = parseFailures(fixture("tap14.txt"), "/project");
    expect(failures.map((f) => f.name)).toEqual([
      "mean › averages the values",
      "parse › reads --flag=false as false",
      "test/crash.js",
    ]);
    expect(failures[0]!.text).toMatch(/-4\n\s*\+6/);
    expect(failures[2]!.text).toContain("exitCode: 3");
  });
});

describe("parseFailures on @hapi/lab", () => {
  it("names each failure by its joined titles, with the test file its frame points into", () => {
    const { runners, failures } = parseFailures(fixture("lab.txt"), "/project");
    expect(runners).toEqual(["lab"]);
    expect(failures.map((f) => [f.name, f.file])).toEqual([
      ["calc mean() averages the values", "test/calc.js"],
      ["throws on an unknown flag", "test/flags.js"],
    ]);
    expect(failures[0]!.text).toContain("Expected 6 to equal specified value: 4");
    // The count and the coverage report after the list belong to no failure.
    expect(failures[1]!.text).not.toContain("Coverage");
  });

  it("takes the test file from the outermost frame in the repository, below the code the test called", () => {
    const output = [
      "Failed tests:",
      "",
      "  3) link recursion reports an error:",
      "",
      "      Maximum call stack size exceeded",
      "",
      "      at internals.Base._generate (/project/lib/base.js:10:14)",
      "      at Object.validate (/project/lib/types/link.js:66:34)",
      "      at /project/test/types/link.js:413:38",
      "      at Immediate.<anonymous> (/project/node_modules/@hapi/lab/lib/runner.js:661:35)",
      "",
      "1 of 33 tests failed",
    ].join("\n");
    const [failure] = parseFailures(output, "/project").failures;
    expect(failure!.file).toBe("test/types/link.js");
    expect(failure!.text).toContain("at test/types/link.js:413:38");
  });
});

describe("parseFailures in general", () => {
  it("finds nothing in output it does not know", () => {
    expect(parseFailures("Build failed\nerror: something\n3 tests failed\n").failures).toEqual([]);
  });

  /** A `go test` run in which tests `Test0`… fail, each in its own file. */
  const goRun = (names: readonly string[]) =>
    summarizeTestRun({
      command: "go test ./...",
      passed: false,
      exitCode: 1,
      timedOut: false,
      output: names.map((n) => `--- FAIL: ${n} (0.00s)\n    ${n.toLowerCase()}_test.go:3: wrong`).join("\n"),
      droppedBytes: 0,
      durationMs: 1,
    });

  it("keeps every failing test, and a report the first hundred blocks with every name", () => {
    const summary = goRun(Array.from({ length: 150 }, (_, i) => `Test${String(i)}`));
    expect(summary.failing).toHaveLength(150);
    expect(summary.failures).toHaveLength(150);
    const reported = summaryForReport(summary, (t) => t);
    expect(reported.failing).toHaveLength(150);
    expect(reported.failures).toHaveLength(MAX_FAILURES);
  });

  it("shows the model the failures the request is about first, however many others fail", () => {
    const offline = Array.from({ length: 200 }, (_, i) => `TestFetchRemote${String(i)}`);
    const before = goRun([...offline.slice(0, 150), "TestSetextHeading", ...offline.slice(150)]);
    const text = describeTests("go test ./...", before, (t) => t, ["setext", "heading"]);
    expect(text).toMatch(/^Failing: TestSetextHeading, TestFetchRemote0,/m);
    expect(text).toContain("testsetextheading_test.go:3: wrong");
  });

  it("shows the model the failures its change just broke first", () => {
    const offline = Array.from({ length: 200 }, (_, i) => `TestFetchRemote${String(i)}`);
    const after = goRun([...offline.slice(0, 150), "TestParseDate", ...offline.slice(150)]);
    const prompt = buildReflectionPrompt({
      attempt: 1,
      tests: after,
      newFailures: ["TestParseDate"],
      stillFailing: offline,
      files: new Map(),
      redact: (t) => t,
    });
    expect(prompt).toContain("testparsedate_test.go:3: wrong");
    expect(prompt.indexOf("TestParseDate")).toBeLessThan(prompt.indexOf("TestFetchRemote0"));
  });

  it("sees a test the change broke past the first hundred a broken environment already fails", () => {
    const offline = Array.from({ length: 300 }, (_, i) => `TestFetch${String(i)}`);
    const before = goRun(offline);
    const after = goRun([...offline.slice(0, 250), "TestParseDate", ...offline.slice(250)]);
    expect(compareTests(before, after)).toMatchObject({ verdict: "worse", newFailures: ["TestParseDate"] });
    expect(compareTests(before, goRun(offline.slice(0, 299)))).toMatchObject({ verdict: "no-worse" });
  });

  it("does not call a run no worse when it fails more tests than it keeps names of", () => {
    const all = Array.from({ length: MAX_FAILING_NAMES + 5 }, (_, i) => `TestCase${String(i)}`);
    const verdict = compareTests(goRun(all), goRun(all));
    expect(verdict).toMatchObject({ verdict: "worse" });
    expect(verdict.verdict === "worse" && verdict.why).toContain("too many to tell");
  });

  it("bounds a block however long the runner's message is", () => {
    const long = [
      "--- FAIL: TestHuge (0.00s)",
      ...Array.from({ length: 500 }, (_, i) => `    x_test.go:${String(i)}: line`),
    ];
    const [failure] = parseFailures(long.join("\n")).failures;
    expect(failure!.text.split("\n").length).toBeLessThanOrEqual(31);
    expect(failure!.text).toContain("more lines)");
  });
});

describe("what the model reads of a failing run", () => {
  it("puts why each test failed first and the end of the output after it, within the bound", () => {
    const output = `${"progress line\n".repeat(2000)}${fixture("jest.txt")}`;
    const summary = summarizeTestRun({
      command: "npx jest",
      passed: false,
      exitCode: 1,
      timedOut: false,
      output,
      droppedBytes: 0,
      durationMs: 5,
    });
    expect(summary.failing).toEqual(["calc › averages", "calc › parse › reads --flag=false as false"]);
    const text = testRunForModel(summary);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(text.indexOf("Expected: 4")).toBeLessThan(text.indexOf("The end of the output:"));
    expect(text).toContain("Ran all test suites.");
  });

  it("names the failures there was no room to show", () => {
    const output = Array.from(
      { length: 40 },
      (_, i) => `--- FAIL: TestCase${String(i)} (0.00s)\n    case_test.go:${String(i)}: ${"x".repeat(200)}`,
    ).join("\n");
    const summary = summarizeTestRun({
      command: "go test",
      passed: false,
      exitCode: 1,
      timedOut: false,
      output,
      droppedBytes: 0,
      durationMs: 1,
    });
    const text = testRunForModel(summary);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(text).toMatch(/Also failing \(not shown\): [^\n]*TestCase20/);
  });

  it("shows an error several tests next to each other failed with once, under their headings", () => {
    const output = [
      "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 3 ⎯⎯⎯⎯⎯⎯⎯",
      "",
      " FAIL  test/base.test.ts > withBase > a",
      " FAIL  test/base.test.ts > withBase > b",
      "AssertionError: expected '/x' to be '/base/x'",
      " ❯ test/base.test.ts:36:41",
      "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯",
      "",
      " FAIL  test/base.test.ts > withBase > c",
      "AssertionError: expected '/y' to be '/base/y'",
      " ❯ test/base.test.ts:36:41",
      "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/2]⎯",
      " Test Files  1 failed (1)",
      "      Tests  3 failed | 5 passed (8)",
    ].join("\n");
    const summary = summarizeTestRun({
      command: "vitest run",
      passed: false,
      exitCode: 1,
      timedOut: false,
      output,
      droppedBytes: 0,
      durationMs: 1,
    });
    expect(summary.failures?.map((f) => f.text.split("\n")[1])).toEqual([
      "AssertionError: expected '/x' to be '/base/x'",
      "AssertionError: expected '/x' to be '/base/x'",
      "AssertionError: expected '/y' to be '/base/y'",
    ]);
    const blocks = testRunForModel(summary).split("\n\nThe end of the output:")[0]!;
    expect(blocks).toBe(
      [
        "FAIL  test/base.test.ts > withBase > a",
        "FAIL  test/base.test.ts > withBase > b",
        "AssertionError: expected '/x' to be '/base/x'",
        " ❯ test/base.test.ts:36:41",
        "",
        "FAIL  test/base.test.ts > withBase > c",
        "AssertionError: expected '/y' to be '/base/y'",
        " ❯ test/base.test.ts:36:41",
      ].join("\n"),
    );
  });
});

describe("parseFailures on outputs of scripts run side by side, each line under its script's label", () => {
  const vitestRun = [
    " ✓  web  tests/sum.test.ts (3 tests) 4ms",
    "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯",
    "",
    " FAIL   web  tests/parse.test.ts > parse > reads a negative number",
    "AssertionError: expected 5 to be -5",
    " ❯ tests/parse.test.ts:7:22",
    "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯",
    " Test Files  1 failed | 1 passed (2)",
    "      Tests  1 failed | 3 passed (4)",
  ];
  const lint = ["Checking formatting...", "All matched files use Prettier code style!"];

  it("pnpm's labels (`. test:spec: `), with the lint's lines between the tests'", () => {
    const output = [
      ...lint.map((l) => `. test:format: ${l}`),
      ...vitestRun.flatMap((l, i) => [`. test:spec: ${l}`, ...(i === 2 ? [`. test:lint: Done`] : [])]),
      " ELIFECYCLE  Command failed with exit code 1.",
    ].join("\n");
    const { runners, failures } = parseFailures(output);
    expect(runners).toEqual(["vitest"]);
    expect(failures.map((f) => f.name)).toEqual(["parse > reads a negative number"]);
    expect(failures[0]!.text).toContain("AssertionError: expected 5 to be -5");
  });

  it("Turborepo's (`web:test: `) and Yarn's (`[web]: `) labels", () => {
    for (const label of ["web:test", "[web]"]) {
      const output = vitestRun.map((l) => `${label}: ${l}`).join("\n");
      expect(parseFailures(output).failures.map((f) => f.name)).toEqual(["parse > reads a negative number"]);
    }
  });

  it("a project's name before the file, and lines that only start with a word and a colon, change nothing", () => {
    expect(parseFailures(vitestRun.join("\n")).failures.map((f) => f.name)).toEqual([
      "parse > reads a negative number",
    ]);
    const legacy = vitestRun.map((l) => l.replace("FAIL   web  ", "FAIL  |web| ")).join("\n");
    expect(parseFailures(legacy).failures.map((f) => f.name)).toEqual(["parse > reads a negative number"]);
    const unlabelled = ["Error: boom", "Error: boom", "Error: boom", ...vitestRun].join("\n");
    expect(parseFailures(unlabelled).failures.map((f) => f.name)).toEqual(["parse > reads a negative number"]);
  });
});

describe("parseFailures on a run stopped before any test ran", () => {
  it("pytest's file it could not collect is a file whose tests did not run", () => {
    const output = [
      "==================================== ERRORS ====================================",
      "____________________ ERROR collecting tests/test_median.py _____________________",
      "ImportError while importing test module '/r/tests/test_median.py'.",
      "E   ImportError: cannot import name 'median' from 'calc' (/r/calc.py)",
      "=========================== short test summary info ============================",
      "ERROR tests/test_median.py",
      "!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!",
    ].join("\n");
    const parsed = parseFailures(output, "/r");
    expect(parsed.failures.map((f) => [f.name, f.file, f.notRun])).toEqual([
      ["tests/test_median.py", "tests/test_median.py", true],
    ]);
    expect(parsed.nothingRan).toBe(true);
    // Going on past collection errors, the session ran nothing when its summary counts only errors.
    const onward = output.split("\n").slice(0, -1);
    const none = parseFailures(
      [...onward, "============================== 1 error in 0.50s ==============================="].join("\n"),
      "/r",
    );
    expect(none.nothingRan).toBe(true);
    const some = parseFailures(
      [...onward, "================== 1 failed, 15 passed, 1 error in 0.71s ==================="].join("\n"),
      "/r",
    );
    expect(some.nothingRan).toBeUndefined();
    expect(some.failures.map((f) => [f.name, f.notRun])).toEqual([["tests/test_median.py", true]]);
  });

  it("Node's report of a test file that threw while loading, under no runner's format", () => {
    const output = [
      "> test",
      "> mocha",
      "",
      "/r/test/parse.test.js:3",
      "const { parse } = loadParser();",
      "                  ^",
      "",
      "TypeError: loadParser is not a function",
      "    at Object.<anonymous> (/r/test/parse.test.js:3:19)",
      "    at Module._compile (node:internal/modules/cjs/loader:1521:14)",
    ].join("\n");
    const parsed = parseFailures(output, "/r");
    expect(parsed.failures.map((f) => f.name)).toEqual(["test/parse.test.js (failed to run)"]);
    expect(parsed.failures[0]!.text).toContain("TypeError: loadParser is not a function");
    expect(parsed.nothingRan).toBe(true);
    // Without the caret under the line, an error is only an error.
    expect(parseFailures("TypeError: loadParser is not a function\n    at x (/r/a.js:1:2)", "/r").failures).toEqual([]);
  });
});

describe("parseFailures on tape piped through a reporter", () => {
  // The names tape's own TAP gives the same assertions (tap.ts), so a run reads alike whichever way it is printed.
  const names = [
    "mean › should be strictly equal #1",
    "mean › should be strictly equal #2",
    "mean › should be strictly equal #3",
    "parse › reads --flag=false as false",
    "pairs › should be deeply equivalent",
  ];

  it.each(["tap-spec5.txt", "tap-spec4.txt"])("reads tap-spec's listing, not its closing list (%s)", (name) => {
    const { runners, failures } = parseFailures(fixture(name), "/project");
    expect(runners).toEqual(["tape (tap-spec, tap-arc)"]);
    expect(failures.map((f) => f.name)).toEqual(names);
    expect(failures[1]!.text).toMatch(/expected: 4\n\s*actual: {3}6/);
    expect(failures[1]!.text).toContain("test/calc.js:5:5");
    expect(failures[4]!.text).toContain("expected: [ 2 ]");
  });

  it("keeps tap-spec 5's unindented stack with its assertion, and only the repository's frames of it", () => {
    const { failures } = parseFailures(fixture("tap-spec5.txt"), "/project");
    expect(failures[0]!.text).toContain("Error: should be strictly equal");
    expect(failures[0]!.text).toContain("at Test.<anonymous> (test/calc.js:4:5)");
    expect(failures[0]!.text).not.toContain("node_modules");
    // The stack ends at the blank line: the next test's name is no part of it.
    expect(failures[2]!.text).not.toContain("parse");
  });

  it("names an assertion by its test, not by what the test printed (a time, which changes from run to run)", () => {
    const { failures } = parseFailures(fixture("tap-spec-log.txt"), "/project");
    expect(failures.map((f) => f.name)).toEqual(["logs while it runs › adds"]);
  });

  it("reads tap-arc's coloured listing, its numbers left out of the names", () => {
    const { failures } = parseFailures(fixture("tap-arc.txt"), "/project");
    expect(failures.map((f) => f.name)).toEqual(names);
    expect(failures[2]!.text).toContain("Expected 2.5 but got 3.3333333333333335");
    expect(failures[3]!.text).toContain("At: Test.<anonymous> (/test/calc.js:11:5)");
    expect(failures[3]!.text).not.toContain("pairs");
  });

  it("reads the same names from tape's TAP of the same run", () => {
    const tap = [
      "TAP version 13",
      "# mean",
      "not ok 1 should be strictly equal",
      "not ok 2 should be strictly equal",
      "not ok 3 should be strictly equal",
      "# parse",
      "ok 4 reads a bare flag as true",
      "not ok 5 reads --flag=false as false",
      "# mean of groups",
      "# pairs",
      "not ok 6 should be deeply equivalent",
      "# empty",
      "ok 7 is not a number or zero",
    ].join("\n");
    expect(parseFailures(tap).failures.map((f) => f.name)).toEqual(names);
  });
});

describe("parseFailures on Jasmine", () => {
  it("names each spec by its full name, with every failed expectation and the spec's file", () => {
    const { runners, failures } = parseFailures(fixture("jasmine.txt"), "/project");
    expect(runners).toEqual(["jasmine"]);
    expect(failures.map((f) => [f.name, f.file])).toEqual([
      ["mean averages the values", "spec/calc.spec.js"],
      ["mean keeps a single value", "spec/calc.spec.js"],
      ["mean of nothing is not a number", "spec/calc.spec.js"],
      ["parse reads --flag=false as false", "spec/calc.spec.js"],
      ["parse throws on an empty flag", "spec/calc.spec.js"],
      ["mean of pairs checks both halves", "spec/more.spec.js"],
      ["mean of pairs calls a helper that is not there", "spec/more.spec.js"],
      ["cleanup", "spec/after.spec.js"],
    ]);
    expect(failures[3]!.text).toContain("the value after =: Expected true to be false.");
    // Both expectations of one spec, each with its line; Jasmine's own frames left out.
    expect(failures[5]!.text).toMatch(/more\.spec\.js:4:26[\s\S]*more\.spec\.js:5:26/);
    expect(failures[5]!.text).not.toContain("<Jasmine>");
    // The suite's afterAll error ends at the count.
    expect(failures[7]!.text).toContain("could not close the pool");
    expect(failures[7]!.text).not.toContain("specs");
  });
});

describe("parseFailures on Jest's failed snapshots", () => {
  it("keeps each snapshot's difference with its test, and the snapshot summary with none", () => {
    const { failures } = parseFailures(fixture("jest-snapshot.txt"), "/project");
    expect(failures.map((f) => f.name)).toEqual(["renders a card", "renders inline"]);
    expect(failures[0]!.text).toMatch(/- {3}"title": "ADA",\n\s*\+ {3}"title": "ada",/);
    expect(failures[1]!.text).toContain('+   "badge": "member",');
    expect(failures[1]!.text).not.toContain("Snapshot Summary");
    expect(failures[1]!.text).not.toContain("snapshots failed");
  });
});

describe("parseFailures on pytest stopped while collecting a class", () => {
  it("names the file as not run (no test ran at all), with the error, not pytest's own frames", () => {
    const parsed = parseFailures(fixture("pytest-collect-class.txt"), "/project");
    expect(parsed.nothingRan).toBe(true);
    expect(parsed.failures).toHaveLength(1);
    const [failure] = parsed.failures;
    expect(failure).toMatchObject({
      name: "tests/test_blocks.py::TestSuite",
      file: "tests/test_blocks.py",
      notRun: true,
    });
    expect(failure!.text).toContain("E   pytest.PytestCollectionWarning: cannot collect test class 'TestSuite'");
    expect(failure!.text).not.toMatch(/site-packages|collector\.collect|\^\^\^/);
  });
});

describe("parseFailures on pytest 9's subtests", () => {
  it("names each failing subtest by its test's id and its parameters, with its own section", () => {
    const { failures } = parseFailures(fixture("pytest-subtests.txt"), "/project");
    expect(failures.map((f) => f.name)).toEqual([
      "tests/test_calc.py::MeanTest::test_cases (values=[2, 4, 6])",
      "tests/test_calc.py::MeanTest::test_cases (values=[5, 5])",
      "tests/test_calc.py::MeanTest::test_cases (values=[1, 2, 3, 4])",
      "tests/test_calc.py::MeanTest::test_single",
      "tests/test_calc.py::LabelTest::test_labels [pairs] (n=1)",
      "tests/test_calc.py::LabelTest::test_labels [pairs] (n=2)",
    ]);
    expect(failures[1]!.text).toContain("E               AssertionError: 10.0 != 5");
    expect(failures[5]!.text).toContain("E               AssertionError: 4.0 != 2");
  });
});

describe("parseFailures on node:test's dot reporter", () => {
  it("reads the recap, each test with its error, not the suite whose tests failed", () => {
    const { runners, failures } = parseFailures(fixture("node-dot.txt"), "/project");
    expect(runners).toEqual(["node:test"]);
    expect(failures.map((f) => f.name)).toEqual(["averages the values", "keeps one value"]);
    expect(failures[1]!.text).toContain("10 !== 5");
    expect(failures[1]!.text).toContain("test/calc.test.mjs:6:42");
  });
});

describe("parseFailures on pytest's parametrized tests", () => {
  it("reads an id whose parameters hold spaces and ' - ', with its section", () => {
    const { failures } = parseFailures(fixture("pytest-params.txt"), "/project");
    expect(failures.map((f) => f.name)).toEqual([
      "tests/test_words.py::test_title[hello world-Hello World]",
      "tests/test_words.py::test_title[x - y-X - Y]",
    ]);
    expect(failures[1]!.text).toContain("AssertionError: assert 'X - y' == 'X - Y'");
  });
});

describe("parseFailures on unittest output cut after a heading", () => {
  it("names the failure the last line heads, without reading past the output", () => {
    const output = [
      "Ran 2 tests in 0.010s",
      "",
      "FAILED (failures=1)",
      "FAIL: test_mean (tests.test_calc.CalcTest.test_mean)",
    ];
    expect(parseFailures(output.join("\n")).failures.map((f) => f.name)).toEqual([
      "tests.test_calc.CalcTest.test_mean",
    ]);
  });
});
