import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseText } from "../../../src/core/text.js";
import { findNearestLines } from "../../../src/matcher/nearest-lines.js";
import { lines } from "./helpers.js";

const source = lines(
  "import { load } from './load.js';",
  "",
  "export function parseConfig(text) {",
  "  const raw = load(text);",
  "  if (!raw.version) throw new Error('no version');",
  "  return normalise(raw);",
  "}",
  "",
  "function normalise(raw) {",
  "  return { ...raw, version: Number(raw.version) };",
  "}",
);

describe("findNearestLines", () => {
  it("quotes the most similar window with a little context", () => {
    const nearest = findNearestLines(parseText(source), [
      "export function parseConfig(text) {",
      "  const raw = load(txt);",
      "  if (!raw.version) throw new Error('missing version');",
    ]);
    expect(nearest.why).toBe("similar");
    expect(nearest.similarity).toBeGreaterThan(0.8);
    expect(nearest.lines).toContain("export function parseConfig(text) {");
    expect(nearest.startLine).toBe(1);
    expect(nearest.fileLines).toBe(11);
  });

  it("scores a SEARCH longer than the file against all of it, not against its first lines", () => {
    const nearest = findNearestLines(parseText(lines("a = 1", "b = 2")), ["a = 1", "b = 2", "c = 3"]);
    expect(nearest.why).toBe("similar");
    expect(nearest.lines).toEqual(["a = 1", "b = 2"]);
    // "a = 1\nb = 2" is 11 of the 17 characters of the wanted text, the missing line costing 6 edits.
    expect(nearest.similarity).toBeCloseTo(11 / 17, 5);
  });

  it("falls back to the line sharing the rarest identifiers", () => {
    const nearest = findNearestLines(parseText(source), ["const value = Number(settings.version) + offset;"]);
    expect(nearest.why).toBe("shared-words");
    expect(nearest.lines).toContain("  return { ...raw, version: Number(raw.version) };");
  });

  it("falls back to the file's first lines when nothing is shared", () => {
    const nearest = findNearestLines(parseText(source), ["zzz qqq"]);
    expect(nearest).toMatchObject({ why: "file-start", startLine: 1 });
    expect(nearest.lines).toEqual(parseText(source).lines.slice(0, 10));
  });

  it("an empty file has nothing to quote", () => {
    expect(findNearestLines(parseText(""), ["x"])).toEqual({
      startLine: 1,
      lines: [],
      why: "file-start",
      fileLines: 0,
    });
  });

  it("always quotes at least one real line of a non-empty file, numbered correctly", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 30 }),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }),
        (fileLines, wanted) => {
          const file = parseText(fileLines.map((l) => l.replace(/[\r\n]/g, "") + "\n").join(""));
          const nearest = findNearestLines(file, wanted);
          expect(nearest.lines.length).toBeGreaterThan(0);
          expect(nearest.lines).toEqual(
            file.lines.slice(nearest.startLine - 1, nearest.startLine - 1 + nearest.lines.length),
          );
        },
      ),
    );
  });
});
