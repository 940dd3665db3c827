/**
 * What one fuzzy reading cannot settle by itself: added lines that could belong on either side of a line the SEARCH
 * left out (insertionDoubt) and removed lines that a look-alike beside them could stand for (removalDoubt), each a
 * note for the model; and SEARCH lines the reading does not put on their verbatim copy nearby (sightings, each
 * another reading for fuzzy-readings.ts to weigh).
 */
import type { LineOp } from "../core/edit.js";
import type { TextFile } from "../core/text.js";
import type { OldLine } from "./old-side.js";
import { isBlank } from "./normalize.js";
import { looseKey, looseKeys } from "./rungs/unicode.js";

const INSERTION_ADVICE = "where the added lines go is unclear; quote the lines around the insertion exactly";

/**
 * Why a run of added lines cannot be placed, if it cannot. A run next to a removed line takes that line's place
 * (which was paired with a close line). Otherwise it is placed by the nearest paired old lines on each side:
 * - with one on both sides, the file must hold no line between their partners: a line the SEARCH left out there
 *   could be on either side of the insertion (lines the model invented in between cover nothing and are fine; when
 *   they stand for real lines, another pairing or a shifted window says so, see fuzzy-readings.ts);
 * - with one on one side only, no unpaired old line may stand between it and the run, nor (blank lines aside) on
 *   the run's far side a line that the file has further that way (`inFileBeyond`: old line, file line, direction):
 *   that "invented" line may be a real line beyond the window's edge, and the run belongs next to it.
 * Either way, an anchor that an unpaired old line on the run's far side reads the same as places nothing: the diff
 * could as well have paired that line with the anchor's file line, and the run would sit on its other side. Nor does
 * a one-sided anchor whose file line the next one towards the run repeats, when an unpaired old line stands behind
 * it (`shiftedTwin`): read as the model's copy of the anchor's line, it moves the run one line on.
 * Only this pass's old lines count: blank lines a retry dropped place nothing.
 */
export function insertionDoubt(
  ops: readonly LineOp[],
  old: readonly OldLine[],
  partner: readonly number[],
  start: number,
  region: string,
  drifted: (line: number) => boolean = () => false,
  inFileBeyond: (line: number, from: number, step: 1 | -1) => boolean = () => false,
  fileKeys: readonly string[] = [],
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
    const twin = lookAlikeAcross(old, partner, p, k, q);
    if (twin !== undefined) {
      return `the edit adds lines between two lines that read "${twin.trim()}", and which of them the file's line is cannot be told: ${INSERTION_ADVICE}`;
    }
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
    // The first non-blank old line on the run's far side, when the file has it further that way than the anchor:
    // it may be that real line, past lines the SEARCH left out, and the run would then belong next to it. (One the
    // file does not have there is invented, and places nothing.)
    const farSide = p >= 0 ? old.slice(k) : old.slice(0, k).reverse();
    const far = farSide.find((l) => !isBlank(l.text));
    if (far !== undefined && (p >= 0 || q < old.length)) {
      const anchorLine = start + partner[p >= 0 ? p : q]!;
      if (inFileBeyond(old.indexOf(far), anchorLine, p >= 0 ? 1 : -1)) {
        return `the edit adds lines ${p >= 0 ? "before" : "after"} "${far.text.trim()}", which is not in the similar ${region} but further ${p >= 0 ? "down" : "up"} the file: ${INSERTION_ADVICE}`;
      }
    }
    const anchor = p >= 0 ? p : q;
    const twins = anchor < old.length ? shiftedTwin(old, partner, anchor, p >= 0 ? 1 : -1, start, fileKeys) : undefined;
    if (twins !== undefined) {
      return `the edit adds lines ${p >= 0 ? "after" : "before"} "${old[anchor]!.text.trim()}", which lines ${twins} of the file both read; a SEARCH line that is not in the file may stand for the ${p >= 0 ? "first" : "second"}, and the added lines would then go ${p >= 0 ? "after the second" : "before the first"}: ${INSERTION_ADVICE}`;
    }
    // The one anchor only resembles its file line, and the file has a line the SEARCH left out between it and the
    // pairs on its other side: the window may have reached past a missing line for a look-alike.
    if (anchor >= old.length || !drifted(anchor)) continue;
    let other = p >= 0 ? anchor - 1 : anchor + 1;
    while (other >= 0 && other < old.length && partner[other]! < 0) other += p >= 0 ? -1 : 1;
    if (other >= 0 && other < old.length && Math.abs(partner[anchor]! - partner[other]!) > 1) {
      return `the edit adds lines next to "${old[anchor]!.text.trim()}", which only resembles line ${start + partner[anchor]! + 1} of the file, past a line the SEARCH does not have: ${INSERTION_ADVICE}`;
    }
  }
  return undefined;
}

