import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectIndentStyle } from "../../../src/core/indent.js";
import { dominantEol, dominantEolOfText, hasFinalNewline, parseText, serializeText } from "../../../src/core/text.js";

/** Texts made of the characters that matter to line handling. */
const texts = fc
  .array(fc.constantFrom("a", "b", " ", "\t", "\r", "\n", "\r\n", "\uFEFF"))
  .map((parts) => parts.join(""));

describe("parseText / serializeText", () => {
  it("round-trips every text byte for byte", () => {
    fc.assert(
      fc.property(texts, (text) => serializeText(parseText(text)) === text),
      { numRuns: 5000 },
    );
  });

  it("keeps per-line endings, the BOM and a missing final newline apart from the content", () => {
    const file = parseText("\uFEFFone\r\ntwo\nthree");
    expect(file).toEqual({ bom: true, lines: ["one", "two", "three"], eols: ["\r\n", "\n", ""] });
    expect(hasFinalNewline(file)).toBe(false);
    expect(parseText("")).toEqual({ bom: false, lines: [], eols: [] });
    expect(parseText("x\n")).toEqual({ bom: false, lines: ["x"], eols: ["\n"] });
    // A lone \r is content, as git sees it.
    expect(parseText("a\rb\n").lines).toEqual(["a\rb"]);
  });

  it("finds the same dominant ending with or without parsing", () => {
    fc.assert(
      fc.property(texts, (text) => dominantEolOfText(text) === dominantEol(parseText(text))),
      { numRuns: 5000 },
    );
  });
});

describe("detectIndentStyle", () => {
  it("reads tabs, space widths, and nothing from unindented or blank-only text", () => {
    expect(detectIndentStyle(["func f() {", "\tx := 1", "\tif x {", "\t\ty()", "\t}", "}"])).toEqual({ kind: "tabs" });
    expect(detectIndentStyle(["a:", "  b:", "    c: 1", "  d: 2"])).toEqual({ kind: "spaces", width: 2 });
    expect(detectIndentStyle(["def f():", "    if x:", "        y()", "    return 1"])).toEqual({
      kind: "spaces",
      width: 4,
    });
    expect(detectIndentStyle(["a", "b"])).toBeUndefined();
    expect(detectIndentStyle(["  ", "\t", "\u00a0 "])).toBeUndefined();
  });
});
