import { describe, expect, it } from "vitest";
import { MAX_FAILING_NAMES, parseFailingTests } from "../../../src/agent/test-output.js";

describe("parseFailingTests", () => {
  it("reads node:test TAP, skipping parents of failing subtests and TODO/SKIP directives", () => {
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
      "    1..1",
      "not ok 3 - suite",
      "not ok 4 - later top-level failure",
      "not ok 5 - not done yet # TODO",
      "1..5",
    ].join("\n");
    expect(parseFailingTests(tap)).toEqual(["fails here", "inner fails", "later top-level failure"]);
  });

  it("reads the node:test spec reporter, with colours", () => {
    const spec =
      "\u001b[32m✔ passes (1.05ms)\u001b[39m\n\u001b[31m✖ fails here (0.84ms)\u001b[39m\n  AssertionError\n▶ suite\n  ✖ inner fails (7.1ms)\n\u001b[31m✖ failing tests:\u001b[39m\n✖ fails here (0.84ms)\n";
    expect(parseFailingTests(spec)).toEqual(["fails here", "inner fails"]);
  });

  it("reads vitest and jest", () => {
    const vitest =
      " ✓ test/a.test.ts > ok 2ms\n × test/a.test.ts > math > adds 3ms\n FAIL  test/a.test.ts > math > adds\n FAIL  test/b.test.ts\n";
    expect(parseFailingTests(vitest)).toEqual(["test/a.test.ts > math > adds", "math > adds"]);
    const jest =
      "FAIL src/sum.test.js\n  math\n    ✓ works (2 ms)\n    ✕ adds (5 ms)\n  ● math › adds\n  ● Test suite failed to run\n";
    expect(parseFailingTests(jest)).toEqual(["adds", "math › adds"]);
  });

  it("reads pytest, unittest, go and cargo", () => {
    expect(
      parseFailingTests(
        "FAILED tests/test_a.py::TestX::test_y - AssertionError: 0 != 5\nERROR tests/test_b.py::test_z\n",
      ),
    ).toEqual(["tests/test_a.py::TestX::test_y", "tests/test_b.py::test_z"]);
    expect(parseFailingTests("FAIL: test_y (tests.test_a.TestX.test_y)\nERROR: test_z (tests.test_a.TestX)\n")).toEqual(
      ["tests.test_a.TestX.test_y", "tests.test_a.TestX.test_z"],
    );
    expect(
      parseFailingTests(
        "--- FAIL: TestParse (0.00s)\n    --- FAIL: TestParse/empty (0.00s)\nFAIL\nFAIL\texample.com/p\t0.01s\n",
      ),
    ).toEqual(["TestParse", "TestParse/empty"]);
    expect(parseFailingTests("test parser::tests::empty ... FAILED\ntest parser::tests::ok ... ok\n")).toEqual([
      "parser::tests::empty",
    ]);
  });

  it("finds nothing in output it does not know, and caps the list", () => {
    expect(parseFailingTests("Build failed\nerror: something\n3 tests failed\n")).toEqual([]);
    const many = Array.from({ length: 150 }, (_, i) => `--- FAIL: Test${i} (0.00s)`).join("\n");
    expect(parseFailingTests(many)).toHaveLength(MAX_FAILING_NAMES);
  });
});
