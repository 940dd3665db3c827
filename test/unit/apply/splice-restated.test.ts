import { describe, expect, it } from "vitest";
import type { LineOp } from "../../../src/core/edit.js";
import { restatedLines, restatedText } from "../../../src/apply/splice-restated.js";
import type { Alignment } from "../../../src/matcher/types.js";

/** The alignment of `ops` onto consecutive file lines from `start` (one line per non-add op). */
function straight(ops: readonly LineOp[], start: number): Alignment[] {
  const alignment: Alignment[] = [];
  let at = start;
  ops.forEach((op, index) => {
    if (op.op === "add") return;
    alignment.push({ op: index, start: at, end: at + 1 });
    at += 1;
  });
  return alignment;
}

describe("restated lines", () => {
  const file = ["jobs:", "  timeout: 45m", "  name: reindex", "end"];
  const lineAt = (i: number): string => file[i]!;

  it("gives the file's line for an added copy of a removed line that differs from the file beyond whitespace", () => {
    const ops: LineOp[] = [
      { op: "context", text: "jobs:" },
      { op: "remove", text: "  timeout: 30m  " },
      { op: "remove", text: "  name: reindex  " },
      { op: "add", text: "  timeout: 30m" },
      { op: "add", text: "  retries: 2" },
      { op: "add", text: "  name: reindex" },
      { op: "context", text: "end" },
    ];
    // The stale copy (30m) stands for file line 1; the faithful one (name) is the model's text already.
    expect([...restatedLines(ops, straight(ops, 0), lineAt)]).toEqual([[3, 1]]);
    expect(restatedText(file[1]!, "  timeout: 30m")).toBe("  timeout: 45m");
    expect(restatedText("  timeout: 45m  ", "  timeout: 30m")).toBe("  timeout: 45m");
  });

  it("leaves a real change alone, and pairs copies in order only", () => {
    const changed: LineOp[] = [
      { op: "remove", text: "  timeout: 30m" },
      { op: "add", text: "  timeout: 90m" },
    ];
    expect(restatedLines(changed, straight(changed, 1), lineAt).size).toBe(0);
    // The removed line comes back after another added line that restates nothing: still its copy.
    const moved: LineOp[] = [
      { op: "remove", text: "  timeout: 30m " },
      { op: "add", text: "  retries: 2" },
      { op: "add", text: "  timeout: 30m" },
    ];
    expect([...restatedLines(moved, straight(moved, 1), lineAt)]).toEqual([[2, 1]]);
  });

  it("leaves a removed line the match did not pair with one file line to the model's text", () => {
    const ops: LineOp[] = [
      { op: "remove", text: "  timeout: 30m  " },
      { op: "add", text: "  timeout: 30m" },
    ];
    expect(restatedLines(ops, [{ op: 0, start: 1, end: 1 }], lineAt).size).toBe(0);
  });
});
