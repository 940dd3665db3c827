import { describe, expect, it } from "vitest";
import { applyPatchOf, replayCommits, searchReplaceOf } from "../../../bench/replay-cases.js";
import { parseReply } from "../../../src/formats/registry.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const D = "d".repeat(40);

describe("replay bench cases", () => {
  it("takes commits that change one text file by a few lines, renames and binaries aside", () => {
    const log = [
      A,
      "",
      "3\t1\tlib/parse.js",
      B,
      "",
      "1\t1\tlib/a.js",
      "2\t0\tlib/b.js",
      C,
      "",
      "-\t-\tlogo.png",
      D,
      "",
      "30\t20\tREADME.md",
      "f".repeat(40),
      "",
      "1\t1\tlib/{old => new}.js",
    ].join("\n");
    expect(replayCommits(log)).toEqual([{ sha: A, path: "lib/parse.js" }]);
  });

  it("reads a diff's hunks as SEARCH/REPLACE blocks that parse back to the same changes", () => {
    const diff = [
      "diff --git a/lib/x.js b/lib/x.js",
      "--- a/lib/x.js",
      "+++ b/lib/x.js",
      "@@ -1,3 +1,3 @@",
      " const a = 1;",
      "-const b = 2;",
      "+const b = 3;",
      " ",
      "@@ -9,2 +9,3 @@",
      " end();",
      "+done();",
      "\\ No newline at end of file",
      "",
    ].join("\n");
    const blocks = searchReplaceOf("lib/x.js", diff);
    const edits = parseReply(blocks).map((item) => (item.type === "edit" ? item.edit : undefined));
    expect(edits.map((e) => (e?.kind === "replace" ? e.ops.map((o) => `${o.op}:${o.text}`) : e))).toEqual([
      ["context:const a = 1;", "remove:const b = 2;", "add:const b = 3;", "context:"],
      ["context:end();", "add:done();"],
    ]);
  });

  it("reads a diff's hunks as an apply_patch envelope that parses back to the same changes", () => {
    const diff = [
      "--- a/lib/x.js",
      "+++ b/lib/x.js",
      "@@ -1,3 +1,3 @@",
      " const a = 1;",
      "-const b = 2;",
      "+const b = 3;",
      "",
      "",
    ].join("\n");
    const edits = parseReply(applyPatchOf("lib/x.js", diff)).map((item) =>
      item.type === "edit" ? item.edit : undefined,
    );
    expect(edits.map((e) => (e?.kind === "replace" ? e.ops.map((o) => `${o.op}:${o.text}`) : e))).toEqual([
      ["context:const a = 1;", "remove:const b = 2;", "add:const b = 3;", "context:"],
    ]);
  });
});
