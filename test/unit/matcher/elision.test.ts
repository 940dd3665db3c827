import { describe, expect, it } from "vitest";
import type { LineOp } from "../../../src/core/edit.js";
import { applyOps, lines } from "./helpers.js";

const file = lines(
  "function setup() {",
  "  const a = 1;",
  "  const b = 2;",
  "  const c = 3;",
  "  return a + b + c;",
  "}",
  "",
  "function other() {",
  "  return 0;",
  "}",
);

const gap: LineOp = { op: "elision", text: "  // ... existing code ..." };

describe("elision rung", () => {
  it("keeps the gap between paired elisions verbatim", () => {
    const ops: LineOp[] = [
      { op: "context", text: "function setup() {" },
      { op: "add", text: "  init();" },
      gap,
      { op: "remove", text: "  return a + b + c;" },
      { op: "add", text: "  return a * b * c;" },
    ];
    const applied = applyOps(file, ops);
    expect(applied).toMatchObject({ ok: true, result: { match: { strategy: "elision", start: 0, end: 5 } } });
    expect(applied.ok && applied.after).toBe(
      lines(
        "function setup() {",
        "  init();",
        "  const a = 1;",
        "  const b = 2;",
        "  const c = 3;",
        "  return a * b * c;",
        "}",
        "",
        "function other() {",
        "  return 0;",
        "}",
      ),
    );
  });

  it("a literal elision-looking line in the file matches on a line rung first", () => {
    const stub = lines("class P:", "    def f(self):", "        ...", "    def g(self): pass");
    const ops: LineOp[] = [
      { op: "context", text: "    def f(self):" },
      { op: "elision", text: "        ..." },
      { op: "add", text: "    def h(self): pass" },
    ];
    expect(applyOps(stub, ops)).toMatchObject({ ok: true, result: { match: { strategy: "exact" } } });
  });

  it("refuses when a piece occurs twice within its range, naming the line where the SEARCH starts", () => {
    const ops: LineOp[] = [
      { op: "context", text: "function setup() {" },
      gap,
      { op: "remove", text: "}" },
      { op: "add", text: "} // end" },
    ];
    // Both readings start at `function setup() {` (line 1); the `}` at lines 6 and 10 is the inner piece.
    const applied = applyOps(file, ops);
    expect(applied).toMatchObject({ ok: false, result: { kind: "ambiguous", strategy: "elision", lines: [1, 1] } });
  });

  it("refuses when the first piece is ambiguous", () => {
    const ops: LineOp[] = [{ op: "remove", text: "}" }, gap, { op: "context", text: "function other() {" }];
    expect(applyOps(file, ops)).toMatchObject({ ok: false, result: { kind: "ambiguous" } });
  });

  it("a leading elision stands for everything before; added lines after it go before the piece", () => {
    const ops: LineOp[] = [
      gap,
      { op: "add", text: "// other follows" },
      { op: "context", text: "function other() {" },
      { op: "remove", text: "  return 0;" },
      { op: "add", text: "  return 1;" },
      { op: "context", text: "}" },
    ];
    const applied = applyOps(file, ops);
    expect(applied).toMatchObject({ ok: true, changed: { start: 8, end: 11 } });
    expect(applied.ok && applied.after).toBe(
      file.replace("function other() {\n  return 0;", "// other follows\nfunction other() {\n  return 1;"),
    );
  });

  it("a piece that is not in the file is not found, with a note", () => {
    const ops: LineOp[] = [{ op: "context", text: "function setup() {" }, gap, { op: "remove", text: "  missing();" }];
    const applied = applyOps(file, ops);
    expect(applied).toMatchObject({ ok: false, result: { kind: "not-found" } });
    if (!applied.ok && applied.result.kind === "not-found") expect(applied.result.note).toMatch(/missing\(\)/);
  });

  describe("added lines placed only by an elision refuse", () => {
    const noteOf = (ops: LineOp[]): string | undefined => {
      const applied = applyOps(file, ops);
      expect(applied.ok).toBe(false);
      return !applied.ok && applied.result.kind === "not-found" ? applied.result.note : undefined;
    };

    it("after a trailing elision: never appended at the end of the file", () => {
      const ops: LineOp[] = [
        { op: "context", text: "function setup() {" },
        { op: "context", text: "  const a = 1;" },
        gap,
        { op: "add", text: "  log();" },
      ];
      expect(noteOf(ops)).toBe(
        "the edit adds lines after a trailing '...' — it is unclear where; quote the lines around the insertion",
      );
    });

    it("before a leading elision: never put at the start of the file", () => {
      const ops: LineOp[] = [{ op: "add", text: "// header" }, gap, { op: "context", text: "function other() {" }];
      expect(noteOf(ops)).toMatch(/^the edit adds lines before a leading '\.\.\.'/);
    });

    it("between two elisions: never put at the end of the first gap", () => {
      const ops: LineOp[] = [
        { op: "context", text: "function setup() {" },
        gap,
        { op: "add", text: "  log();" },
        gap,
        { op: "context", text: "function other() {" },
      ];
      expect(noteOf(ops)).toMatch(/^the edit adds lines between elided lines/);
    });

    it("an edge elision with no added line beside it still applies", () => {
      const ops: LineOp[] = [
        { op: "context", text: "function setup() {" },
        { op: "remove", text: "  const a = 1;" },
        { op: "add", text: "  const a = 10;" },
        gap,
      ];
      const applied = applyOps(file, ops);
      expect(applied).toMatchObject({ ok: true, result: { match: { strategy: "elision" } } });
      expect(applied.ok && applied.after).toBe(file.replace("const a = 1;", "const a = 10;"));
    });

    it("added lines before a trailing elision are placed by the quoted line above them", () => {
      const ops: LineOp[] = [{ op: "context", text: "  const a = 1;" }, { op: "add", text: "  log();" }, gap];
      const applied = applyOps(file, ops);
      expect(applied.ok && applied.after).toBe(file.replace("  const a = 1;\n", "  const a = 1;\n  log();\n"));
    });
  });
});
