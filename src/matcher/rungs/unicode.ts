/**
 * Rung 5, unicode: indentation-insensitive (with the same nesting rule as rung 4), plus typographic punctuation
 * folded to ASCII (curly quotes, primes, dashes incl. U+2212, NBSP and other odd spaces, `…`), single and double
 * quotes alike, and internal whitespace runs collapsed. Lines found this way keep the file's own bytes when they
 * are context.
 */
import { isCached, lineageCached, lineKeys, splicedCached } from "../../core/file-memo.js";
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
 * The loose keys of a file and of the versions made from it, numbered in the order they were first seen: a number
 * stands for one key, so comparing numbers is comparing keys, without reading them.
 */
function keyNumbers(file: TextFile): Map<string, number> {
  return lineageCached(file, "numbers:unicode", () => new Map<string, number>());
}

const numberOf = (numbers: Map<string, number>, key: string): number => {
  let n = numbers.get(key);
  if (n === undefined) {
    n = numbers.size;
    numbers.set(key, n);
  }
  return n;
};

/**
 * Per line, the number of its loose key (`keyNumbers`): a scan for a few wanted keys compares numbers before (or
 * instead of) reading any line's key, which on a large file costs a cache miss a line. A key the file does not
 * hold signs as -1, which no line has.
 */
export function looseSignatures(file: TextFile): KeySignatures {
  // The keys' slot first: a new version of the file splices the slots in that order (core/file-memo.ts), and this
  // one reads the keys.
  const keys = looseKeys(file);
  const numbers = keyNumbers(file);
  const lines = lineKeys(file, "signature:unicode", (f, i) =>
    f === file ? numberOf(numbers, keys[i]!) : numberOf(keyNumbers(f), looseKeys(f)[i]!),
  );
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
  return { lines, sign: (key) => numbers.get(key) ?? -1, exact: true, positions };
}

/** Per line, the length of its loose key. */
export function looseKeyLengths(file: TextFile): readonly number[] {
  const keys = looseKeys(file);
  return lineKeys(file, "length:unicode", (f, i) => (f === file ? keys[i]! : looseKeys(f)[i]!).length);
}
