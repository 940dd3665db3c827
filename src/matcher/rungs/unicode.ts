/**
 * Rung 5, unicode: indentation-insensitive (with the same nesting rule as rung 4), plus typographic punctuation
 * folded to ASCII (curly quotes, primes, dashes incl. U+2212, NBSP and other odd spaces, `…`) and internal
 * whitespace runs collapsed. Lines found this way keep the file's own bytes when they are context.
 */
import { isCached, lineKeys } from "../../core/file-memo.js";
import { signature } from "../../core/lines/index.js";
import { foldLine } from "../normalize.js";
import type { TextFile } from "../../core/text.js";
import type { KeySignatures } from "../windows.js";
import type { LineRung } from "./line-rung.js";

const SLOT = "key:unicode";

export const unicodeRung: LineRung = {
  name: "unicode",
  modelKey: foldLine,
  fileKeys: (file) => lineKeys(file, SLOT, (f, i) => foldLine(f.lines[i]!)),
  checksNesting: true,
};

/** Whether the file's loose keys are at hand (computed for it, or carried over from the version it came from). */
export const hasLooseKeys = (file: TextFile): boolean => isCached(file, SLOT);

/** The loosest line key: used by the elision and fuzzy rungs, anchors and nearest-line search. */
export const looseKeys = unicodeRung.fileKeys;
export const looseKey = foldLine;

/**
 * Per line, a 30-bit signature of its loose key (core/lines/index.ts: its length and three characters), which a
 * scan for a few wanted keys compares before reading any line's key: reading every key of a large file costs a
 * cache miss a line. Equal keys have equal signatures.
 */
export function looseSignatures(file: TextFile): KeySignatures {
  // The keys' slot first: a new version of the file splices the slots in that order (core/file-memo.ts), and this
  // one reads the keys.
  const keys = looseKeys(file);
  const lines = lineKeys(file, "signature:unicode", (f, i) => looseSignature(f === file ? keys[i]! : looseKeys(f)[i]!));
  return { lines, sign: looseSignature };
}

export const looseSignature = (key: string): number => signature(key) & 0x3fffffff;
