/**
 * Aligning the old side with a fuzzy window, so that context lines keep the file's bytes and removals drop the
 * right lines. A line diff on the loose keys pairs the identical lines; the lines it cannot pair are the drifted
 * ones and are paired within each changed stretch (pairStretch), but only with a line that is close to them
 * (MIN_PAIR_SIMILARITY): the window can be a line shorter or longer than the old side, and pairing by position
 * alone would make a removal delete whatever line happens to sit there. What remains:
 * - an old line with no partner beyond an edge of the pairs that is in the file just past that edge refuses the
 *   match: the window stopped short and its pairs are shifted (stoppedShort); so does a drifted pair whose old
 *   line is in the file verbatim nearby (driftedLineElsewhere);
 * - an old context line with no partner (the model invented it) covers no file line; a removed one refuses the
 *   match, since the line the model meant to delete cannot be told apart;
 * - a window line with no partner at the window's edge is left outside the match (untouched);
 * - one inside the window joins a neighbouring CONTEXT line and is kept; next to removed lines only, the edit
 *   cannot say whether the model meant to delete it, and the match is refused;
 * - added lines are placed by the old lines next to them: when one of those has no partner, or the file has
 *   lines the SEARCH left out right where the lines are added, which side of that line the model meant is unknown
 *   (an "invented" line may be a real line the window stopped short of), and the match is refused.
 */
import { diffArrays } from "diff";
import { distance } from "fastest-levenshtein";
import type { LineOp } from "../core/edit.js";
import type { TextFile } from "../core/text.js";
import type { LinePair } from "./indent-structure.js";
import type { OldLine } from "./old-side.js";
import { looseKey, looseKeys } from "./rungs/unicode.js";
import type { Alignment } from "./types.js";

export type FuzzyAlignment =
  | {
      readonly ok: true;
      readonly start: number;
      readonly end: number;
      readonly alignment: readonly Alignment[];
      /** Every paired line (identical or drifted): the nesting rule is checked on these. */
      readonly pairs: readonly LinePair[];
    }
  | { readonly ok: false; readonly note: string };

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
 * Pairs the drifted lines of one changed stretch: an order-keeping alignment maximising the paired lines'
 * similarity, where only close lines may pair. It decides which line is the extra one when the sides differ in
 * length (pairing in order would shift every later pair by one), and leaves a line whose counterpart is missing
 * unpaired even when the sides have the same length. A stretch too long to align pairs only in order, and only
 * close lines; an uneven one then stays unpaired (its removed lines refuse the match rather than guess).
 */
function pairStretch(
  olds: number[],
  windows: number[],
  oldKeys: string[],
  windowKeys: string[],
  partner: number[],
): void {
  if (olds.length * windows.length > MAX_STRETCH_CELLS) {
    if (olds.length !== windows.length) return;
    olds.forEach((o, k) => {
      if (pairScore(oldKeys[o]!, windowKeys[windows[k]!]!) > 0) partner[o] = windows[k]!;
    });
    return;
  }
  const rows = olds.length;
  const cols = windows.length;
  const pair = Array.from({ length: rows }, (_, r) =>
    windows.map((w) => pairScore(oldKeys[olds[r]!]!, windowKeys[w]!)),
  );
  const score = Array.from({ length: rows + 1 }, () => new Float64Array(cols + 1));
  for (let r = 1; r <= rows; r++) {
    for (let c = 1; c <= cols; c++) {
      const p = pair[r - 1]![c - 1]!;
      const diagonal = p > 0 ? score[r - 1]![c - 1]! + p : 0;
      score[r]![c] = Math.max(diagonal, score[r - 1]![c]!, score[r]![c - 1]!);
    }
  }
  for (let r = rows, c = cols; r > 0 && c > 0;) {
    if (score[r]![c] === score[r - 1]![c]) r--;
    else if (score[r]![c] === score[r]![c - 1]) c--;
    else {
      partner[olds[r - 1]!] = windows[c - 1]!;
      r--;
      c--;
    }
  }
}

