/**
 * Aligning the old side with a fuzzy window, so that context lines keep the file's bytes and removals drop the
 * right lines. Lines pair only with a line close to them (fuzzy-pairings.ts): the window can be a line shorter or
 * longer than the old side, and pairing by position alone would make a removal delete whatever line happens to sit
 * there. A window can be paired in more than one way (a repeated line, a drifted line next to an identical one), so
 * each pairing is a reading that fuzzy-readings.ts weighs against the others. Within one reading:
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
import type { LineOp } from "../core/edit.js";
import { isBareEllipsis } from "../formats/shared/elision.js";
import type { TextFile } from "../core/text.js";
import { PAIRINGS, pairAround, pairings } from "./fuzzy-pairings.js";
import type { LinePair } from "./indent-structure.js";
import type { OldLine } from "./old-side.js";
import { looseKey, looseKeys, looseSignatures } from "./rungs/unicode.js";
import { insertionDoubt, removalDoubt, sightings, type Sighting } from "./fuzzy-doubts.js";
import type { Alignment } from "./types.js";
import { findWindows } from "./windows.js";

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
  most = PAIRINGS,
): FuzzyAlignment[] {
  const windowKeys = looseKeys(file).slice(start, end);
  const oldKeys = old.map((l) => looseKey(l.text));
  const exact = (r: number, c: number): boolean => old[r]!.text.trimEnd() === file.lines[start + c]!.trimEnd();
  const partners = pairings(oldKeys, windowKeys, exact, most);
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
  const partner = pairAround(oldKeys, windowKeys, fixed.line, fixed.at - start);
  return alignPartners(file, ops, old, start, oldKeys, windowKeys, partner);
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
  const region = first === last ? `line ${start + first + 1}` : `lines ${start + first + 1}-${start + last + 1}`;
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
  const keys = looseKeys(file);
  const inFileBeyond = (line: number, from: number, step: 1 | -1): boolean => {
    const copies = findWindows(keys, [oldKeys[line]!], 0, keys.length, looseSignatures(file));
    return copies.some((at) => (at - from) * step > 0);
  };
  const doubt =
    removalDoubt(old, partner) ?? insertionDoubt(ops, old, partner, start, region, drifted, inFileBeyond, keys);
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
    pairs.push({ model: line.text, file: file.lines[start + partner[i]!]!, line: start + partner[i]! });
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
