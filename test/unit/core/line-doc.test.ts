import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineDoc } from "../../../src/core/line-doc.js";
import { LineIndex, scanPositions } from "../../../src/core/line-index.js";
import { dominantEol, hasFinalNewline, parseText, serializeText, type Eol } from "../../../src/core/text.js";

/** Texts made of few distinct lines (so lookups find several), any endings, sometimes a BOM or no final newline. */
const text = fc
  .array(fc.tuple(fc.constantFrom("a", "b", "  c", "", "\td", "a\r", "é…"), fc.constantFrom("\n", "\r\n")), {
    maxLength: 30,
  })
  .chain((lines) =>
    fc.tuple(fc.boolean(), fc.boolean()).map(([bom, cut]) => {
      const body = lines.map(([l, e]) => l + e).join("");
      return (bom ? "\uFEFF" : "") + (cut && body.endsWith("\n") ? body.replace(/\r?\n$/, "") : body);
    }),
  );

/** A splice as [start, end) fractions of the current length plus new lines with endings. */
const edit = fc.tuple(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.array(fc.tuple(fc.constantFrom("a", "x", "", "  c"), fc.constantFrom<Eol>("\n", "\r\n", "")), { maxLength: 4 }),
);

interface Model {
  lines: string[];
  eols: Eol[];
}

function apply(doc: LineDoc, model: Model, [p, q, added]: [number, number, [string, Eol][]]): LineDoc {
  const n = model.lines.length;
  const a = Math.min(n, Math.floor(p * (n + 1)));
  const b = Math.min(n, Math.floor(q * (n + 1)));
  const [start, end] = a <= b ? [a, b] : [b, a];
  const lines = added.map(([l]) => l);
  const eols = added.map(([, e]) => e);
  model.lines.splice(start, end - start, ...lines);
  model.eols.splice(start, end - start, ...eols);
  return doc.splice(start, end, lines, eols);
}

describe("LineDoc", () => {
  it("reads, serialises and counts like the same edits done on plain arrays", () => {
    fc.assert(
      fc.property(text, fc.array(edit, { maxLength: 6 }), (content, edits) => {
        const origin = parseText(content);
        const model: Model = { lines: [...origin.lines], eols: [...origin.eols] };
        const versions: { doc: LineDoc; expected: string }[] = [];
        let doc = LineDoc.fromText(content);
        versions.push({ doc, expected: content });
        for (const e of edits) {
          doc = apply(doc, model, e);
          const file = { bom: origin.bom, lines: [...model.lines], eols: [...model.eols] };
          versions.push({ doc, expected: serializeText(file) });
          expect(doc.length).toBe(file.lines.length);
          for (let i = 0; i < file.lines.length; i++) {
            expect(doc.line(i)).toBe(file.lines[i]);
            expect(doc.eol(i)).toBe(file.eols[i]);
          }
          expect(doc.file).toEqual(file);
          expect(doc.dominantEol()).toBe(dominantEol(file));
          expect(doc.hasFinalNewline()).toBe(hasFinalNewline(file));
          for (const probe of ["a", "", "x", "a\r", "  c"]) {
            expect(doc.occurrences(probe)).toEqual(scanPositions(file.lines, probe));
          }
        }
        // Earlier versions are untouched by later splices.
        for (const v of versions) expect(v.doc.text).toBe(v.expected);
      }),
      { numRuns: 400 },
    );
  });

  it("serialises a version built from a parsed file (no origin text) the same way", () => {
    fc.assert(
      fc.property(text, edit, (content, e) => {
        const origin = parseText(content);
        const model: Model = { lines: [...origin.lines], eols: [...origin.eols] };
        const doc = apply(LineDoc.fromFile(origin), model, e);
        expect(doc.text).toBe(serializeText({ bom: origin.bom, lines: model.lines, eols: model.eols }));
      }),
    );
  });
});

describe("LineIndex", () => {
  it("finds exactly the lines a scan finds, in ascending order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("", "a", "ab", "ba", "abc", "cba", "x".repeat(40), "y".repeat(40))),
        fc.string({ maxLength: 4 }),
        (lines, extra) => {
          const index = new LineIndex(lines);
          for (const probe of [...new Set(lines), extra]) {
            expect(index.positions(probe)).toEqual(scanPositions(lines, probe));
          }
        },
      ),
    );
  });
});
