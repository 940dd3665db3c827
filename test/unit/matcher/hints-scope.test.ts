import { describe, expect, it } from "vitest";
import type { EditHint, LineOp } from "../../../src/core/edit.js";
import { parseText } from "../../../src/core/text.js";
import { anchorBlock } from "../../../src/matcher/hints.js";
import { locate } from "../../../src/matcher/ladder.js";
import { lines, searchReplace } from "./helpers.js";

const at = (content: string, edit: LineOp[], hint: EditHint) => locate(parseText(content), { ops: edit, hint });

// foo has no `return None`; bar and baz both do (the reviewer's c24).
const threeDefs = lines(
  "def foo():",
  "    x = 1",
  "    return x",
  "",
  "",
  "def bar():",
  "    y = 2",
  "    return None",
  "",
  "",
  "def baz():",
  "    z = 3",
  "    return None",
);

describe("an @@ anchor selects only candidates inside its block", () => {
  it("refuses as ambiguous when no candidate is inside the anchored function", () => {
    const result = at(threeDefs, searchReplace("    return None", "    return 0"), { anchors: ["def foo():"] });
    expect(result).toEqual({ kind: "ambiguous", strategy: "exact", lines: [8, 13] });
  });

  it("still selects the candidate inside the anchored function", () => {
    const result = at(threeDefs, searchReplace("    return None", "    return 0"), { anchors: ["def baz():"] });
    expect(result).toMatchObject({ kind: "found", match: { start: 12 } });
  });

  it("keeps a unique candidate applying whatever the anchor says: hints only break ties", () => {
    const result = at(threeDefs, searchReplace("    y = 2", "    y = 3"), { anchors: ["def foo():"] });
    expect(result).toMatchObject({ kind: "found", match: { start: 6 } });
  });

  it("ends a brace block at the closing brace on the anchor's level", () => {
    const file = lines("class A {", "  m() {}", "}", "class B {", "  run();", "}", "class C {", "  run();", "}");
    const edit = searchReplace("  run();", "  stop();");
    expect(at(file, edit, { anchors: ["class A {"] }).kind).toBe("ambiguous");
    expect(at(file, edit, { anchors: ["class C {"] })).toMatchObject({ kind: "found", match: { start: 7 } });
  });

  it("ends a nested anchor's block at its sibling, not at the end of the class", () => {
    const file = lines(
      "class A:",
      "  def f(self):",
      "    pass",
      "  def g(self):",
      "    go()",
      "  def h(self):",
      "    go()",
    );
    const edit = searchReplace("    go()", "    stop()");
    expect(at(file, edit, { anchors: ["class A:", "def f(self):"] }).kind).toBe("ambiguous");
    expect(at(file, edit, { anchors: ["class A:", "def h(self):"] })).toMatchObject({ match: { start: 6 } });
  });
});

describe("anchorBlock", () => {
  it("runs to the next line indented at or above the anchor, over blank and deeper lines", () => {
    expect(anchorBlock(parseText(threeDefs), 0)).toEqual({ start: 1, end: 5 });
    expect(anchorBlock(parseText(threeDefs), 10)).toEqual({ start: 11, end: 13 });
  });

  it("reads a wrapped header to the line closing its brackets", () => {
    const file = parseText(lines("def f(", "    a,", "):", "    go()", "def g():", "    go()"));
    expect(anchorBlock(file, 0)).toEqual({ start: 3, end: 4 });
  });

  it("is empty for an anchor that opens no block", () => {
    expect(anchorBlock(parseText(lines("    a = 1", "    b = 2")), 0)).toEqual({ start: 1, end: 1 });
  });
});

describe("an @@ anchor on a loose rung", () => {
  // Three `});` in the anchored function, at two depths (drift seed 23, case 628).
  const nested = lines(
    "async function play(stream) {",
    "  return new Promise((resolve) => {",
    "    stream.on('end', () => {",
    "      done();",
    "      });",
    "    stream.on('error', () => {",
    "      fail();",
    "      });",
    "  });",
    "}",
  );
  const remove: LineOp[] = [{ op: "remove", text: "});" }];

  it("refuses when the candidates in its block differ in what the model got wrong (their depth)", () => {
    const result = at(nested, remove, { anchors: ["async function play(stream) {"] });
    expect(result).toEqual({ kind: "ambiguous", strategy: "indentation", lines: [5, 8, 9] });
  });

  it("refuses too when the candidates in its block read the same: the anchor does not tell them apart", () => {
    const same = lines("function f() {", "  a();", "  x;", "  b();", "  x;", "}");
    const result = at(same, [{ op: "remove", text: "x;" }], { anchors: ["function f() {"] });
    expect(result).toEqual({ kind: "ambiguous", strategy: "indentation", lines: [3, 5] });
  });

  it("picks the one candidate in its block when others lie outside it", () => {
    const two = lines("function f() {", "  a();", "  x;", "}", "function g() {", "  x;", "}");
    const result = at(two, [{ op: "remove", text: "x;" }], { anchors: ["function g() {"] });
    expect(result).toMatchObject({ kind: "found", match: { start: 5, strategy: "indentation" } });
  });

  it("lets a line number that points at a candidate decide", () => {
    const result = at(nested, remove, { line: 9 });
    expect(result).toMatchObject({ kind: "found", match: { start: 8, strategy: "indentation" } });
  });
});