/**
 * Whether the pairs from the one anchor back to an unpaired SEARCH line (the run of added lines lies `step` from
 * the anchor) could all move one file line towards the run, each file line there reading as its old line: that
 * unpaired line, taken for invented, may be the model's copy of the anchor's file line, the anchor then being the
 * copy beside it, and the run would land a line further. The two file lines (1-based, "a and b"), if so.
 */
function shiftedTwin(
  old: readonly OldLine[],
  partner: readonly number[],
  anchor: number,
  step: 1 | -1,
  start: number,
  fileKeys: readonly string[],
): string | undefined {
  for (let j = anchor; j >= 0 && j < old.length; j -= step) {
    if (partner[j]! < 0) {
      if (isBlank(old[j]!.text)) continue;
      const [a, b] = [start + partner[anchor]!, start + partner[anchor]! + step].sort((x, y) => x - y);
      return `${a! + 1} and ${b! + 1}`;
    }
    if (fileKeys[start + partner[j]! + step] !== looseKey(old[j]!.text)) return undefined;
  }
  return undefined;
}

/**
 * The text of a paired old line next to the run (old[p] before it, old[q] after it) that an unpaired old line on the
 * run's far side reads the same as: the diff could as well have paired that one with the file's line (identical
 * lines pair first come, first served), and the run would then sit on the other side of it.
 */
function lookAlikeAcross(
  old: readonly OldLine[],
  partner: readonly number[],
  p: number,
  k: number,
  q: number,
): string | undefined {
  const same = (i: number, j: number): boolean => looseKey(old[i]!.text) === looseKey(old[j]!.text);
  if (p >= 0) for (let j = k; j < q; j++) if (same(p, j)) return old[p]!.text;
  if (q < old.length) for (let j = p + 1; j < k; j++) if (same(q, j)) return old[q]!.text;
  return undefined;
}

/**
 * Why a removal cannot be placed, if it cannot: a removed line paired with a file line while an unpaired SEARCH line
 * next to it (across unpaired lines only) reads the same. The diff could as well have paired that one with the
 * file's line (identical lines pair first come, first served), and the removal would then fall on another line.
 */
export function removalDoubt(old: readonly OldLine[], partner: readonly number[]): string | undefined {
  for (let i = 0; i < old.length; i++) {
    if (old[i]!.kind !== "remove" || partner[i]! < 0) continue;
    const key = looseKey(old[i]!.text);
    for (const step of [-1, 1]) {
      for (let j = i + step; j >= 0 && j < old.length && partner[j]! < 0; j += step) {
        if (looseKey(old[j]!.text) !== key) continue;
        return (
          `the edit removes a line that reads "${old[i]!.text.trim()}" next to another SEARCH line that reads the ` +
          `same, and which of them the file's line is cannot be told; quote the lines around it exactly`
        );
      }
    }
  }
  return undefined;
}

/** The first and last old lines with a partner (the alignment pairs at least one). */
function pairedBounds(partner: readonly number[]): { first: number; last: number } {
  let last = partner.length - 1;
  while (last > 0 && partner[last]! < 0) last--;
  return { first: partner.findIndex((w) => w >= 0), last };
}

/** A SEARCH line (old index) that a reading does not pair with its verbatim copy at file line `at` (0-based). */
export interface Sighting {
  readonly line: number;
  readonly at: number;
}

