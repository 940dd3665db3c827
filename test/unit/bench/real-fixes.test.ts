import { describe, expect, it } from "vitest";
import { isTestPath } from "../../../bench/real-fixes.js";

describe("isTestPath: what of a fix commit is its tests (committed first) and what the model's reply", () => {
  it("takes test folders and test files by the usual names", () => {
    for (const path of [
      "tests/test_utils.py",
      "test/bool.js",
      "test.js",
      "src/a/__tests__/b.ts",
      "pkg/x_test.go",
      "lib/y.spec.mjs",
      "test_calc.py",
    ])
      expect(isTestPath(path), path).toBe(true);
  });

  it("leaves code, docs and changelogs to the reply", () => {
    for (const path of [
      "src/requests/utils.py",
      "index.js",
      "CHANGES.rst",
      "docs/testing.rst",
      "src/testing.py",
      "latest.js",
    ])
      expect(isTestPath(path), path).toBe(false);
  });
});
