import { describe, expect, it } from "vitest";
import type { LineOp } from "../../../src/core/edit.js";
import { parseText } from "../../../src/core/text.js";
import { isAlreadyApplied } from "../../../src/matcher/already-applied.js";
import { lines, searchReplace } from "./helpers.js";

const file = parseText(lines("def f():", "    return 2", "", "def g():", "    pass"));

describe("isAlreadyApplied", () => {
  it("is true when the new side is present and the old side is not", () => {
    expect(isAlreadyApplied(file, searchReplace("def f():\n    return 1", "def f():\n    return 2"))).toBe(true);
  });

  it("is false while the old side is still there, even loosely", () => {
    expect(isAlreadyApplied(file, searchReplace("def g():\n  pass", "def g():\n    return 2"))).toBe(false);
  });

  it("is false when the new side is absent", () => {
    expect(isAlreadyApplied(file, searchReplace("def f():\n    return 1", "def f():\n    return 3"))).toBe(false);
  });

  it("requires the new side on a strict rung: re-indented text does not count", () => {
    expect(isAlreadyApplied(file, searchReplace("def f():\n    return 1", "def f():\nreturn 2"))).toBe(false);
  });

  it("handles CRLF files, pure insertions, deletions and elisions", () => {
    const crlf = parseText("a\r\nb\r\nc\r\n");
    expect(isAlreadyApplied(crlf, searchReplace("a\nx\nc", "a\nb\nc"))).toBe(true);
    expect(isAlreadyApplied(crlf, [{ op: "add", text: "b" }])).toBe(true);
    expect(isAlreadyApplied(crlf, searchReplace("x", ""))).toBe(false);
    const elided: LineOp[] = [
      { op: "context", text: "def f():" },
      { op: "elision", text: "    ..." },
      { op: "remove", text: "    pass" },
      { op: "add", text: "    return 2" },
    ];
    expect(isAlreadyApplied(parseText(lines("def f():", "    x = 1", "    return 2")), elided)).toBe(true);
    // `    pass` is still in the file after def f(), in g(): the old side is present, so no claim is made.
    expect(isAlreadyApplied(file, elided)).toBe(false);
  });

  it("is false for a deletion whose removed lines are still where they were", () => {
    // The reviewer's c23: SEARCH a,b,c,d → a on a file of a,b. `a = 1` is there, but so is `b = 2` right after it.
    const ab = parseText(lines("a = 1", "b = 2"));
    expect(isAlreadyApplied(ab, searchReplace("a = 1\nb = 2\nc = 3\nd = 4", "a = 1"))).toBe(false);
    expect(isAlreadyApplied(ab, searchReplace("x = 0\nb = 2", "b = 2"))).toBe(true);
    expect(isAlreadyApplied(parseText(lines("x = 0", "b = 2")), searchReplace("x = 0\nb = 2", "b = 2"))).toBe(false);
    // Applied: the removed line is gone from beside its context.
    expect(isAlreadyApplied(parseText(lines("a = 1", "e = 5")), searchReplace("a = 1\nb = 2", "a = 1"))).toBe(true);
  });

  it("is false when any place of the new side still has the removed line beside it", () => {
    const twice = parseText(lines("}", "x()", "}", "y()"));
    expect(isAlreadyApplied(twice, searchReplace("}\nx()", "}"))).toBe(false);
    expect(isAlreadyApplied(twice, searchReplace("}\nz()", "}"))).toBe(true);
  });

  it("is false for an edit that changes nothing", () => {
    expect(isAlreadyApplied(file, searchReplace("def f():", "def f():"))).toBe(false);
  });
});
