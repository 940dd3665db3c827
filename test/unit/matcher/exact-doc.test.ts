import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineDoc } from "../../../src/core/lines/doc.js";
import { parseText } from "../../../src/core/text.js";
import { exactWindows, soleLineWindow } from "../../../src/matcher/exact-doc.js";
import { exactRung } from "../../../src/matcher/rungs/exact.js";
import { findWindows } from "../../../src/matcher/windows.js";

const line = fc.constantFrom("a", "b", "a\r", "", "  a");
const ending = fc.constantFrom("\n", "\r\n");

describe("exactWindows", () => {
  it("finds the windows of the exact rung, on the origin and after splices", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(line, ending), { maxLength: 25 }),
        fc.array(fc.constantFrom("a", "b", "a\r", "", "  a", "b\r"), { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.nat(30), fc.nat(3), fc.array(line, { maxLength: 3 })), { maxLength: 3 }),
        (pairs, want, splices) => {
          let doc = LineDoc.fromText(pairs.map(([l, e]) => l + e).join(""));
          const check = (): void => {
            const file = parseText(doc.text);
            expect(exactWindows(doc, want)).toEqual(findWindows(exactRung.fileKeys(file), want));
          };
          check();
          for (const [at, count, lines] of splices) {
            const start = Math.min(at, doc.length);
            const end = Math.min(start + count, doc.length);
            doc = doc.splice(
              start,
              end,
              lines,
              lines.map(() => "\n"),
            );
            check();
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("soleLineWindow", () => {
  const doc = (text: string): LineDoc => LineDoc.fromText(text);

  it("takes the single exact window of an LF file", () => {
    expect(soleLineWindow(doc("a\nb\nc\n"), ["b", "c"])).toEqual({ start: 1, strategy: "exact" });
    expect(soleLineWindow(doc("a\nb\na\nb\n"), ["a", "b"])).toBeUndefined();
  });

  it("finds LF model text in a CRLF file on the line-endings rung", () => {
    expect(soleLineWindow(doc("a\r\nb\r\nc\r\n"), ["b", "c"])).toEqual({ start: 1, strategy: "line-endings" });
    expect(soleLineWindow(doc("a\r\nb\r\na\r\nb\r\n"), ["a", "b"])).toBeUndefined();
  });

  it("does not let an unterminated last line hide the same text on CRLF lines", () => {
    // Exactly, "x" matches only the last line (it has no ending); the ladder must see both.
    expect(soleLineWindow(doc("x\r\ny\r\nx"), ["x"])).toBeUndefined();
  });

  it("leaves lines that end with a CR of their own to the ladder", () => {
    expect(soleLineWindow(doc("a\r\r\nb\r\n"), ["b"])).toBeUndefined();
    expect(soleLineWindow(doc("a\r\r\nb\r\n"), ["x"])).toBeUndefined();
  });

  it("says when neither rung has any window, so that the ladder starts at the third", () => {
    expect(soleLineWindow(doc("a\nb\n"), ["b  "])).toEqual({ start: undefined });
    expect(soleLineWindow(doc("a\r\nb\r\n"), ["x"])).toEqual({ start: undefined });
  });

  it("leaves a single window to the ladder when another holds the lines once trailing whitespace is ignored", () => {
    // The ladder then sees both (rungs/trailing-whitespace.ts).
    expect(soleLineWindow(doc("a\nb\na \nb\n"), ["a", "b"])).toBeUndefined();
    expect(soleLineWindow(doc("a\nb\na\u00a0\nb\n"), ["a", "b"])).toBeUndefined();
    const edited = doc("a\nb\nx\nb\n").splice(2, 3, ["a\t"], ["\n"]);
    expect(soleLineWindow(edited, ["a", "b"])).toBeUndefined();
    // A model line with trailing whitespace, and the document has its text without it elsewhere.
    expect(soleLineWindow(doc("a \nb\na\nb\n"), ["a ", "b"])).toBeUndefined();
    expect(soleLineWindow(doc("a \nb\nc\nb\n"), ["a ", "b"])).toEqual({ start: 0, strategy: "exact" });
    // Lines ending with whitespace that form no other window leave the single window to this step.
    expect(soleLineWindow(doc("a\nb\nc \nb \n"), ["a", "b"])).toEqual({ start: 0, strategy: "exact" });
  });
});
