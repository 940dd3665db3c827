import { describe, expect, it } from "vitest";
import { looksLikeExcerpt } from "../../../src/apply/plan-steps.js";
import {
  changedRange,
  originalLine,
  recordShift,
  shiftAt,
  writtenBySection,
  type LineShift,
} from "../../../src/apply/plan-offsets.js";
import { planEdits } from "../../../src/apply/plan.js";
import type { LineOp } from "../../../src/core/edit.js";
import { create, hunk, item, origin, reasons, rewrite, snap } from "./plan-items.js";

const deps = Array.from({ length: 30 }, (_, i) => `    "dep${i}": "^1.0.0",`);
const packageJson = ["{", '  "name": "x",', '  "scripts": {', '    "test": "jest",', '    "build": "tsc"', "  },"]
  .concat(['  "dependencies": {', ...deps, "  }", "}"])
  .join("\n");

describe("planEdits: a whole-file reply that is an edited fragment", () => {
  it("is refused as an excerpt even when it changes a line (the reviewer's c10)", () => {
    const fragment = '  "scripts": {\n    "test": "vitest run",\n    "build": "tsc"\n  },\n';
    const plan = planEdits([rewrite("package.json", fragment)], snap({ "package.json": `${packageJson}\n` }));
    expect(reasons(plan.results)).toEqual(["invalid-format"]);
    expect(!plan.results[0]!.ok && plan.results[0]!.message).toContain("this looks like an excerpt");
    expect(plan.writes.size).toBe(0);
  });

  it("draws the line at 60 % of the non-blank new lines known to the file", () => {
    const old = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    expect(looksLikeExcerpt(old, ["line 1", "line 2", "line 3", "new a", "new b"])).toBe(true);
    expect(looksLikeExcerpt(old, ["line 1", "line 2", "new c", "new a", "new b"])).toBe(false);
    expect(looksLikeExcerpt(old, ["line 1", "", "", "", "new a"])).toBe(false);
    // Short files and rewrites of at least half the length are never called excerpts.
    expect(looksLikeExcerpt(old.slice(0, 19), ["line 1"])).toBe(false);
    expect(looksLikeExcerpt(old, old.slice(0, 10))).toBe(false);
  });
});

describe("planEdits: an empty SEARCH on an existing empty file", () => {
  it("fills the 0-byte file (the reviewer's c11)", () => {
    const plan = planEdits([create("pkg/__init__.py", "hello\n")], snap({ "pkg/__init__.py": "" }));
    expect(plan.results[0]).toMatchObject({ ok: true, strategy: "create", before: "", after: "hello\n" });
    expect(plan.writes.get("pkg/__init__.py")).toBe("hello\n");
  });

  it("still refuses to create over a file with content, or from other formats", () => {
    expect(reasons(planEdits([create("a.py", "x\n")], snap({ "a.py": "\n" })).results)).toEqual(["file-exists"]);
    const added = item({ kind: "create", path: "a.py", content: "x\n", origin: origin(1, "patch") });
    expect(reasons(planEdits([added], snap({ "a.py": "" })).results)).toEqual(["file-exists"]);
  });
});

describe("planEdits: hint lines of hunks that are not in file order", () => {
  // `x` occurs at lines 2 and 6; only the udiff line number tells them apart.
  const file = ["a", "x", "b", "c", "d", "x", "e"].join("\n") + "\n";
  const add = (text: string): LineOp => ({ op: "add", text });
  const change = (from: string, to: string[]): LineOp[] => [{ op: "remove", text: from }, ...to.map(add)];

  it("shifts a hint only by the edits applied above it", () => {
    // The lower hunk comes first and adds two lines after its `x`; both `x` stay, so the upper hunk's line 2 must
    // not move (shifted by 2 it would point at `c` and select neither).
    const after = (text: string[]): LineOp[] => [{ op: "context", text: "x" }, ...text.map((t) => add(t))];
    const plan = planEdits(
      [hunk("f.txt", after(["y1", "y2"]), 6), hunk("f.txt", after(["z"]), 2)],
      snap({ "f.txt": file }),
    );
    expect(reasons(plan.results)).toEqual(["ok:exact", "ok:exact"]);
    expect(plan.writes.get("f.txt")).toBe(["a", "x", "z", "b", "c", "d", "x", "y1", "y2", "e"].join("\n") + "\n");
  });

  it("still shifts a hint by the edits above it in file order", () => {
    const keep = (text: string[]): LineOp[] => [{ op: "context", text: "x" }, ...text.map(add)];
    const plan = planEdits(
      [hunk("f.txt", change("a", ["a1", "a2"]), 1), hunk("f.txt", keep(["z"]), 6)],
      snap({ "f.txt": file }),
    );
    expect(plan.writes.get("f.txt")).toBe(["a1", "a2", "x", "b", "c", "d", "x", "z", "e"].join("\n") + "\n");
  });
});

