/**
 * Aligning the old side with a fuzzy window, so that context lines keep the file's bytes and removals drop the
 * right lines. Lines pair only with a line close to them (MIN_PAIR_SIMILARITY): the window can be a line shorter or
 * longer than the old side, and pairing by position alone would make a removal delete whatever line happens to sit
 * there. A window can be paired in more than one way (a repeated line, a drifted line next to an identical one), so
 * each pairing (see CLOSEST_PAIRINGS) is a reading that fuzzy-readings.ts weighs against the others. Within one reading:
 * - an old context line with no partner (the model invented it) covers no file line, unless it is a bare `...`
 *   (code in Python, so not parsed as an elision), which may stand for any number of lines and refuses the match;
 *   a removed one refuses the match, since the line the model meant to delete cannot be told apart, and so does a
 *   paired removed line that an unpaired look-alike beside it could stand for;
 * - a window line with no partner at the window's edge is left outside the match (untouched), unless the old line
 *   paired next to it reads as the two joined (the model wrote `foo(); });` for two lines): that old line stands for
 *   both, wherever they are;
 * - one inside the window joins a neighbouring CONTEXT line and is kept; next to removed lines only, the edit
 *   cannot say whether the model meant to delete it, and the match is refused;
 * - added lines are placed by the old lines next to them: when one of those has no partner, or the file has
 *   lines the SEARCH left out right where the lines are added, which side of that line the model meant is unknown
 *   (an "invented" line may be a real line the window stopped short of), and the match is refused;
 * - old lines paired with a look-alike, or left out beyond the pairs, that the file has verbatim nearby are
 *   reported (sightings), and so are old lines left out between the pairs right beside added lines (anchors):
 *   each implies another reading.
 */
import { diffArrays } from "diff";
import { distance } from "fastest-levenshtein";
import type { LineOp } from "../core/edit.js";
import { isBareEllipsis } from "../formats/shared/elision.js";
import type { TextFile } from "../core/text.js";
import { closestPairs, type ClosestOptions } from "./closest-pairs.js";
import type { LinePair } from "./indent-structure.js";
import type { OldLine } from "./old-side.js";
import { looseKey, looseKeys } from "./rungs/unicode.js";
import { insertionDoubt, removalDoubt, sightings, type Sighting } from "./fuzzy-doubts.js";
import type { Alignment } from "./types.js";

export type FuzzyAlignment =
  | {
      readonly ok: true;
      readonly start: number;
      readonly end: number;
      readonly alignment: readonly Alignment[];
      /** Every paired line (identical or drifted): the nesting rule is checked on these. */
      readonly pairs: readonly LinePair[];
      /** Per old line, the file line (0-based) it is paired with, or -1. */
      readonly placed: readonly number[];
      /** Old lines this reading does not pair with their verbatim copy nearby: each implies another reading. */
      readonly sightings: readonly Sighting[];
      /**
       * Unpaired old lines between pairs that place added lines (the run is next to them) while the file has them
       * verbatim nearby: the reading with the model's line on that copy puts the added lines there.
       */
      readonly anchors: readonly Sighting[];
    }
  | {
      readonly ok: false;
      readonly note: string;
      /**
       * When the reading pairs the lines but cannot place a removal or an insertion (a doubt): per old line, its
       * file line or -1. Such a reading is unclear, not impossible.
       */
      readonly placed?: readonly number[];
    };

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

/** The window [start, end) aligned with the old side under the identical-first pairing. */
export function alignFuzzyWindow(
  file: TextFile,
  ops: readonly LineOp[],
  old: readonly OldLine[],
  start: number,
  end: number,
): FuzzyAlignment {
  return alignFuzzyReadings(file, ops, old, start, end, 1)[0]!;
}

/**
 * The window [start, end) aligned under each pairing, identical-first first (at most `most` of them); the closest
 * pairings are left out of a window too large to table. The line similarities are computed once for all.
 */
