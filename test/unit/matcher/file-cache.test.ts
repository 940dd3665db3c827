import { describe, expect, it } from "vitest";
import { parseText } from "../../../src/core/text.js";
import { cached } from "../../../src/matcher/file-cache.js";
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
