/**
 * The ways a fuzzy window's lines can be paired with the old side's (fuzzy-align.ts turns each into a reading): a
 * line pairs only with one close to it, identical lines first or by the closest pairing overall.
 */
import { diffArrays } from "diff";
import { distance } from "fastest-levenshtein";
import { closestPairs, type ClosestOptions } from "./closest-pairs.js";

/** Line comparisons allowed for one changed stretch (20 x 20 lines). */
const MAX_STRETCH_CELLS = 400;

/**
 * Least similarity (1 - Levenshtein / longer length, on loose keys) for two lines to be the same line drifted: a
 * typo or a renamed word in a line of some length, not a different statement. Zed pairs lines at 0.8 too.
 */
export const MIN_PAIR_SIMILARITY = 0.8;

const lineSimilarity = (a: string, b: string): number =>
  a.length + b.length === 0 ? 1 : 1 - distance(a, b) / Math.max(a.length, b.length);

/** The similarity of two lines when they are close enough to pair, else 0 (never paired). */
function pairScore(a: string, b: string): number {
  const s = lineSimilarity(a, b);
  return s >= MIN_PAIR_SIMILARITY ? s : 0;
}

/**
 * Pairs the drifted lines of one changed stretch: the closest pairing of those lines alone. It decides which line is
 * the extra one when the sides differ in length (pairing in order would shift every later pair by one), and leaves
 * a line whose counterpart is missing unpaired even when the sides have the same length. A stretch too long to
 * align pairs only in order, and only close lines; an uneven one then stays unpaired (its removed lines refuse the
 * match rather than guess).
 */
function pairStretch(olds: number[], windows: number[], score: PairScore, partner: number[]): void {
  if (olds.length * windows.length > MAX_STRETCH_CELLS) {
    if (olds.length !== windows.length) return;
    olds.forEach((o, k) => {
      if (score(o, windows[k]!) > 0) partner[o] = windows[k]!;
    });
    return;
  }
  const within = closestPairs(olds.length, windows.length, (r, c) => score(olds[r]!, windows[c]!));
  within.forEach((k, r) => {
    if (k >= 0) partner[olds[r]!] = windows[k]!;
  });
}

/**
 * The ways the old side's lines are paired with the window's, each a reading (alignFuzzyReadings):
 * - identical-first: a line diff pairs the identical lines, and the drifted ones are paired within each stretch
 *   the diff left (pairStretch). Identical lines are the strongest evidence, but which copy of a repeated line the
 *   diff takes is arbitrary;
 * - the closest pairing over the whole window (closest-pairs.ts), ties going to earlier or to later lines. A
 *   drifted line then takes its own slot even when an identical line further on could have taken it;
 * - the same where a line close to nothing may still stand for one window line (a short line mistyped past
 *   recognition, inside a run of equal lines, shifts every pair after it).
 */
const CLOSEST_PAIRINGS: readonly ClosestOptions[] = [{}, { late: true }, { any: true }, { any: true, late: true }];

/** Cells of the whole-window table the closest pairings may fill (200 x 200 lines); beyond, only identical-first. */
const MAX_WINDOW_CELLS = 40_000;

/** The similarity of old line `o` and window line `w` when they may pair, else 0. */
type PairScore = (o: number, w: number) => number;

function pairIdenticalFirst(oldKeys: string[], windowKeys: string[], score: PairScore): number[] {
  const partner = oldKeys.map(() => -1);
  let i = 0;
  let j = 0;
  let pendingOld: number[] = [];
  let pendingWindow: number[] = [];
  const flush = (): void => {
    pairStretch(pendingOld, pendingWindow, score, partner);
    pendingOld = [];
    pendingWindow = [];
  };
  for (const change of diffArrays(oldKeys, windowKeys)) {
    if (change.removed) for (let k = 0; k < change.count; k++) pendingOld.push(i++);
    else if (change.added) for (let k = 0; k < change.count; k++) pendingWindow.push(j++);
    else {
      flush();
      for (let k = 0; k < change.count; k++) partner[i++] = j++;
    }
  }
  flush();
  return partner;
}

/** How many pairings `pairings` makes at most: identical-first, then each closest pairing. */
export const PAIRINGS = 1 + CLOSEST_PAIRINGS.length;

/** `pairScore` of old line `o` and window line `w`, each computed once. */
function scoreTable(oldKeys: readonly string[], windowKeys: readonly string[]): PairScore {
  const cols = windowKeys.length;
  const table = new Float64Array(oldKeys.length * cols).fill(-1);
  return (o, w) => {
    const k = o * cols + w;
    if (table[k]! < 0) table[k] = pairScore(oldKeys[o]!, windowKeys[w]!);
    return table[k]!;
  };
}

/**
 * Per pairing, each old line's window line or -1: identical-first first (at most `most` pairings); the closest
 * pairings are left out of a window too large to table. `exact` says which lines are the same but for trailing
 * whitespace (the closest pairings prefer them).
 */
export function pairings(
  oldKeys: string[],
  windowKeys: string[],
  exact: (r: number, c: number) => boolean,
  most = PAIRINGS,
): number[][] {
  const score = scoreTable(oldKeys, windowKeys);
  const partners = [pairIdenticalFirst(oldKeys, windowKeys, score)];
  if (oldKeys.length * windowKeys.length <= MAX_WINDOW_CELLS) {
    for (const options of CLOSEST_PAIRINGS.slice(0, most - 1)) {
      partners.push(closestPairs(oldKeys.length, windowKeys.length, score, { ...options, exact }));
    }
  }
  return partners;
}

/** The identical-first pairing with old line `line` fixed on window line `w`: each side of it paired apart. */
export function pairAround(oldKeys: string[], windowKeys: string[], line: number, w: number): number[] {
  const score = scoreTable(oldKeys, windowKeys);
  const before = pairIdenticalFirst(oldKeys.slice(0, line), windowKeys.slice(0, w), score);
  const after = pairIdenticalFirst(oldKeys.slice(line + 1), windowKeys.slice(w + 1), (o, x) =>
    score(o + line + 1, x + w + 1),
  );
  return [...before, w, ...after.map((x) => (x < 0 ? -1 : x + w + 1))];
}
