import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectIndentKind } from "../../../src/core/indent.js";
import { LineDoc } from "../../../src/core/lines/doc.js";
import { LineIndex, scanPositions } from "../../../src/core/lines/index.js";
import { ProbeSet, batchPositions } from "../../../src/core/lines/probes.js";
import { LineTable } from "../../../src/core/lines/table.js";
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

/** The plain answer: every index whose line equals `probe`. */
const positionsIn = (lines: readonly string[], probe: string): number[] =>
  lines.flatMap((line, i) => (line === probe ? [i] : []));

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
        // Announced lookups are found while the lines are read or by one more pass, the others by a scan or the
        // index: same answers.
        let doc = announce ? LineDoc.fromText(content, ["a", "a\r"]) : LineDoc.fromText(content);
        if (announce) doc.expect(["x", "a"]);
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
            expect(doc.occurrences(probe)).toEqual(positionsIn(file.lines, probe));
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

  it("reads a document's first lines as their own file, the same object each time", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 40 }), (content, count) => {
        const doc = LineDoc.fromText(content);
        const parsed = parseText(content);
        const head = doc.originHead(count);
        expect(head).toEqual({
          bom: parsed.bom,
          lines: parsed.lines.slice(0, count),
          eols: parsed.eols.slice(0, count),
        });
        expect(doc.originHead(count)).toBe(head);
      }),
    );
  });
});

describe("LineDoc.originIndentKind", () => {
  it("equals detectIndentKind of the parsed head", () => {
    const lines = fc.array(fc.constantFrom("x", "  x", "    y", "\tz", " * doc", "   ", "", "\t", "  \u00a0"), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        lines,
        fc.constantFrom("\n", "\r\n"),
        fc.boolean(),
        fc.integer({ min: 0, max: 14 }),
        (ls, eol, bom, n) => {
          const content = (bom ? "\uFEFF" : "") + ls.map((l) => l + eol).join("");
          const doc = LineDoc.fromText(content);
          expect(doc.originIndentKind(n)).toBe(detectIndentKind(parseText(content).lines.slice(0, n)));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("LineTable", () => {
  /** Any text: lone CRs, CRLF, CR before CRLF, BOMs, with or without a final newline. */
  const anyText = fc
    .array(fc.constantFrom("a", "bc", "\r", "\n", "\r\n", "\uFEFF", " ", "é"), { maxLength: 24 })
    .map((parts) => parts.join(""));

  it("reads the same lines and endings as parseText, in place", () => {
    fc.assert(
      fc.property(anyText, (content) => {
        const table = new LineTable(content);
        const parsed = parseText(content);
        expect(table.length).toBe(parsed.lines.length);
        for (let i = 0; i < table.length; i++) {
          expect(table.line(i)).toBe(parsed.lines[i]);
          expect(table.eol(i)).toBe(parsed.eols[i]);
          expect(table.equals(i, parsed.lines[i]!)).toBe(true);
          expect(table.equals(i, parsed.lines[i]! + "a")).toBe(false);
        }
        expect(table.eolCounts(0, table.length)).toEqual({
          crlf: parsed.eols.filter((e) => e === "\r\n").length,
          lf: parsed.eols.filter((e) => e === "\n").length,
        });
        // Every line's text and ending, BOM first, give the text back.
        expect(table.start(table.length)).toBe(content.length);
        expect(serializeText(parsed)).toBe(content);
      }),
      { numRuns: 500 },
    );
  });
});

describe("LineIndex", () => {
  it("finds exactly the lines a scan finds, in ascending order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("", "a", "ab", "ba", "abc", "cba", "a\r", "x".repeat(40), "y".repeat(40))),
        fc.constantFrom("\n", "\r\n"),
        fc.string({ maxLength: 4 }),
        fc.boolean(),
        (lines, eol, extra, cut) => {
          const joined = lines.map((l) => l + eol).join("");
          const table = new LineTable(cut ? joined.slice(0, -eol.length) : joined);
          const parsed = parseText(table.text).lines;
          const index = new LineIndex(table);
          const probes = [...new Set(parsed), extra, "a\r"];
          const batch = batchPositions(table, probes);
          const probeSet = new ProbeSet(probes);
          expect(new LineTable(table.text, probeSet).length).toBe(table.length);
          for (const probe of probes) {
            const expected = positionsIn(parsed, probe);
            expect(scanPositions(table, probe)).toEqual(expected);
            expect(index.positions(probe)).toEqual(expected);
            expect(batch.get(probe)).toEqual(expected);
            expect(probeSet.found.get(probe)).toEqual(expected);
          }
        },
      ),
    );
  });
});
