/**
 * The failure parser on what the installed runners really print: each runner runs a small suite (a `mean` that
 * divides by n - 1, a flag parser that reads --flag=false as true) in a temp folder, and the parse must name the
 * failing tests and keep the expected and actual values and the frame in the suite's own file.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parseFailures } from "../../../src/agent/failures/index.js";
import { writeFiles } from "../../fakes/git-repos.js";

const exec = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), "patchsmith-runners-"));
const projectModules = join(import.meta.dirname, "../../../node_modules");
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Runs a command in `dir` and returns what it printed, whatever its exit code. */
async function output(
  dir: string,
  file: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<string> {
  try {
    const { stdout, stderr } = await exec(file, [...args], { cwd: dir, env: { ...process.env, CI: "true", ...env } });
    return stdout + stderr;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return `${failed.stdout ?? ""}${failed.stderr ?? ""}`;
  }
}

async function available(file: string, args: readonly string[]): Promise<boolean> {
  try {
    await exec(file, [...args]);
    return true;
  } catch {
    return false;
  }
}

const CALC_JS = [
  "exports.mean = (values) => values.reduce((s, v) => s + v, 0) / (values.length - 1);",
  'exports.parse = (text) => ({ flag: text === "--flag=false" ? true : undefined });',
  "",
].join("\n");

function project(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  writeFiles(dir, { "calc.js": CALC_JS, ...files });
  return dir;
}

describe("JavaScript runners", () => {
  const nodeSuite = [
    'import { describe, it } from "node:test";',
    'import assert from "node:assert/strict";',
    'import calc from "./calc.js";',
    'describe("calc", () => {',
    '  it("averages", () => { assert.equal(calc.mean([2, 4, 6]), 4); });',
    '  it("reads --flag=false as false", () => { assert.deepEqual(calc.parse("--flag=false"), { flag: false }); });',
    "});",
    "",
  ].join("\n");

  it.each(["tap", "spec"])("node --test with the %s reporter", async (reporter) => {
    const dir = project(`node-${reporter}`, { "calc.test.mjs": nodeSuite });
    const out = await output(dir, process.execPath, ["--test", `--test-reporter=${reporter}`]);
    const { failures } = parseFailures(out, dir);
    expect(failures.map((f) => f.name)).toEqual(["averages", "reads --flag=false as false"]);
    expect(failures[0]!.text).toMatch(/6 !== 4/);
    expect(failures[0]!.text).toContain("calc.test.mjs:5:");
    expect(failures[1]!.text).toMatch(/flag: true/);
  });

  it("tape", async () => {
    const dir = project("tape", {
      "test.js": [
        'const test = require("tape");',
        'const { mean } = require("./calc.js");',
        'test("averages", (t) => { t.equal(mean([2, 4, 6]), 4, "mean of 2, 4, 6"); t.end(); });',
        'test("adds", (t) => { t.equal(1 + 1, 2); t.end(); });',
        'test("subtracts", (t) => { t.equal(2 - 1, 1); t.equal(3 - 1, 1); t.end(); });',
        "",
      ].join("\n"),
    });
    const out = await output(dir, process.execPath, [join(projectModules, "tape/bin/tape"), "test.js"], {
      NODE_PATH: projectModules,
    });
    const { failures } = parseFailures(out, dir);
    // tape's default message repeats: the failing assertion is named by its place among its test's.
    expect(failures.map((f) => f.name)).toEqual([
      "averages › mean of 2, 4, 6",
      "subtracts › should be strictly equal #2",
    ]);
    expect(failures[0]!.text).toMatch(/expected: 4\n\s*actual:\s+6/);
    expect(failures[0]!.text).toContain("test.js:3:");
  });

  it("uvu", async () => {
    const dir = project("uvu", {
      "test/calc.js": [
        'const { test, suite } = require("uvu");',
        'const assert = require("uvu/assert");',
        'const { mean, parse } = require("../calc.js");',
        'test("averages", () => { assert.is(mean([2, 4, 6]), 4); });',
        'test("adds", () => { assert.is(1 + 1, 2); });',
        "test.run();",
        'const Parse = suite("parse");',
        'Parse("reads --flag=false as false", () => { assert.equal(parse("--flag=false"), { flag: false }); });',
        "Parse.run();",
        "",
      ].join("\n"),
    });
    const out = await output(dir, process.execPath, [join(projectModules, "uvu/bin.js"), "test"], {
      NODE_PATH: projectModules,
    });
    const { runners, failures } = parseFailures(out, dir);
    expect(runners).toEqual(["uvu"]);
    expect(failures.map((f) => f.name)).toEqual(["averages", "parse › reads --flag=false as false"]);
    expect(failures[0]!.text).toMatch(/\+\+4\s+\(Expected\)\n\s*--6\s+\(Actual\)/);
    expect(failures[0]!.text).toContain("test/calc.js:4:");
    expect(failures[1]!.text).toContain("deeply equal");
  });

  it("mocha", async () => {
    const dir = project("mocha", {
      "test.js": [
        'const assert = require("node:assert/strict");',
        'const { mean, parse } = require("./calc.js");',
        'describe("calc", () => {',
        '  it("averages", () => { assert.equal(mean([2, 4, 6]), 4); });',
        '  describe("parse", () => {',
        '    it("reads --flag=false as false", () => { assert.deepEqual(parse("--flag=false"), { flag: false }); });',
        "  });",
        "});",
        "",
      ].join("\n"),
    });
    const out = await output(dir, join(projectModules, ".bin/mocha"), ["test.js"]);
    const { failures } = parseFailures(out, dir);
    expect(failures.map((f) => f.name)).toEqual(["calc › averages", "calc › parse › reads --flag=false as false"]);
    expect(failures[0]!.text).toContain("6 !== 4");
    expect(failures[0]!.text).toContain("test.js:4:");
  });

  it.each(["tap", "spec"])(
    "node --test (%s) with a test file it cannot load: that file did not run, the others' tests say where they are",
    async (reporter) => {
      const dir = project(`node-load-${reporter}`, {
        "calc.mjs": "export const mean = (values) => values.reduce((s, v) => s + v, 0) / values.length;\n",
        "test/median.test.mjs": [
          'import test from "node:test";',
          'import { median } from "../calc.mjs";',
          'test("takes the median", () => {});',
          "",
        ].join("\n"),
        "test/mean.test.mjs": [
          'import test from "node:test";',
          'import assert from "node:assert/strict";',
          'import { mean } from "../calc.mjs";',
          'test("averages", () => { assert.equal(mean([2, 4]), 4); });',
          "",
        ].join("\n"),
      });
      const out = await output(dir, process.execPath, ["--test", `--test-reporter=${reporter}`]);
      const failures = parseFailures(out, dir).failures.map((f) => [f.name, f.file, f.notRun === true]);
      expect(failures).toEqual([
        ["averages", "test/mean.test.mjs", false],
        ["test/median.test.mjs", "test/median.test.mjs", true],
      ]);
    },
  );

  it("mocha stopped by a test file it cannot load: the file, as a test that did not run", async () => {
    const dir = project("mocha-load", {
      "test/calc.test.mjs": [
        'import assert from "node:assert/strict";',
        'import { mean, median } from "../calc.mjs";',
        'it("takes the median", () => { assert.equal(median([1, 3, 2]), 2); });',
        "",
      ].join("\n"),
      "calc.mjs": "export const mean = (values) => values.reduce((s, v) => s + v, 0) / values.length;\n",
      "test/required.test.js": 'const { parse } = require("../lib/parse.js");\nit("parses", () => parse(""));\n',
    });
    const esm = await output(dir, join(projectModules, ".bin/mocha"), ["test/calc.test.mjs"]);
    const loaded = parseFailures(esm, dir);
    expect(loaded.failures.map((f) => [f.name, f.file, f.notRun])).toEqual([
      ["test/calc.test.mjs (failed to run)", "test/calc.test.mjs", true],
    ]);
    expect(loaded.nothingRan).toBe(true);
    expect(loaded.failures[0]!.text).toContain("does not provide an export named 'median'");
    const cjs = await output(dir, join(projectModules, ".bin/mocha"), ["test/required.test.js"]);
    expect(parseFailures(cjs, dir).failures.map((f) => f.name)).toEqual(["test/required.test.js (failed to run)"]);
  });

  it("vitest", async () => {
    const dir = project("vitest", {
      "calc.test.js": [
        'import { describe, it, expect } from "vitest";',
        'import calc from "./calc.js";',
        'describe("calc", () => {',
        '  it("averages", () => { expect(calc.mean([2, 4, 6])).toBe(4); });',
        "});",
        "",
      ].join("\n"),
      "package.json": '{ "type": "commonjs" }\n',
    });
    const out = await output(dir, join(projectModules, ".bin/vitest"), ["run", "--root", dir]);
    const { failures } = parseFailures(out, dir);
    expect(failures.map((f) => f.name)).toEqual(["calc > averages"]);
    expect(failures[0]!.text).toContain("expected 6 to be 4");
  });

  it("vitest: tests failing with the same error, which vitest prints under their headings together, each get it", async () => {
    const dir = project("vitest-grouped", {
      "calc.test.js": [
        'import { describe, it, expect } from "vitest";',
        'import calc from "./calc.js";',
        'describe("calc", () => {',
        "  for (const values of [[2, 4, 6], [6, 4, 2]]) {",
        '    it(`averages ${values.join(",")}`, () => { expect(calc.mean(values)).toBe(4); });',
        "  }",
        '  it("averages one", () => { expect(calc.mean([3])).toBe(3); });',
        "});",
        "",
      ].join("\n"),
      "package.json": '{ "type": "commonjs" }\n',
    });
    const out = await output(dir, join(projectModules, ".bin/vitest"), ["run", "--root", dir]);
    const { failures } = parseFailures(out, dir);
    expect(failures.map((f) => f.name)).toEqual([
      "calc > averages 2,4,6",
      "calc > averages 6,4,2",
      "calc > averages one",
    ]);
    expect(failures[0]!.text).toContain("expected 6 to be 4");
    expect(failures[1]!.text).toContain("expected 6 to be 4");
    expect(failures[2]!.text).not.toContain("expected 6 to be 4");
  });
});

describe("Python and Rust runners", () => {
  const pythonFiles = {
    "calc.py": "def mean(values):\n    return sum(values) / (len(values) - 1)\n",
    "tests/__init__.py": "",
    "tests/test_calc.py": [
      "import unittest",
      "from calc import mean",
      "",
      "class CalcTest(unittest.TestCase):",
      "    def test_mean(self):",
      "        self.assertEqual(mean([2, 4, 6]), 4)",
      "",
    ].join("\n"),
  };

  it("unittest", async () => {
    const dir = project("unittest", pythonFiles);
    const out = await output(dir, "python3", ["-m", "unittest", "discover", "-s", "tests", "-t", "."]);
    const { failures } = parseFailures(out, dir);
    expect(failures.map((f) => f.name)).toEqual(["tests.test_calc.CalcTest.test_mean"]);
    expect(failures[0]!.text).toContain("AssertionError: 6.0 != 4");
    expect(failures[0]!.text).toContain('File "tests/test_calc.py", line 6');
  });

  /** What unittest reports of a `CalcTest` whose methods are `methods` (lines, indented in the class). */
  const calcTestFailures = async (name: string, methods: readonly string[]) => {
    const header = ["import unittest", "from calc import mean", "", "class CalcTest(unittest.TestCase):"];
    const dir = project(name, { ...pythonFiles, "tests/test_calc.py": [...header, ...methods, ""].join("\n") });
    const out = await output(dir, "python3", ["-m", "unittest", "discover", "-s", "tests", "-t", "."]);
    return parseFailures(out, dir).failures;
  };

  it("unittest, a test with a docstring: its first line, then its traceback and file", async () => {
    const [failure] = await calcTestFailures("unittest-docstring", [
      "    def test_mean(self):",
      '        """The mean of three values is their middle one."""',
      "        self.assertEqual(mean([2, 4, 6]), 4)",
    ]);
    expect(failure).toMatchObject({ name: "tests.test_calc.CalcTest.test_mean", file: "tests/test_calc.py" });
    expect(failure!.text).toContain("The mean of three values is their middle one.");
    expect(failure!.text).toContain("AssertionError: 6.0 != 4");
  });

  it("unittest subtests, each named with its message and parameters", async () => {
    const failures = await calcTestFailures("unittest-subtests", [
      "    def test_mean(self):",
      "        for values, expected in [([2, 4, 6], 4), ([5, 5], 5)]:",
      "            with self.subTest(values=values):",
      "                self.assertEqual(mean(values), expected)",
      "",
      "    def test_pairs(self):",
      "        with self.subTest('pairs', n=1):",
      "            self.assertEqual(mean([1, 1]), 1)",
    ]);
    expect(failures.map((f) => f.name)).toEqual([
      "tests.test_calc.CalcTest.test_mean (values=[2, 4, 6])",
      "tests.test_calc.CalcTest.test_mean (values=[5, 5])",
      "tests.test_calc.CalcTest.test_pairs [pairs] (n=1)",
    ]);
    expect(failures[1]!.text).toContain("AssertionError: 10.0 != 5");
  });

  it("unittest with a test module it cannot import: that module did not run, the others' tests say where they are", async () => {
    const dir = project("unittest-import", {
      ...pythonFiles,
      "tests/test_median.py": [
        "import unittest",
        "from calc import median",
        "",
        "class MedianTest(unittest.TestCase):",
        "    def test_median(self):",
        "        self.assertEqual(median([1, 3, 2]), 2)",
        "",
      ].join("\n"),
    });
    const out = await output(dir, "python3", ["-m", "unittest", "discover", "-s", "tests", "-t", "."]);
    const failures = parseFailures(out, dir).failures.map((f) => [f.name, f.file, f.notRun === true]);
    expect(failures).toEqual([
      ["tests/test_median.py (failed to run)", "tests/test_median.py", true],
      ["tests.test_calc.CalcTest.test_mean", "tests/test_calc.py", false],
    ]);
  });

  it("pytest, where it is installed", async (context) => {
    if (!(await available("python3", ["-m", "pytest", "--version"]))) context.skip();
    const dir = project("pytest", pythonFiles);
    const out = await output(dir, "python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider"]);
    const { failures } = parseFailures(out, dir);
    expect(failures.map((f) => f.name)).toEqual(["tests/test_calc.py::CalcTest::test_mean"]);
    expect(failures[0]!.text).toContain("E       AssertionError: 6.0 != 4");
  });

  it("pytest stopped by a file it cannot collect, where it is installed", async (context) => {
    if (!(await available("python3", ["-m", "pytest", "--version"]))) context.skip();
    const dir = project("pytest-collect", {
      ...pythonFiles,
      "tests/test_median.py": "from calc import median\n\ndef test_median():\n    assert median([1, 3, 2]) == 2\n",
    });
    const out = await output(dir, "python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider"]);
    const parsed = parseFailures(out, dir);
    expect(parsed.failures.map((f) => [f.name, f.file, f.notRun])).toEqual([
      ["tests/test_median.py", "tests/test_median.py", true],
    ]);
    expect(parsed.nothingRan).toBe(true);
  });

  it("cargo test, where cargo is installed", async (context) => {
    if (!(await available("cargo", ["--version"]))) context.skip();
    const dir = project("cargo", {
      "Cargo.toml": '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs": [
        "pub fn mean(values: &[f64]) -> f64 {",
        "    values.iter().sum::<f64>() / (values.len() as f64 - 1.0)",
        "}",
        "#[cfg(test)]",
        "mod tests {",
        "    #[test]",
        "    fn averages() {",
        "        assert_eq!(super::mean(&[2.0, 4.0, 6.0]), 4.0);",
        "    }",
        "}",
        "",
      ].join("\n"),
    });
    const out = await output(dir, "cargo", ["test", "--offline", "--quiet"], {
      RUST_BACKTRACE: "0",
      CARGO_TARGET_DIR: join(dir, "target"),
    });
    const { failures } = parseFailures(out, dir);
    expect(failures.map((f) => f.name)).toEqual(["tests::averages"]);
    expect(failures[0]!.text).toMatch(/left: 6\.0\n\s*right: 4\.0/);
  }, 120_000);
});
