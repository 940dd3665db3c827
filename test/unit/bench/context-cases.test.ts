import { describe, expect, it } from "vitest";
import {
  failingTestFiles,
  goldFiles,
  instructionOf,
  isFixMessage,
  parseNameStatus,
  untouchedTestFiles,
} from "../../../bench/context-cases.js";

describe("context bench cases", () => {
  it("takes commits that read like fixes and say enough to locate code", () => {
    expect(isFixMessage("fix(res.send): add Content-Length only without Transfer-Encoding", "")).toBe(true);
    expect(isFixMessage("Fix CI", "")).toBe(false);
    expect(isFixMessage("docs: fix broken link in the guide", "")).toBe(false);
    expect(isFixMessage("Add a new parser for flags", "")).toBe(false);
  });

  it("drops trailers from the request", () => {
    expect(instructionOf("Fix the parser", "It broke.\n\nCo-authored-by: A <a@b.c>\nFixes #12")).toBe(
      "Fix the parser\n\nIt broke.",
    );
  });

  it("keeps fixes of one or two existing source files, tests and docs aside", () => {
    const changes = parseNameStatus("M\tlib/parse.js\nM\ttest/parse.test.js\nM\tHistory.md\nA\tlib/new.js");
    expect(goldFiles(changes)).toEqual(["lib/parse.js"]);
    expect(goldFiles(parseNameStatus("M\tdocs/a.js\nM\ttest/x.js"))).toBeUndefined();
    expect(goldFiles(parseNameStatus("M\ta.js\nM\tb.js\nM\tc.js"))).toBeUndefined();
  });

  it("takes the existing test files a fix changed as the tests failing before it", () => {
    const changes = parseNameStatus(
      "M\tlib/parse.js\nM\ttest/parse.test.js\nA\ttest/new.test.js\nM\ttest/fixture.json",
    );
    expect(failingTestFiles(changes)).toEqual(["test/parse.test.js"]);
  });

  it("takes as tests that fail whatever the request the first code test files by path the fix did not change", () => {
    const paths = [
      "test/c.test.js",
      "lib/a.js",
      "test/a.test.js",
      "test/b.test.js",
      "test/data.json",
      "test/d.test.js",
    ];
    expect(untouchedTestFiles(paths, ["test/b.test.js"], 2)).toEqual(["test/a.test.js", "test/c.test.js"]);
  });
});