describe("line shifts", () => {
  it("map current lines back to original ones through edits above them", () => {
    const shifts: LineShift[] = [];
    recordShift(shifts, 10, 11, 2); // original line 10 became 3 lines
    recordShift(shifts, 2, 2, 1); // one line inserted before original line 2
    // Kept in original order, whatever the order the edits were applied in.
    expect(shifts).toEqual([
      { start: 2, end: 2, delta: 1 },
      { start: 10, end: 11, delta: 2 },
    ]);
    expect(originalLine(shifts, 14)).toBe(11);
    expect(originalLine(shifts, 5)).toBe(4);
    expect(shiftAt(shifts, 1)).toBe(0);
    expect(shiftAt(shifts, 5)).toBe(1);
    expect(shiftAt(shifts, 11)).toBe(3);
    recordShift(shifts, 15, 16, -1); // current 15 is original 12
    expect(shifts.at(-1)).toEqual({ start: 12, end: 13, delta: -1 });
    recordShift(shifts, 0, 1, 3); // current 0 is original 0: it goes first
    expect(shifts.map((s) => s.start)).toEqual([0, 2, 10, 12]);
  });

  it("tell the lines a diff's applied hunks wrote, where they are now", () => {
    const shifts: LineShift[] = [];
    recordShift(shifts, 10, 11, 2, undefined, 7); // original line 10 became current lines 10-12, by diff 7
    recordShift(shifts, 2, 2, 1, undefined, 7); // a line inserted at current line 2 moves them to 11-13
    recordShift(shifts, 20, 21, 0); // a SEARCH/REPLACE block at current 20
    const written = (section: number) =>
      Array.from({ length: 24 }, (_, line) => line).filter((line) => writtenBySection(shifts, line, section));
    expect(written(7)).toEqual([2, 11, 12, 13]);
    expect(written(9)).toEqual([]);
  });
});

describe("changedRange", () => {
  it("leaves out the context and elision lines kept at either end of a match", () => {
    const ops = [
      { op: "context", text: "a" },
      { op: "elision", text: "..." },
      { op: "remove", text: "b" },
      { op: "add", text: "B" },
      { op: "context", text: "c" },
    ] as const;
    const alignment = [
      { op: 0, start: 10, end: 11 },
      { op: 1, start: 11, end: 15 },
      { op: 2, start: 15, end: 16 },
      { op: 4, start: 16, end: 17 },
    ];
    expect(changedRange(ops, alignment, 10, 17)).toEqual({ start: 15, end: 16 });
  });

  it("is the insertion point for a pure insertion, and the whole match when nothing changes", () => {
    const insert = [
      { op: "context", text: "a" },
      { op: "add", text: "x" },
      { op: "context", text: "b" },
    ] as const;
    const around = [
      { op: 0, start: 4, end: 5 },
      { op: 2, start: 5, end: 6 },
    ];
    expect(changedRange(insert, around, 4, 6)).toEqual({ start: 5, end: 5 });
    expect(changedRange([{ op: "context", text: "a" }], [{ op: 0, start: 2, end: 3 }], 2, 3)).toEqual({
      start: 2,
      end: 3,
    });
  });
});