export function alignFuzzyReadings(
  file: TextFile,
  ops: readonly LineOp[],
  old: readonly OldLine[],
  start: number,
  end: number,
  most = 1 + CLOSEST_PAIRINGS.length,
): FuzzyAlignment[] {
  const windowKeys = looseKeys(file).slice(start, end);
  const oldKeys = old.map((l) => looseKey(l.text));
  const cols = windowKeys.length;
  const table = new Float64Array(oldKeys.length * cols).fill(-1);
  const score: PairScore = (o, w) => {
    const k = o * cols + w;
    if (table[k]! < 0) table[k] = pairScore(oldKeys[o]!, windowKeys[w]!);
    return table[k]!;
  };
  const partners = [pairIdenticalFirst(oldKeys, windowKeys, score)];
  if (oldKeys.length * cols <= MAX_WINDOW_CELLS) {
    const exact = (r: number, c: number): boolean => old[r]!.text.trimEnd() === file.lines[start + c]!.trimEnd();
    for (const options of CLOSEST_PAIRINGS.slice(0, most - 1)) {
      partners.push(closestPairs(oldKeys.length, cols, score, { ...options, exact }));
    }
  }
  return partners.map((partner) => alignPartners(file, ops, old, start, oldKeys, windowKeys, partner));
}

/**
 * The window [start, end) read with old line `fixed.line` on file line `fixed.at` (inside the window): the lines on
 * each side of that pair paired apart, identical lines first.
 */
export function alignFixedReading(
  file: TextFile,
  ops: readonly LineOp[],
  old: readonly OldLine[],
  start: number,
  end: number,
  fixed: { readonly line: number; readonly at: number },
): FuzzyAlignment {
  const windowKeys = looseKeys(file).slice(start, end);
  const oldKeys = old.map((l) => looseKey(l.text));
  const score: PairScore = (o, w) => pairScore(oldKeys[o]!, windowKeys[w]!);
  const partner = pairAround(oldKeys, windowKeys, score, fixed.line, fixed.at - start);
  return alignPartners(file, ops, old, start, oldKeys, windowKeys, partner);
}

/** The identical-first pairing with old line `line` fixed on window line `w`: each side of it paired apart. */
function pairAround(oldKeys: string[], windowKeys: string[], score: PairScore, line: number, w: number): number[] {
  const before = pairIdenticalFirst(oldKeys.slice(0, line), windowKeys.slice(0, w), score);
  const after = pairIdenticalFirst(oldKeys.slice(line + 1), windowKeys.slice(w + 1), (o, x) =>
    score(o + line + 1, x + w + 1),
  );
  return [...before, w, ...after.map((x) => (x < 0 ? -1 : x + w + 1))];
}