/** For each old line, the window-relative index of its partner, or -1. */
function pairLines(oldKeys: string[], windowKeys: string[]): number[] {
  const partner = oldKeys.map(() => -1);
  let i = 0;
  let j = 0;
  let pendingOld: number[] = [];
  let pendingWindow: number[] = [];
  const flush = (): void => {
    pairStretch(pendingOld, pendingWindow, oldKeys, windowKeys, partner);
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

const INSERTION_ADVICE = "where the added lines go is unclear; quote the lines around the insertion exactly";

/**
 * Why a run of added lines cannot be placed, if it cannot. A run next to a removed line takes that line's place
 * (which was paired with a close line). Otherwise it is placed by the nearest paired old lines on each side:
 * - with one on both sides, the file must hold no line between their partners: a line the SEARCH left out there
 *   could be on either side of the insertion (lines the model invented in between cover nothing and are fine);
 * - with one on one side only, no unpaired old line may stand between it and the run: that "invented" line may be
 *   a real line beyond the window's edge, and the run belongs on its far side.
 * Only this pass's old lines count: blank lines a retry dropped place nothing.
 */
function insertionDoubt(
  ops: readonly LineOp[],
  old: readonly OldLine[],
  partner: readonly number[],
  start: number,
  region: string,
): string | undefined {
  for (let a = 0; a < ops.length; a++) {
    if (ops[a]!.op !== "add") continue;
    let b = a;
    while (b + 1 < ops.length && ops[b + 1]!.op === "add") b++;
    // The run sits between old[k - 1] and old[k].
    let k = old.findIndex((l) => l.op > b);
    if (k < 0) k = old.length;
    // A run next to a removed line replaces it: that line places it.
    const replaces = [old[k - 1], old[k]].some(
      (l) => l !== undefined && l.kind === "remove" && (l.op === a - 1 || l.op === b + 1),
    );
    a = b;
    if (replaces) continue;
    let p = k - 1;
    while (p >= 0 && partner[p]! < 0) p--;
    let q = k;
    while (q < old.length && partner[q]! < 0) q++;
    if (p >= 0 && q < old.length) {
      if (partner[q]! - partner[p]! > 1) {
        const line = start + partner[p]! + 2;
        return `line ${line} of the file is not in the SEARCH and sits where the edit adds lines: ${INSERTION_ADVICE}`;
      }
      continue;
    }
    // Anchored on one side only: the unpaired old lines between that anchor and the run.
    const skipped = p >= 0 ? old.slice(p + 1, k) : old.slice(k, q);
    const nearest = p >= 0 ? skipped[skipped.length - 1] : skipped[0];
    if (nearest !== undefined) {
      return `the edit adds lines next to "${nearest.text.trim()}", which is not in the similar ${region}: ${INSERTION_ADVICE}`;
    }
  }
  return undefined;
}

/**
 * An old line left unpaired beyond the last (or before the first) paired line that occurs verbatim in the file just
 * past that edge of the match: the window stopped short of the block the model quoted, and its drifted pairs may
 * be shifted onto look-alike neighbours (a removal or insertion would then land a line off). Blank lines are too
 * common to tell. Returns the note, if so.
 */
function stoppedShort(
  file: TextFile,
  old: readonly OldLine[],
  oldKeys: readonly string[],
  partner: readonly number[],
  region: { start: number; end: number },
): string | undefined {
  const keys = looseKeys(file);
  const firstPaired = partner.findIndex((w) => w >= 0);
  let lastPaired = partner.length - 1;
  while (partner[lastPaired]! < 0) lastPaired--;
  const reach = old.length;
  const found = (i: number, f: number, side: string): string =>
    `the SEARCH line "${old[i]!.text.trim()}" is line ${f + 1} of the file, ${side} the similar lines ` +
    `${region.start + 1}-${region.end}: copy the lines exactly as they are in the file`;
  for (let i = lastPaired + 1; i < old.length; i++) {
    if (oldKeys[i] === "") continue;
    for (let f = region.end; f < Math.min(keys.length, region.end + reach); f++)
      if (keys[f] === oldKeys[i]) return found(i, f, "after");
  }
  for (let i = firstPaired - 1; i >= 0; i--) {
    if (oldKeys[i] === "") continue;
    for (let f = region.start - 1; f >= Math.max(0, region.start - reach); f--)
      if (keys[f] === oldKeys[i]) return found(i, f, "before");
  }
  return undefined;
}

/**
 * A drifted pair whose old line occurs verbatim in the file near the match: the model quoted a real line, so pairing
 * it with a look-alike is a guess that would change the wrong line (a window one line short pairs `-stringifyString`
 * with the `stringifyNumber` line above it). Blank lines are too common to tell. Returns the note, if so.
 */
function driftedLineElsewhere(
  file: TextFile,
  old: readonly OldLine[],
  oldKeys: readonly string[],
  windowKeys: readonly string[],
  partner: readonly number[],
  region: { start: number; end: number },
): string | undefined {
  const keys = looseKeys(file);
  const from = Math.max(0, region.start - old.length);
  const to = Math.min(keys.length, region.end + old.length);
  for (let i = 0; i < old.length; i++) {
    const w = partner[i]!;
    if (w < 0 || oldKeys[i] === "" || windowKeys[w] === oldKeys[i]) continue;
    for (let f = from; f < to; f++) {
      if (keys[f] !== oldKeys[i]) continue;
      return (
        `the SEARCH line "${old[i]!.text.trim()}" is line ${f + 1} of the file, but the lines around it differ from ` +
        `the SEARCH: copy the lines exactly as they are in the file`
      );
    }
  }
  return undefined;
}

export function alignFuzzyWindow(
  file: TextFile,
  ops: readonly LineOp[],
  old: readonly OldLine[],
  start: number,
  end: number,
): FuzzyAlignment {
  const windowKeys = looseKeys(file).slice(start, end);
  const oldKeys = old.map((l) => looseKey(l.text));
  const partner = pairLines(oldKeys, windowKeys);
  const owner = windowKeys.map(() => -1);
  partner.forEach((w, i) => {
    if (w >= 0) owner[w] = i;
  });
  const paired = owner.flatMap((o, w) => (o >= 0 ? [w] : []));
  if (paired.length === 0) return { ok: false, note: "the similar region shares no line with the SEARCH" };
  const first = paired[0]!;
  const last = paired[paired.length - 1]!;
  const region = `lines ${start + first + 1}-${start + last + 1}`;
  // Only drifted pairs can be shifted ones: identical lines pair where they are.
  const drifted = partner.some((w, i) => w >= 0 && windowKeys[w] !== oldKeys[i]);
  const short = drifted
    ? stoppedShort(file, old, oldKeys, partner, { start: start + first, end: start + last + 1 })
    : undefined;
  if (short !== undefined) return { ok: false, note: short };
  const elsewhere = drifted
    ? driftedLineElsewhere(file, old, oldKeys, windowKeys, partner, { start: start + first, end: start + last + 1 })
    : undefined;
  if (elsewhere !== undefined) return { ok: false, note: elsewhere };
  const lost = old.find((l, i) => l.kind === "remove" && partner[i]! < 0);
  if (lost !== undefined) {
    return { ok: false, note: `the line to remove "${lost.text.trim()}" has no counterpart in the similar ${region}` };
  }
  const doubt = insertionDoubt(ops, old, partner, start, region);
  if (doubt !== undefined) return { ok: false, note: doubt };
  // Per old line: the window-relative range it covers (before the unpaired interior lines are attached).
  const from = partner.map((w) => w);
  const to = partner.map((w) => (w >= 0 ? w + 1 : -1));
  for (let w = first; w <= last; w++) {
    if (owner[w]! >= 0) continue;
    let runEnd = w;
    while (owner[runEnd]! < 0) runEnd++;
    const before = owner[w - 1]!;
    const after = owner[runEnd]!;
    if (old[before]!.kind === "context") to[before] = runEnd;
    else if (old[after]!.kind === "context") from[after] = w;
    else {
      return {
        ok: false,
        note: `line ${start + w + 1} of the file is not in the SEARCH and sits among lines the edit changes`,
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
  return { ok: true, start: start + first, end: start + last + 1, alignment, pairs };
}
