import { describe, expect, it } from "vitest";
import { applyPatchOf, replayCommits, searchReplaceOf } from "../../../bench/replay-cases.js";
import { parseReply } from "../../../src/formats/registry.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const D = "d".repeat(40);

/** The ops of each replace edit a reply parses to, as `op:text`. */
const changesOf = (reply: string): unknown[] =>
  parseReply(reply).map((item) =>
    item.type === "edit" && item.edit.kind === "replace" ? item.edit.ops.map((o) => `${o.op}:${o.text}`) : item,
  );

/** A diff of lib/x.js whose first hunk changes `b` and ends with a blank context line. */
const FIRST_HUNK = ["@@ -1,3 +1,3 @@", " const a = 1;", "-const b = 2;", "+const b = 3;"];
const FIRST_CHANGES = ["context:const a = 1;", "remove:const b = 2;", "add:const b = 3;", "context:"];

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
      ...FIRST_HUNK,
      " ",
      "@@ -9,2 +9,3 @@",
      " end();",
      "+done();",
      "\\ No newline at end of file",
      "",
    ].join("\n");
    expect(changesOf(searchReplaceOf("lib/x.js", diff))).toEqual([FIRST_CHANGES, ["context:end();", "add:done();"]]);
  });

  it("reads a diff's hunks as an apply_patch envelope that parses back to the same changes", () => {
    // The blank context line lost its space, as in models' diffs.
    const diff = ["--- a/lib/x.js", "+++ b/lib/x.js", ...FIRST_HUNK, "", ""].join("\n");
    expect(changesOf(applyPatchOf("lib/x.js", diff))).toEqual([FIRST_CHANGES]);
  });

  it("writes the blocks with a model fault: a mistyped context line on both sides, a dropped first line", () => {
    const diff = [
      "--- a/lib/x.js",
      "+++ b/lib/x.js",
      "@@ -1,4 +1,4 @@",
      " const first = 1;",
      " const alphabet = 1;",
      "-const b = 2;",
      "+const b = 3;",
      "",
    ].join("\n");
    expect(changesOf(searchReplaceOf("lib/x.js", diff, "typo"))).toEqual([
      ["context:const first = 1;", "context:const alpxabet = 1;", "remove:const b = 2;", "add:const b = 3;"],
    ]);
    expect(changesOf(searchReplaceOf("lib/x.js", diff, "dropped-first"))).toEqual([
      ["context:const alphabet = 1;", "remove:const b = 2;", "add:const b = 3;"],
    ]);
    expect(changesOf(searchReplaceOf("lib/x.js", diff, "indent"))).toEqual([
      [
        "context:    const first = 1;",
        "context:    const alphabet = 1;",
        "remove:    const b = 2;",
        "add:    const b = 3;",
      ],
    ]);
  });

  it("writes the blocks with the faults of a chat model: curly quotes, a mistyped removed line, a cut line, CRLF", () => {
    const diff = [
      "--- a/lib/x.js",
      "+++ b/lib/x.js",
      "@@ -1,3 +1,3 @@",
      " const label = 'a label that is long enough to be cut short';",
      "-const b = 2;",
      "+const b = 3;",
      "",
    ].join("\n");
    const label = "const label = 'a label that is long enough to be cut short';";
    expect(changesOf(searchReplaceOf("lib/x.js", diff, "curly-quotes"))).toEqual([
      [
        "context:const label = \u2018a label that is long enough to be cut short\u2019;",
        "remove:const b = 2;",
        "add:const b = 3;",
      ],
    ]);
    expect(changesOf(searchReplaceOf("lib/x.js", diff, "typo-in-removed"))).toEqual([
      [`context:${label}`, "remove:const x = 2;", "add:const b = 3;"],
    ]);
    expect(changesOf(searchReplaceOf("lib/x.js", diff, "cut-line"))).toEqual([
      [`context:${label.slice(0, Math.floor(label.length * 0.7))}`, "remove:const b = 2;", "add:const b = 3;"],
    ]);
    const crlf = searchReplaceOf("lib/x.js", diff, "crlf");
    expect(crlf.split("\r\n").join("\n")).toBe(searchReplaceOf("lib/x.js", diff));
    expect(crlf).not.toMatch(/[^\r]\n/);
  });

  it("elides an unchanged run of three lines between two changes, in the file's comment syntax, on both sides", () => {
    const hunk = [
      "@@ -1,7 +1,7 @@",
      "-x = 1",
      "+x = 2",
      " a = 1",
      " b = 2",
      " c = 3",
      "-y = 1",
      "+y = 2",
      " end()",
      "",
    ];
    const diff = ["--- a/lib/x.py", "+++ b/lib/x.py", ...hunk].join("\n");
    expect(changesOf(searchReplaceOf("lib/x.py", diff, "elided"))).toEqual([
      ["remove:x = 1", "add:x = 2", "elision:# ... existing code ...", "remove:y = 1", "add:y = 2", "context:end()"],
    ]);
    // A run at the block's edge stands for nothing: it is left as it is.
    const edge = [
      "--- a/lib/x.py",
      "+++ b/lib/x.py",
      "@@ -1,4 +1,4 @@",
      " a = 1",
      " b = 2",
      " c = 3",
      "-y = 1",
      "+y = 2",
      "",
    ];
    expect(changesOf(searchReplaceOf("lib/x.py", edge.join("\n"), "elided"))).toEqual(
      changesOf(searchReplaceOf("lib/x.py", edge.join("\n"))),
    );
  });
});
