/**
 * Rung 5, unicode: indentation-insensitive (with the same nesting rule as rung 4), plus typographic punctuation
 * folded to ASCII (curly quotes, primes, dashes incl. U+2212, NBSP and other odd spaces, `…`), single and double
 * quotes alike, and internal whitespace runs collapsed. Lines found this way keep the file's own bytes when they
 * are context.
 */
import { isCached, lineKeys, splicedCached } from "../../core/file-memo.js";
import { stringHash } from "../../core/string-hash.js";
import { LinePositions } from "../../core/line-positions.js";
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
 * Per line, a hash of its loose key: a scan for a few wanted keys compares hashes before (or instead of) reading any
 * line's key, which on a large file costs a cache miss a line, and an index of the hashes finds the lines holding a
 * key without a scan. Distinct keys may share a hash: where that matters, a line found by its hash is told apart
 * by its key.
 */
export function looseSignatures(file: TextFile): KeySignatures {
  // The keys' slot first: a new version of the file splices the slots in that order (core/file-memo.ts), and this
  // one reads the keys.
  const keys = looseKeys(file);
  const lines = lineKeys(file, "signature:unicode", (f, i) => stringHash(f === file ? keys[i]! : looseKeys(f)[i]!));
  // After the signatures: an edit splices them first, and the index reads them.
  const index = splicedCached(
    file,
    "positions:unicode",
    () => LinePositions.build(lines),
    (value, start, removed, added) => value.spliced(start, removed, added),
  );
  const positions = {
    lines: (sign: number) => index.lines(sign, lines),
    estimate: (sign: number) => index.estimate(sign),
  };
  return { lines, sign: stringHash, hashed: true, positions };
}

/** Per line, the length of its loose key. */
export function looseKeyLengths(file: TextFile): readonly number[] {
  const keys = looseKeys(file);
  return lineKeys(file, "length:unicode", (f, i) => (f === file ? keys[i]! : looseKeys(f)[i]!).length);
}
