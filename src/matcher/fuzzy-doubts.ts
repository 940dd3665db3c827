/**
 * The reasons a fuzzy window's alignment is not trusted even though it scored well: the signs that its pairs are
 * shifted onto look-alike lines, or that added lines could belong on either side of a line the SEARCH left out.
 * Each returns a note for the model, or undefined.
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
 *   could be on either side of the insertion (lines the model invented in between cover nothing and are fine,
 *   unless a partner is a blank line, which pairs with any blank line and so places nothing unless non-blank pairs
 *   next to it hold it in place);
 * - with one on one side only, no unpaired old line may stand between it and the run: that "invented" line may be
 *   a real line beyond the window's edge, and the run belongs on its far side.
 * Either way, an anchor that an unpaired old line on the run's far side reads the same as places nothing: the diff
 * could as well have paired that line with the anchor's file line, and the run would sit on its other side.
 * Only this pass's old lines count: blank lines a retry dropped place nothing.
 */
export function insertionDoubt(
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
    const twin = lookAlikeAcross(old, partner, p, k, q);
    if (twin !== undefined) {
      return `the edit adds lines between two lines that read "${twin.trim()}", and which of them the file's line is cannot be told: ${INSERTION_ADVICE}`;
    }
    if (p >= 0 && q < old.length) {
      if (partner[q]! - partner[p]! > 1) {
        const line = start + partner[p]! + 2;
        return `line ${line} of the file is not in the SEARCH and sits where the edit adds lines: ${INSERTION_ADVICE}`;
      }
      // A blank pair is no anchor across unpaired lines: the diff pairs any blank line with any other, and the
      // "invented" lines may be real ones before (or after) another blank line, where the run belongs. Nor is a
      // blank pair on the far side of the run from unpaired lines, unless paired lines beyond it hold it in place:
      // the unpaired lines may stand for real ones (a Python "..." is code, not an elision) that end at another
      // blank line, and the run belongs there.
      const before = p < k - 1;
      const after = q > k;
      const loose = (i: number, step: number): boolean => isBlank(old[i]!.text) && !pinned(old, partner, i, step);
      const across =
        (isBlank(old[p]!.text) && before) || (before && loose(q, 1))
          ? old[k - 1]
          : (isBlank(old[q]!.text) && after) || (after && loose(p, -1))
            ? old[k]
            : undefined;
      if (across !== undefined) {
        return `the edit adds lines next to "${across.text.trim()}", which is not in the similar ${region}: ${INSERTION_ADVICE}`;
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

/** Whether a non-blank old line beyond `i` (walking by `step`) is paired in a run of consecutive partners with it. */
function pinned(old: readonly OldLine[], partner: readonly number[], i: number, step: number): boolean {
  for (let j = i + step; j >= 0 && j < old.length && partner[j] === partner[j - step]! + step; j += step)
    if (!isBlank(old[j]!.text)) return true;
  return false;
}

/** The first and last old lines with a partner (the alignment pairs at least one). */
function pairedBounds(partner: readonly number[]): { first: number; last: number } {
  let last = partner.length - 1;
  while (last > 0 && partner[last]! < 0) last--;
  return { first: partner.findIndex((w) => w >= 0), last };
}

/**
 * An old line left unpaired beyond the last (or before the first) paired line that occurs verbatim in the file just
 * past that edge of the match: the window stopped short of the block the model quoted, and its drifted pairs may
 * be shifted onto look-alike neighbours (a removal or insertion would then land a line off). Blank lines are too
 * common to tell. Returns the note, if so.
 */
export function stoppedShort(
  file: TextFile,
  old: readonly OldLine[],
  oldKeys: readonly string[],
  partner: readonly number[],
  region: { start: number; end: number },
): string | undefined {
  const keys = looseKeys(file);
  const { first: firstPaired, last: lastPaired } = pairedBounds(partner);
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
export function driftedLineElsewhere(
  file: TextFile,
  old: readonly OldLine[],
  oldKeys: readonly string[],
  windowKeys: readonly string[],
  partner: readonly number[],
  region: { start: number; end: number },
): string | undefined {
  const drifted = (i: number): boolean => partner[i]! >= 0 && windowKeys[partner[i]!] !== oldKeys[i];
  return quotedNearby(file, old, oldKeys, region, drifted, old.length);
}

/**
 * The same for an old line left without a partner beyond the pairs (one between pairs has its place fixed by them),
 * looked for twice as far: the alignment reads it as a line the model invented, but when the file has it a little
 * further on, the model quoted a real line whose place is not in this window (a Makefile hunk whose `clean:` a
 * paraphrase turned into `install: build` matched the `install` recipe, its last line `clean-perl-script` left
 * unpaired, and changed the wrong recipe).
 */
export function unpairedLineElsewhere(
  file: TextFile,
  old: readonly OldLine[],
  oldKeys: readonly string[],
  partner: readonly number[],
  region: { start: number; end: number },
): string | undefined {
  const { first, last } = pairedBounds(partner);
  const beyond = (i: number): boolean => partner[i]! < 0 && (i < first || i > last);
  return quotedNearby(file, old, oldKeys, region, beyond, 2 * old.length);
}

/** The note for the first selected old line (not blank) that the file holds within `reach` lines of `region`. */
function quotedNearby(
  file: TextFile,
  old: readonly OldLine[],
  oldKeys: readonly string[],
  region: { start: number; end: number },
  selected: (i: number) => boolean,
  reach: number,
): string | undefined {
  const keys = looseKeys(file);
  const from = Math.max(0, region.start - reach);
  const to = Math.min(keys.length, region.end + reach);
  for (let i = 0; i < old.length; i++) {
    if (oldKeys[i] === "" || !selected(i)) continue;
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
