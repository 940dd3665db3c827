import { describe, expect, it } from "vitest";
import { LineDoc } from "../../../src/core/lines/doc.js";
import { parseText, type TextFile } from "../../../src/core/text.js";
import { cached, isCached, lineKeys } from "../../../src/core/file-memo.js";
import { looseKeys, looseSignature, looseSignatures } from "../../../src/matcher/rungs/unicode.js";
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

  it("carries a slot to the next version, so a later version knows it holds the keys without computing them", () => {
    let doc = LineDoc.fromText("a\n  b\nc\n");
    expect(isCached(doc.file, "key:unicode")).toBe(false);
    looseKeys(doc.file);
    expect(isCached(doc.file, "key:unicode")).toBe(true);
    doc = doc.splice(1, 2, ["  B  ", "d"], ["\n", "\n"]);
    expect(isCached(doc.file, "key:unicode")).toBe(true);
    expect(looseKeys(doc.file)).toEqual(["a", "B", "d", "c"]);
  });

  it("keeps loose signatures equal to those of the keys computed afresh, across versions", () => {
    let doc = LineDoc.fromText("x = 1\n\u201cq\u201d\n  y\n");
    looseSignatures(doc.file);
    doc = doc.splice(0, 1, ["  x = 2", "z"], ["\n", "\n"]);
    const fresh = parseText(doc.text);
    expect(looseSignatures(doc.file).lines).toEqual(looseKeys(fresh).map(looseSignature));
  });
});