/** One reading: the alignment the pairs `partner` (per old line, its window line or -1) give. */
function alignPartners(
  file: TextFile,
  ops: readonly LineOp[],
  old: readonly OldLine[],
  start: number,
  oldKeys: readonly string[],
  windowKeys: readonly string[],
  partner: readonly number[],
): FuzzyAlignment {
  const owner = windowKeys.map(() => -1);
  partner.forEach((w, i) => {
    if (w >= 0) owner[w] = i;
  });
  const paired = owner.flatMap((o, w) => (o >= 0 ? [w] : []));
  if (paired.length === 0) return { ok: false, note: "the similar region shares no line with the SEARCH" };
  const joins = joinedNeighbours(looseKeys(file), start, windowKeys.length, oldKeys, partner, owner);
  // Lines a joined line stands for are its own: inside the window they are owned, past its edge they widen it.
  const outside = new Map<number, number>();
  for (const [i, w] of joins) {
    if (w >= 0 && w < windowKeys.length) owner[w] = i;
    else outside.set(w, i);
  }
  const ownerOf = (w: number): number => owner[w] ?? outside.get(w) ?? -1;
  const first = Math.min(paired[0]!, ...[...joins.values()]);
  const last = Math.max(paired[paired.length - 1]!, ...[...joins.values()]);
  const region = `lines ${start + first + 1}-${start + last + 1}`;
  const lost = old.find((l, i) => l.kind === "remove" && partner[i]! < 0);
  if (lost !== undefined) {
    return { ok: false, note: `the line to remove "${lost.text.trim()}" has no counterpart in the similar ${region}` };
  }
  // A bare `...` is code in Python, so the parser kept it as a context line; unpaired, it is either a line the
  // model invented or the lines it left out, and the window holds none of them only in the first reading.
  const vague = old.find((l, i) => l.kind === "context" && partner[i]! < 0 && isBareEllipsis(l.text));
  if (vague !== undefined) {
    return {
      ok: false,
      note: `the SEARCH line "${vague.text.trim()}" has no counterpart in the similar ${region}: it may stand for lines left out (in Python it is also code); quote those lines instead`,
    };
  }
  const placed = partner.map((w) => (w >= 0 ? start + w : -1));
  const drifted = (i: number): boolean => windowKeys[partner[i]!] !== oldKeys[i];
  const doubt = removalDoubt(old, partner) ?? insertionDoubt(ops, old, partner, start, region, drifted);
  if (doubt !== undefined) return { ok: false, note: doubt, placed };
  // Per old line: the window-relative range it covers (before the unpaired interior lines are attached).
  const from = partner.map((w, i) => Math.min(w, joins.get(i) ?? w));
  const to = partner.map((w, i) => (w >= 0 ? Math.max(w, joins.get(i) ?? w) + 1 : -1));
  for (let w = first; w <= last; w++) {
    if (ownerOf(w) >= 0) continue;
    let runEnd = w;
    while (ownerOf(runEnd) < 0) runEnd++;
    const before = ownerOf(w - 1);
    const after = ownerOf(runEnd);
    // The run stays with a context line beside it; the lines the edit adds on its other side then border it.
    let bordering: readonly string[];
    if (old[before]!.kind === "context") {
      to[before] = runEnd;
      bordering = addedBeside(ops, old[before]!.op, 1);
    } else if (old[after]!.kind === "context") {
      from[after] = w;
      bordering = addedBeside(ops, old[after]!.op, -1);
    } else {
      return {
        ok: false,
        note: `line ${start + w + 1} of the file is not in the SEARCH and sits among lines the edit changes`,
        placed,
      };
    }
    // An added line that reads as a file line the SEARCH left out beside the edit may be that very line, which the
    // model moved: keeping both doubles it (a second `}` closes the wrong block).
    const added = new Set(bordering.map(looseKey));
    for (let at = start + w; at < start + runEnd; at++) {
      const key = looseKey(file.lines[at]!);
      if (key === "" || !added.has(key)) continue;
      return {
        ok: false,
        note:
          `line ${at + 1} of the file ("${key}") is not in the SEARCH, and the edit adds a line that reads the ` +
          `same beside it: whether the model moved that line or added another cannot be told; quote the lines ` +
          `around it exactly`,
        placed,
      };
    }
    w = runEnd;
  }
  const alignment: Alignment[] = [];
  const pairs: LinePair[] = [];
  let cursor = start + first;
  old.forEach((line, i) => {
    if (from[i]! < 0) {
      alignment.push({ op: line.op, start: cursor, end: cursor });
      return;
    }
    alignment.push({ op: line.op, start: start + from[i]!, end: start + to[i]! });
    cursor = start + to[i]!;
    pairs.push({ model: line.text, file: file.lines[start + partner[i]!]! });
  });
  const bounds = { start: start + first, end: start + last + 1 };
  return {
    ok: true,
    ...bounds,
    alignment,
    pairs,
    placed,
    ...sightings(file, ops, old, oldKeys, windowKeys, partner, bounds, start),
  };
}

/**
 * The lines the edit adds right after (`step` 1) or right before (-1) the old line at `op`: the add ops that way up
 * to the next context line (removed lines put nothing between).
 */
function addedBeside(ops: readonly LineOp[], op: number, step: 1 | -1): string[] {
  const added: string[] = [];
  for (let i = op + step; i >= 0 && i < ops.length && ops[i]!.op !== "context"; i += step) {
    if (ops[i]!.op === "add") added.push(ops[i]!.text);
  }
  return added;
}

/**
 * Old lines that are a drifted pair's file line joined with the file line before or after it (the model wrote two
 * short lines as one, `foo(); });`), with that neighbour (window-relative, possibly just past the window's edge)
 * when nothing else pairs it: the old line stands for both, so added lines beside it go beyond both.
 */
function joinedNeighbours(
  keys: readonly string[],
  start: number,
  size: number,
  oldKeys: readonly string[],
  partner: readonly number[],
  owner: readonly number[],
): Map<number, number> {
  const joins = new Map<number, number>();
  const free = (w: number): boolean =>
    start + w >= 0 && start + w < keys.length && (w < 0 || w >= size || owner[w]! < 0);
  const joined = (line: string, a: string, b: string): boolean =>
    a !== "" && b !== "" && (line === `${a} ${b}` || line === a + b);
  partner.forEach((w, i) => {
    const key = oldKeys[i]!;
    if (w < 0 || keys[start + w] === key) return;
    if (free(w + 1) && joined(key, keys[start + w]!, keys[start + w + 1]!)) joins.set(i, w + 1);
    else if (free(w - 1) && joined(key, keys[start + w - 1]!, keys[start + w]!)) joins.set(i, w - 1);
  });
  return joins;
}
