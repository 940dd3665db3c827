/**
 * Aligning the old side with a fuzzy window, so that context lines keep the file's bytes and removals drop the
 * right lines. A line diff on the loose keys pairs the identical lines; the lines it cannot pair are the drifted
 * ones and are paired within each changed stretch (pairStretch). What remains:
 * - an old context line with no partner (the model invented it) covers no file line; a removed one refuses the
 *   match, since the line the model meant to delete cannot be told apart;
 * - a window line with no partner at the window's edge is left outside the match (untouched);
 * - one inside the window joins a neighbouring CONTEXT line and is kept; next to removed lines only, the edit
 *   cannot say whether the model meant to delete it, and the match is refused.
 */
import { diffArrays } from "diff";
import { distance } from "fastest-levenshtein";
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

/** Line comparisons allowed for one uneven stretch (20 x 20 lines). */
const MAX_STRETCH_CELLS = 400;

const lineSimilarity = (a: string, b: string): number =>
  a.length + b.length === 0 ? 1 : 1 - distance(a, b) / Math.max(a.length, b.length);

/**
 * Pairs the drifted lines of one changed stretch. With as many old lines as window lines they pair in order; with
 * a line more on one side, an order-keeping alignment maximising the lines' similarity decides which line is the
 * extra one (pairing in order would shift every later pair by one).
 */
function pairStretch(
  olds: number[],
  windows: number[],
  oldKeys: string[],
  windowKeys: string[],
  partner: number[],
): void {
  if (olds.length === windows.length) {
    olds.forEach((o, k) => (partner[o] = windows[k]!));
    return;
  }
  // A long uneven stretch stays unpaired: its removed lines then refuse the match rather than guess.
  if (olds.length * windows.length > MAX_STRETCH_CELLS) return;
  const rows = olds.length;
  const cols = windows.length;
  const score = Array.from({ length: rows + 1 }, () => new Float64Array(cols + 1));
  for (let r = 1; r <= rows; r++) {
    for (let c = 1; c <= cols; c++) {
      const diagonal = score[r - 1]![c - 1]! + lineSimilarity(oldKeys[olds[r - 1]!]!, windowKeys[windows[c - 1]!]!);
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

export function alignFuzzyWindow(file: TextFile, old: readonly OldLine[], start: number, end: number): FuzzyAlignment {
  const windowKeys = looseKeys(file).slice(start, end);
  const partner = pairLines(
    old.map((l) => looseKey(l.text)),
    windowKeys,
  );
  const owner = windowKeys.map(() => -1);
  partner.forEach((w, i) => {
    if (w >= 0) owner[w] = i;
  });
  const paired = owner.flatMap((o, w) => (o >= 0 ? [w] : []));
  if (paired.length === 0) return { ok: false, note: "the similar region shares no line with the SEARCH" };
  const first = paired[0]!;
  const last = paired[paired.length - 1]!;
  const lost = old.find((l, i) => l.kind === "remove" && partner[i]! < 0);
  if (lost !== undefined) {
    const region = `lines ${start + first + 1}-${start + last + 1}`;
    return { ok: false, note: `the line to remove "${lost.text.trim()}" has no counterpart in the similar ${region}` };
  }
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
