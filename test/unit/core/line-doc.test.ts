import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineDoc } from "../../../src/core/line-doc.js";
import { LineIndex, batchPositions, scanPositions } from "../../../src/core/line-index.js";
import {
  dominantEol,
  hasFinalNewline,
  parseText,
  serializeText,
  type Eol,
  type TextFile,
} from "../../../src/core/text.js";

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
      fc.property(text, fc.array(edit, { maxLength: 6 }), fc.boolean(), (content, edits, announce) => {
        const origin = parseText(content);
        const model: Model = { lines: [...origin.lines], eols: [...origin.eols] };
        const versions: { doc: LineDoc; expected: string; file: TextFile }[] = [];
        let doc = LineDoc.fromText(content);
        // Announced lookups are found by one batch pass, the others by a scan or the index: same answers.
        if (announce) doc.expect(["a", "x"]);
        versions.push({ doc, expected: content, file: origin });
        for (const e of edits) {
          doc = apply(doc, model, e);
          const file = { bom: origin.bom, lines: [...model.lines], eols: [...model.eols] };
          versions.push({ doc, expected: serializeText(file), file });
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
        // Earlier versions are untouched by later splices, read in any order (each rebuilds from its successor).
        for (const v of [...versions].reverse()) expect(v.doc.file).toEqual(v.file);
        for (const v of versions) expect(v.doc.text).toBe(v.expected);
        // An old version can be edited again; the newest one is unaffected.
        const newest = versions[versions.length - 1]!;
        const old = versions[0]!;
        const branch = old.doc.splice(0, Math.min(1, old.doc.length), ["branch"], ["\n"]);
        const oldFile = old.file;
        const expected = serializeText({
          bom: oldFile.bom,
          lines: ["branch", ...oldFile.lines.slice(1)],
          eols: ["\n", ...oldFile.eols.slice(1)],
        });
        expect(branch.text).toBe(expected);
        expect(old.doc.text).toBe(old.expected);
        expect(newest.doc.file).toEqual(newest.file);
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
          const probes = [...new Set(lines), extra];
          const batch = batchPositions(lines, probes);
          for (const probe of probes) {
            expect(index.positions(probe)).toEqual(scanPositions(lines, probe));
            expect(batch.get(probe)).toEqual(scanPositions(lines, probe));
          }
        },
      ),
    );
  });
});
