import { describe, expect, it } from "vitest";
import type { EditHint, LineOp } from "../../../src/core/edit.js";
import { parseText } from "../../../src/core/text.js";
import { locate } from "../../../src/matcher/ladder.js";
import type { LocateOptions } from "../../../src/matcher/types.js";
import { applyOps, lines, searchReplace } from "./helpers.js";

const twice = lines("def a():", "    return 0", "", "def b():", "    return 0", "");
const ops = searchReplace("    return 0", "    return 1");
const at = (hint: EditHint, options: LocateOptions = {}, content = twice, edit: LineOp[] = ops) =>
  locate(parseText(content), { ops: edit, hint }, options);

describe("hints break ties", () => {
  it("a udiff line number selects one of two candidates", () => {
    expect(at({ line: 5 })).toMatchObject({ kind: "found", match: { start: 4 } });
    expect(at({ line: 2 })).toMatchObject({ kind: "found", match: { start: 1 } });
  });

  it("a wrong line number selects none: ambiguous", () => {
    expect(at({ line: 3 })).toEqual({ kind: "ambiguous", strategy: "exact", lines: [2, 5] });
  });

  it("the hint offset shifts an original line number to the current file", () => {
    expect(at({ line: 3 }, { hintOffset: 2 })).toMatchObject({ kind: "found", match: { start: 4 } });
  });

  it("a line number never makes a single loose candidate ambiguous or a non-match match", () => {
    expect(at({ line: 99 }, {}, lines("x", "    return 0"))).toMatchObject({ kind: "found", match: { start: 1 } });
    expect(at({ line: 1 }, {}, lines("x", "y")).kind).toBe("not-found");
  });

  it("anchors select the first candidate after the anchor chain", () => {
    expect(at({ anchors: ["def b():"] })).toMatchObject({ kind: "found", match: { start: 4 } });
    expect(at({ anchors: ["def a():"] })).toMatchObject({ kind: "found", match: { start: 1 } });
  });

  it("nested anchors resolve in order and match loosely", () => {
    const file = lines("class A:", "  def f():", "    go()", "class B:", "  def f():", "    go()");
    const edit = searchReplace("go()", "stop()");
    expect(at({ anchors: ["class B:", "def f():"] }, {}, file, edit)).toMatchObject({ match: { start: 5 } });
    expect(at({ anchors: ["class A:", "  def f():  "] }, {}, file, edit)).toMatchObject({ match: { start: 2 } });
  });

  it("an anchor that occurs twice selects two candidates: ambiguous", () => {
    const file = lines("def f():", "    go()", "def f():", "    go()");
    expect(at({ anchors: ["def f():"] }, {}, file, searchReplace("go()", "x()")).kind).toBe("ambiguous");
  });

  it("a SEARCH starting with its anchor line is selected at the anchor", () => {
    const file = lines("class A:", "  def f():", "    go()", "class B:", "  def f():", "    go()");
    const result = at({ anchors: ["class B:", "def f():"] }, {}, file, searchReplace("  def f():\n    go()", "x"));
    expect(result).toMatchObject({ kind: "found", match: { start: 4 } });
  });

  it("End of File selects the candidate ending at the last line", () => {
    expect(at({ atEndOfFile: true }, {}, lines("x", "y", "x"), searchReplace("x", "z"))).toMatchObject({
      match: { start: 2 },
    });
  });

  it("hints must all agree", () => {
    expect(at({ line: 2, anchors: ["def b():"] }).kind).toBe("ambiguous");
    expect(at({ line: 5, anchors: ["def b():"] })).toMatchObject({ kind: "found", match: { start: 4 } });
  });
});

describe("pure insertions", () => {
  const add: LineOp[] = [{ op: "add", text: "    extra()" }];

  it("go right after the last anchor line", () => {
    const file = lines("class A:", "  def f():", "    go()", "class B:", "  def f():", "    go()");
    const applied = applyOps(file, add, { anchors: ["class B:", "def f():"] });
    expect(applied).toMatchObject({
      ok: true,
      after: lines("class A:", "  def f():", "    go()", "class B:", "  def f():", "    extra()", "    go()"),
    });
  });

  it("refuse anchors that resolve to two places or to none", () => {
    const file = lines("def f():", "    go()", "def f():", "    go()");
    expect(applyOps(file, add, { anchors: ["def f():"] })).toMatchObject({
      ok: false,
      result: { kind: "ambiguous", lines: [1, 3] },
    });
    const missing = applyOps(file, add, { anchors: ["def nothing():"] });
    expect(missing).toMatchObject({ ok: false, result: { kind: "not-found" } });
  });

  it("go at the end with End of File, and at 0 in an empty file", () => {
    expect(applyOps(lines("a"), add, { atEndOfFile: true })).toMatchObject({ after: lines("a", "    extra()") });
    expect(applyOps("", [{ op: "add", text: "x" }])).toMatchObject({ ok: true, after: "x\n" });
  });

  it("are refused without context, with a note asking for surrounding lines", () => {
    const applied = applyOps(lines("a", "b"), add);
    expect(applied.ok).toBe(false);
    if (!applied.ok && applied.result.kind === "not-found") {
      expect(applied.result.note).toMatch(/2-3 unchanged lines/);
      expect(applied.result.nearest.lines.length).toBeGreaterThan(0);
    } else expect.unreachable("a not-found result");
  });
});
