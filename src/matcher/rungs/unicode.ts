/**
 * Rung 5, unicode: indentation-insensitive (with the same nesting rule as rung 4), plus typographic punctuation
 * folded to ASCII (curly quotes, primes, dashes incl. U+2212, NBSP and other odd spaces, `…`) and internal
 * whitespace runs collapsed. Lines found this way keep the file's own bytes when they are context.
 */
import { lineKeys } from "../../core/file-memo.js";
import { foldLine } from "../normalize.js";
import type { LineRung } from "./line-rung.js";

export const unicodeRung: LineRung = {
  name: "unicode",
  modelKey: foldLine,
  fileKeys: (file) => lineKeys(file, "key:unicode", (f, i) => foldLine(f.lines[i]!)),
  checksNesting: true,
};

/** The loosest line key: used by the elision and fuzzy rungs, anchors and nearest-line search. */
export const looseKeys = unicodeRung.fileKeys;
export const looseKey = foldLine;
