import { describe, expect, it } from "vitest";
import { definesTests, heldVerdict, heldVersions, requestNames } from "../../../src/agent/held-tests.js";
import { summary } from "../../fakes/ports/scripted.js";

describe("files that define the tests", () => {
  it("are test files and the helpers beside them, and the runners' configurations", () => {
    for (const path of [
      "test/res.send.js",
      "src/stats.test.ts",
      "tests/conftest.py",
      "conftest.py",
      "pkg/handler_test.go",
      "package.json",
      "vitest.config.ts",
      "jest.config.cjs",
      ".mocharc.yml",
      "pytest.ini",
      ".mocharc.json",
    ])
      expect(definesTests(path), path).toBe(true);
    for (const path of [
      "src/stats.js",
      "lib/response.js",
      "README.md",
      "src/testing.ts",
      "pyproject.toml",
      "setup.cfg",
    ])
      expect(definesTests(path), path).toBe(false);
  });
});

describe("the versions the tests run with as they were", () => {
  const accepted = new Map<string, string | null>([
    ["test/a.test.js", "old test"],
    ["src/a.js", "old code"],
    ["test/new.test.js", null],
    ["conftest.py", null],
    ["test/same.test.js", "same"],
  ]);
  const written = new Map<string, string | null>([
    ["test/a.test.js", "skipped test"],
    ["src/a.js", "new code"],
    ["test/new.test.js", "a new test"],
    ["conftest.py", "def pytest_collection_modifyitems(items): items.clear()"],
    ["test/same.test.js", "same"],
  ]);

  it("put back each changed test file and remove a new configuration; code, new tests and the unchanged stay", () => {
    expect(heldVersions(written, (p) => accepted.get(p))).toEqual(
      new Map([
        ["test/a.test.js", "old test"],
        ["conftest.py", null],
      ]),
    );
  });

  it("of package.json are its test fields as they were, the rest as the change made it", () => {
    const was = JSON.stringify({ name: "p", type: "commonjs", scripts: { test: "mocha" }, mocha: { bail: true } });
    const now = JSON.stringify({ name: "p", type: "module", scripts: { test: "mocha --grep -v Transfer" } });
    const held = heldVersions(new Map([["package.json", now]]), () => was).get("package.json");
    expect(JSON.parse(held!)).toEqual({ name: "p", type: "module", scripts: { test: "mocha" }, mocha: { bail: true } });
    // A change outside them is not held.
    const exportsOnly = JSON.stringify({
      name: "p",
      type: "module",
      scripts: { test: "mocha" },
      mocha: { bail: true },
    });
    expect(heldVersions(new Map([["package.json", exportsOnly]]), () => was)).toEqual(new Map());
  });

  it("are none when no test-defining file changed", () => {
    expect(heldVersions(new Map([["src/a.js", "new code"]]), (p) => accepted.get(p))).toEqual(new Map());
  });
});

describe("a request names a file", () => {
  it("by its path, or by a name that says it defines tests, in any case", () => {
    expect(requestNames("Skip the flaky case in test/a.js", ["test/a.js"])).toBe(true);
    expect(requestNames("The expectation in A.TEST.JS is wrong", ["test/a.test.js"])).toBe(true);
    expect(requestNames("Clear the items in conftest.py", ["tests/conftest.py"])).toBe(true);
    expect(requestNames("The mean is wrong", ["test/a.test.js"])).toBe(false);
  });

  it("not by a name that could as well be the code's", () => {
    expect(requestNames("stats.js divides by the wrong count", ["test/stats.js"])).toBe(false);
  });
});

describe("whether a change holds with the tests as they were", () => {
  const before = summary("npm test", ["mean", "max"]);

  it("holds when the tests it made pass pass there too", () => {
    expect(heldVerdict(before, summary("npm test", []), summary("npm test", []))).toBeUndefined();
    // A test that still failed after the change may fail there too.
    expect(heldVerdict(before, summary("npm test", ["max"]), summary("npm test", ["max"]))).toBeUndefined();
  });

  it("does not when a test it made pass fails there", () => {
    expect(heldVerdict(before, summary("npm test", []), summary("npm test", ["mean"]))).toEqual({
      why: "with the tests as they were, 1 test(s) that failed before still fail: the change to the tests made them pass",
      failing: ["mean"],
    });
  });

  it("holds when a test that passed before fails there: a fix may mean to change what a test asserts", () => {
    const green = summary("npm test", []);
    expect(heldVerdict(green, green, summary("npm test", ["sum"]))).toBeUndefined();
    expect(heldVerdict(before, summary("npm test", []), summary("npm test", ["sum"]))).toBeUndefined();
  });
});
