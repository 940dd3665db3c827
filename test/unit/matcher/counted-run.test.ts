import { describe, expect, it } from "vitest";
import type { LineOp } from "../../../src/core/edit.js";
import { placedByCount } from "../../../src/matcher/counted-run.js";
import { parseText } from "../../../src/core/text.js";
import { locate } from "../../../src/matcher/ladder.js";
import { oldSide } from "../../../src/matcher/old-side.js";

const c = (text: string): LineOp => ({ op: "context", text });
const r = (text: string): LineOp => ({ op: "remove", text });
const a = (text: string): LineOp => ({ op: "add", text });

/** Whether the ops, found at `start` of `file`, place their change by counting. */
const counted = (file: readonly string[], ops: LineOp[], start: number): boolean =>
  placedByCount((i) => file[i]!, file.length, ops, oldSide(ops), start);

const table = ["table = (", "    'head'", ...Array.from({ length: 6 }, () => "    'gap'"), "    'tail'", ")"];

describe("placedByCount", () => {
  it("a change inside a run whose SEARCH stops inside the run is placed by counting", () => {
    const gaps = (n: number): LineOp[] => Array.from({ length: n }, () => c("    'gap'"));
    const ops = [c("    'head'"), ...gaps(3), r("    'gap'"), a("    'new'"), c("    'gap'")];
    expect(counted(table, ops, 1)).toBe(true);
    // Two copies are seen at a glance: that count is trusted.
    const short = [c("    'head'"), ...gaps(2), r("    'gap'"), a("    'new'"), c("    'gap'")];
    expect(counted(table, short, 1)).toBe(false);
  });

  it("a SEARCH that reaches a distinct line on both sides of the run places it", () => {
    const ops = [
      c("    'head'"),
      ...Array.from({ length: 2 }, () => c("    'gap'")),
      a("    'new'"),
      ...Array.from({ length: 4 }, () => c("    'gap'")),
      c("    'tail'"),
    ];
    expect(counted(table, ops, 1)).toBe(false);
  });

  it("removing copies of the line leaves the same text wherever it falls", () => {
    const ops = [c("    'head'"), c("    'gap'"), r("    'gap'"), c("    'gap'")];
    expect(counted(table, ops, 1)).toBe(false);
  });

  it("a line of its own text among the copies is placed by that text", () => {
    const file = ["x", "  g", "  g", "  g", "  mid", "  g", "  g"];
    const ops = [c("  g"), c("  g"), r("  mid"), a("  mid2"), c("  g")];
    expect(counted(file, ops, 2)).toBe(false);
  });

  it("runs of blank lines and changes next to a distinct line are not counted", () => {
    const blanks = ["a", "", "", "", "", "b"];
    expect(counted(blanks, [c("a"), c(""), a("x"), c("")], 0)).toBe(false);
    expect(counted(table, [c("    'head'"), r("    'gap'"), a("    'new'"), c("    'gap'")], 1)).toBe(false);
  });

  it("the ladder refuses such a change saying where the run of equal lines is", () => {
    const gaps = Array.from({ length: 3 }, () => c("    'gap'"));
    const ops = [c("    'head'"), ...gaps, r("    'gap'"), a("    'new'"), c("    'gap'")];
    const result = locate(parseText(`${table.join("\n")}\n`), { ops, hint: {} });
    expect(result).toMatchObject({ kind: "ambiguous" });
    if (result.kind === "ambiguous") expect(result.note).toMatch(/^lines 3-8 repeat the same line/);
  });

  it("a SEARCH that ends (or starts) with the change to a copy the file repeats past that end is placed by counting", () => {
    // Right after the distinct line, with nothing quoted after the change: a copy left out before it would move it.
    expect(counted(table, [c("    'head'"), r("    'gap'"), a("    'new'")], 1)).toBe(true);
    expect(counted(table, [r("    'gap'"), a("    'new'"), c("    'tail'")], 7)).toBe(true);
    // Removing the copy leaves the same text wherever it falls; the run's last copy is placed by what follows.
    expect(counted(table, [c("    'head'"), r("    'gap'")], 1)).toBe(false);
    expect(counted(table, [c("    'gap'"), r("    'gap'"), a("    'new'"), c("    'tail'")], 6)).toBe(false);
  });
});
