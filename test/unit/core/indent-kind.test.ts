import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectIndentKind, detectIndentStyle } from "../../../src/core/indent.js";

const line = fc
  .tuple(
    fc.constantFrom("", " ", "  ", "    ", "\t", "\t\t", " \t", "\t "),
    fc.constantFrom("", "x", "* c", " ", "\u00a0", "y z"),
  )
  .map(([ws, rest]) => ws + rest);

describe("detectIndentKind", () => {
  it("is the kind detectIndentStyle finds", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        expect(detectIndentKind(lines)).toBe(detectIndentStyle(lines)?.kind);
      }),
      { numRuns: 3000 },
    );
  });
});
