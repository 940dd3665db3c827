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

  const header = ["/**", ...Array.from({ length: 12 }, (_, i) => ` * line ${String(i)} of the licence`), " */"];

  it("ignores block-comment continuation lines: a long JSDoc header does not outvote tab-indented code", () => {
    const tabbed = [...header, "function f() {", "\tconst o = {", "\t\ta: 1,", "\t};", "\treturn o;", "}"];
    expect(detectIndentStyle(tabbed)).toEqual({ kind: "tabs" });
    // Inside a tab-indented class the continuation lines start with a tab and a space: still not a unit.
    const nested = ["class A {", "\t/**", "\t * doc", "\t */", "\tm() {", "\t\treturn 1;", "\t}", "}"];
    expect(detectIndentStyle(nested)).toEqual({ kind: "tabs" });
    // Only comment lines indented: nothing to decide from.
    expect(detectIndentStyle([...header, "export const a = 1;"])).toBeUndefined();
  });

  it("never reads a single-space step as the unit", () => {
    const spaced = [...header, "class A {", "  /**", "   * doc", "   */", "  m() {", "    return 1;", "  }", "}"];
    expect(detectIndentStyle(spaced)).toEqual({ kind: "spaces", width: 2 });
    // An odd alignment line next to 4-space code: its two 1-column steps outnumber neither unit step.
    const aligned = ["def f():", "    x = 1", "     # odd", "    if x:", "        y()"];
    expect(detectIndentStyle(aligned)).toEqual({ kind: "spaces", width: 4 });
  });

  it("does not count the step from column 0 to a snippet's deep first line", () => {
    // A 2-space snippet that starts 6 columns deep with continuation lines (harness case 1:401): the step 0 -> 6
    // and the continuation's 6 -> 12 used to outvote the single real 2-column step.
    const snippet = [
      "      context = {",
      '        log("probe")',
      "        'message': ('An open stream was collected '",
      "              'before the connection; '",
      "              'call close().')",
      "      }",
      "      if self._source_traceback:",
    ];
    expect(detectIndentStyle(snippet)).toEqual({ kind: "spaces", width: 2 });
    expect(detectIndentStyle(["            x = 1", "            if y:", "                z()"])).toEqual({
      kind: "spaces",
      width: 4,
    });
  });

  it("falls back to the shallowest depth when no step is seen (flat snippets)", () => {
    expect(detectIndentStyle(["  a", "  b"])).toEqual({ kind: "spaces", width: 2 });
    expect(detectIndentStyle(["    a", "    b"])).toEqual({ kind: "spaces", width: 4 });
    expect(detectIndentStyle(["      a", "      b"])).toEqual({ kind: "spaces", width: 2 });
    expect(detectIndentStyle(["        a"])).toEqual({ kind: "spaces", width: 4 });
  });

  it("decides tabs against spaces by code lines (a Makefile's space-aligned continuations)", () => {
    const makefile = ["build:", "\t$(MAKE) -C a \\", "                target", "install:", "\tcp a b", "\tcp c d"];
    expect(detectIndentStyle(makefile)).toEqual({ kind: "tabs" });
  });
});
