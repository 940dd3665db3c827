import { describe, expect, it } from "vitest";
import { LineDoc } from "../../../src/core/lines/doc.js";
import { parseText, type TextFile } from "../../../src/core/text.js";
import { cached, isCached, lineKeys, lineRecords } from "../../../src/core/file-memo.js";
import { looseKeys, looseSignatures } from "../../../src/matcher/rungs/unicode.js";
import { fileIndentStyle, inheritIndentStyle } from "../../../src/matcher/indent-structure.js";

describe("cached", () => {
  it("computes a slot once per file, invisibly to the file's keys and JSON", () => {
    const file = parseText("a\nb\n");
    let runs = 0;
    const compute = (): number => ++runs;
    expect(cached(file, "n", compute)).toBe(1);
    expect(cached(file, "n", compute)).toBe(1);
    expect(cached(parseText("a\nb\n"), "n", compute)).toBe(2);
    expect(Object.keys(file)).toEqual(["bom", "lines", "eols"]);
    expect(JSON.parse(JSON.stringify(file))).toEqual({ bom: false, lines: ["a", "b"], eols: ["\n", "\n"] });
  });

  it("still answers for a frozen file, computing each time", () => {
    const file = Object.freeze(parseText("x\n"));
    let runs = 0;
    expect(cached(file, "n", () => ++runs)).toBe(1);
    expect(cached(file, "n", () => ++runs)).toBe(2);
  });
});

describe("inheritIndentStyle", () => {
  it("gives a later version the style of the first one, through any number of versions", () => {
    const first = parseText("a:\n\tb\n\tc\n");
    const second = parseText("a:\n    b\n    c\n    d\n");
    const third = parseText("x\n");
    inheritIndentStyle(first, second);
    inheritIndentStyle(second, third);
    expect(fileIndentStyle(third)).toEqual({ kind: "tabs" });
    expect(fileIndentStyle(second)).toEqual({ kind: "tabs" });
  });
});

/** Each line's number is its key's (as `sign` gives it), and two lines share a number exactly when they share a key. */
function expectSignedLikeKeys(doc: LineDoc): void {
  const keys = looseKeys(parseText(doc.text));
  const { lines, sign, positions } = looseSignatures(doc.file);
  keys.forEach((key, i) => {
    expect(lines[i]).toBe(sign(key));
    keys.forEach((other, j) => {
      expect(lines[i] === lines[j]).toBe(key === other);
    });
    // The index carried from version to version names the lines a scan finds.
    expect(positions?.lines(sign(key))).toEqual(keys.flatMap((other, j) => (other === key ? [j] : [])));
  });
}

describe("line keys across versions of a file", () => {
  it("splices the previous version's keys and equals keys computed afresh, after many edits", () => {
    const keyOf = (f: TextFile, i: number): string => `${f.lines[i]!.trim()}|${f.eols[i]!}`;
    let doc = LineDoc.fromText(Array.from({ length: 200 }, (_, i) => `  line ${String(i)}  `).join("\r\n") + "\n");
    lineKeys(doc.file, "test:trimmed", keyOf);
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let edit = 0; edit < 40; edit++) {
      const start = next(doc.length);
      const end = Math.min(doc.length, start + next(4));
      const added = Array.from({ length: next(4) }, (_, k) => ` new ${String(edit)}.${String(k)}`);
      doc = doc.splice(
        start,
        end,
        added,
        added.map(() => "\n"),
      );
      const keys = lineKeys(doc.file, "test:trimmed", keyOf);
      const fresh = parseText(doc.text);
      expect(doc.file.lines).toEqual(fresh.lines);
      expect(doc.file.eols).toEqual(fresh.eols);
      expect(keys).toEqual(fresh.lines.map((_, i) => keyOf(fresh, i)));
    }
  });

  it("carries line records to the next version: the untouched lines' bytes move with them, new lines start zeroed", () => {
    const width = 3;
    const mark = (records: Uint8Array, line: number, text: string): void => {
      records.set([text.length, text.charCodeAt(0), 1], line * width);
    };
    let doc = LineDoc.fromText(Array.from({ length: 60 }, (_, i) => `line ${String(i)}`).join("\n") + "\n");
    // Written for every other line only: records are written when first needed.
    const first = lineRecords(doc.file, "test:records", width);
    doc.file.lines.forEach((line, i) => {
      if (i % 2 === 0) mark(first, i, line);
    });
    let written = doc.file.lines.map((_, i) => i % 2 === 0);
    let seed = 11;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let edit = 0; edit < 40; edit++) {
      const start = next(doc.length);
      const end = Math.min(doc.length, start + next(3));
      // Sometimes as many lines as it removes (the records are then rewritten in place), sometimes not.
      const count = edit % 2 === 0 ? end - start : next(3);
      const added = Array.from({ length: count }, (_, k) => `new ${String(edit)}.${String(k)}`);
      doc = doc.splice(
        start,
        end,
        added,
        added.map(() => "\n"),
      );
      written = [...written.slice(0, start), ...added.map(() => false), ...written.slice(end)];
      const records = lineRecords(doc.file, "test:records", width);
      expect(records.length).toBe(doc.length * width);
      doc.file.lines.forEach((line, i) => {
        const expected = written[i] ? [line.length, line.charCodeAt(0), 1] : [0, 0, 0];
        expect([...records.subarray(i * width, (i + 1) * width)]).toEqual(expected);
      });
      // The next version's caller writes a new line's record when it needs it.
      if (added.length > 0) {
        mark(records, start, added[0]!);
        written[start] = true;
      }
    }
  });

  it("carries a slot to the next version, so a later version knows it holds the keys without computing them", () => {
    let doc = LineDoc.fromText("a\n  b\nc\n");
    expect(isCached(doc.file, "key:unicode")).toBe(false);
    looseKeys(doc.file);
    expect(isCached(doc.file, "key:unicode")).toBe(true);
    doc = doc.splice(1, 2, ["  B  ", "d"], ["\n", "\n"]);
    expect(isCached(doc.file, "key:unicode")).toBe(true);
    expect(looseKeys(doc.file)).toEqual(["a", "B", "d", "c"]);
  });

  it("signs loose keys alike in every version: equal keys alike, these other keys not, an absent key on no line", () => {
    let doc = LineDoc.fromText("x = 1\n\u201cq\u201d\n  y\nx  =  1\n");
    const first = looseSignatures(doc.file);
    expect(first.lines[0]).toBe(first.lines[3]);
    for (let edit = 0; edit < 6; edit++) {
      doc = doc.splice(0, 1, [`  x = ${String(edit % 3)}`, '"q"', "z"], ["\n", "\n", "\n"]);
      expectSignedLikeKeys(doc);
    }
    const { sign, positions } = looseSignatures(doc.file);
    expect(positions?.lines(sign("never in the file"))).toEqual([]);
  });

  it("numbers each file's keys by its own count, when versions of two files are made in turn", () => {
    let a = LineDoc.fromText("alpha\nbeta\n");
    let b = LineDoc.fromText("one\ntwo\nthree\nfour\n");
    looseSignatures(a.file);
    looseSignatures(b.file);
    for (let edit = 0; edit < 3; edit++) {
      a = a.splice(0, 0, ["beta", "gamma"], ["\n", "\n"]);
      looseSignatures(b.file);
      b = b.splice(0, 1, ["two"], ["\n"]);
      expectSignedLikeKeys(a);
      expectSignedLikeKeys(b);
    }
  });
});
