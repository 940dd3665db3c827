import { describe, expect, it } from "vitest";
import { isTestPath } from "../../../src/agent/test-paths.js";

describe("isTestPath", () => {
  it.each([
    "test/app.router.js",
    "tests/test_api.py",
    "src/__tests__/parse.ts",
    "spec/models/user_spec.rb",
    "packages/core/specs/run.ts",
    "lib/parse.test.ts",
    "lib/parse.spec.mjs",
    "lib/parse-test.js",
    "cmd/root_test.go",
    "calc_test.py",
    "test_calc.py",
    "pkg/test_calc.py",
    "test.js",
    "tests.js",
    "src/__tests__/__snapshots__/parse.test.ts.snap",
    "src/test/java/org/x/ParserTest.java",
    "Parser.Tests/ParserTests.cs",
  ])("%s holds tests", (path) => {
    expect(isTestPath(path)).toBe(true);
  });

  it.each([
    "lib/latest.js",
    "src/contest.py",
    "pytest.ini",
    "jest.config.js",
    "src/testing-library.ts",
    "lib/attestation.go",
    "src/main/java/org/x/Parser.java",
    "conftest.py",
    "lib/contests.js",
  ])("%s does not", (path) => {
    expect(isTestPath(path)).toBe(false);
  });
});
