import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineDoc } from "../../../src/core/line-doc.js";
import { parseText } from "../../../src/core/text.js";
import { exactWindows } from "../../../src/matcher/exact-doc.js";
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