/**
 * The old lines a reading pairs with a look-alike (a drifted pair) or leaves unpaired beyond its pairs, while the
 * file has them verbatim near the match (within twice the old side's length: the copy may end the window the model
 * meant, just past the one chosen). Each is another reading, in which the model quoted that real line; the caller
 * checks that it puts the edit in the same place. A line left unpaired between pairs has its place fixed by them,
 * unless added lines stand right next to it (the model wrote the insertion after or before it): such a line, taken
 * for invented, decides where they go if it is the real one (anchors, within twice the old side's length). So does
 * one whose copy lies across the pairs around it on a line no pair takes (within the old side's length, or twice
 * that when file lines stand unpaired between the same pairs): the SEARCH has two lines in the file's opposite
 * order, and either may be the misplaced one. Blank lines are too common to tell anything.
 */
export function sightings(
  file: TextFile,
  ops: readonly LineOp[],
  old: readonly OldLine[],
  oldKeys: readonly string[],
  windowKeys: readonly string[],
  partner: readonly number[],
  region: { start: number; end: number },
  start: number,
): { sightings: Sighting[]; anchors: Sighting[] } {
  const keys = looseKeys(file);
  const { first, last } = pairedBounds(partner);
  const found = { sightings: [] as Sighting[], anchors: [] as Sighting[] };
  const pairedLines = new Set(partner.filter((w) => w >= 0).map((w) => start + w));
  oldKeys.forEach((key, line) => {
    if (key === "") return;
    const w = partner[line]!;
    const drifted = w >= 0 && windowKeys[w] !== key;
    const beyond = w < 0 && (line < first || line > last);
    if (drifted || beyond) {
      addCopies(found.sightings, keys, key, line, region, 2 * oldKeys.length);
      return;
    }
    if (w >= 0) return;
    const op = old[line]!.op;
    if (ops[op - 1]?.op === "add" || ops[op + 1]?.op === "add") {
      addCopies(found.anchors, keys, key, line, region, 2 * oldKeys.length);
      return;
    }
    // A copy across the pairs around it, on a line no pair takes: the SEARCH has the line where the file does
    // not (two lines swapped), and the pairs it crossed may be the misplaced ones. Facing a line of the file's own
    // between the same pairs, it stands for that line (one line for another, as a drifted pair does), and its copy
    // is looked for as far as a drifted line's.
    let p = line - 1;
    while (partner[p]! < 0) p--;
    let q = line + 1;
    while (partner[q]! < 0) q++;
    const slot = { from: start + partner[p]!, to: start + partner[q]! };
    const facesFileLine = slot.to - slot.from > 1;
    const copies: Sighting[] = [];
    addCopies(copies, keys, key, line, region, (facesFileLine ? 2 : 1) * oldKeys.length);
    for (const copy of copies) {
      if ((copy.at < slot.from || copy.at > slot.to) && !pairedLines.has(copy.at)) found.anchors.push(copy);
    }
  });
  return found;
}

/** Adds to `found` each file line within `reach` of `region` whose key is old line `line`'s `key`. */
function addCopies(
  found: Sighting[],
  keys: readonly string[],
  key: string,
  line: number,
  region: { start: number; end: number },
  reach: number,
): void {
  const to = Math.min(keys.length, region.end + reach);
  for (let at = Math.max(0, region.start - reach); at < to; at++) if (keys[at] === key) found.push({ line, at });
}

/** What to tell the model when the reading a sighting implies cannot be aligned. */
export const sightingNote = (text: string, at: number): string =>
  `the SEARCH line "${text.trim()}" is line ${at + 1} of the file, but the lines around it differ from ` +
  `the SEARCH: copy the lines exactly as they are in the file`;

/** What to tell the model when the reading a line's copy implies pairs the lines but leaves the edit unplaced. */
export const unclearNote = (text: string, at: number, why: string): string =>
  `the SEARCH line "${text.trim()}" is also line ${at + 1} of the file; read with it there, ${why}`;

/** What to tell the model when a line's copy, read as the real line, moves where the edit lands. */
export const elsewhereNote = (text: string, at: number): string =>
  `the SEARCH line "${text.trim()}" is also line ${at + 1} of the file; read with it there, the edit lands ` +
  `elsewhere: copy the lines exactly as they are in the file, in its order`;
