/**
 * Rung 7, bounded fuzzy: for a SEARCH that drifted from the file by a typo or a small edit the model made while
 * copying. A wrong edit is the worst outcome, so it applies only a window that is both very similar and clearly
 * better than any other place.
 * Which windows are compared, and how: fuzzy-search.ts.
 */
import type { TextFile } from "../core/text.js";
import { isBlank } from "./normalize.js";
import type { OldLine } from "./old-side.js";
import { better, scoreWindows, type Scored } from "./fuzzy-search.js";
import { looseKey } from "./rungs/unicode.js";

/**
 * Minimum similarity of the chosen window. Peers: Roo Code tests use 0.9 (default 1.0), Zed 0.8 per line, Aider's
 * disabled fallback 0.8, Cline's SDK 0.66 (observed to be too loose). At 0.9 a 6-line block tolerates a typo or a
 * renamed word, not a different statement.
 */
export const FUZZY_THRESHOLD = 0.9;

/**
 * Required lead of the best window over the best window that does not overlap it. Two near-identical functions
 * must not be resolved by a coin flip: below this lead the edit is ambiguous.
 */
export const FUZZY_MARGIN = 0.05;

/**
 * Character comparisons one lookup may spend on Levenshtein: the cells of the edit-distance matrices after common
 * prefixes and suffixes are set aside. 60 million is about 20 ms with fastest-levenshtein's bit-parallel
 * algorithm here; a near-identical window costs next to nothing, so only pathological files reach it.
 */
export const FUZZY_BUDGET = 60_000_000;

/** A SEARCH smaller than this is too short to be recognised safely by similarity. */
const MIN_NON_BLANK_LINES = 2;
const MIN_CHARACTERS = 40;

export interface FuzzyOptions {
  readonly threshold: number;
  readonly margin: number;
  readonly budget: number;
}

export type FuzzyOutcome =
  | {
      readonly kind: "found";
      readonly start: number;
      readonly end: number;
      readonly similarity: number;
      /**
       * Windows overlapping this one that score within the margin of it (a line more or less, or shifted by one):
       * the same region read another way, which the caller checks puts the edit in the same place.
       */
      readonly near: readonly { readonly start: number; readonly end: number }[];
    }
  | { readonly kind: "ambiguous"; readonly starts: readonly number[] }
  | { readonly kind: "not-found"; readonly note?: string };

const percent = (x: number): string => `${Math.floor(x * 1000) / 10} %`;
const overlaps = (a: Scored, b: Scored): boolean => a.start < b.start + b.size && b.start < a.start + a.size;
const covers = (a: Scored, line: number): boolean => a.start <= line && line < a.start + a.size;

/** Whether the old side is long enough for the fuzzy rung. */
export function fuzzyEligible(old: readonly OldLine[]): boolean {
  const real = old.filter((l) => !isBlank(l.text));
  const characters = real.reduce((sum, l) => sum + l.text.replace(/\s+/g, "").length, 0);
  return real.length >= MIN_NON_BLANK_LINES && characters >= MIN_CHARACTERS;
}

/**
 * The fuzzy rung for an old side without elisions. `hintedStart` is where a line number in the edit says the old
 * side starts (0-based, in the current file), if it says so.
 */
export function locateFuzzy(
  file: TextFile,
  old: readonly OldLine[],
  options: FuzzyOptions,
  hintedStart?: number,
): FuzzyOutcome {
  if (!fuzzyEligible(old)) return { kind: "not-found" };
  const want = old.map((l) => looseKey(l.text));
  const scored = scoreWindows(file, want, options, hintedStart);
  if (scored === "exhausted") {
    return {
      kind: "not-found",
      note: `the fuzzy search stopped at its budget of ${options.budget} character comparisons; copy the lines exactly`,
    };
  }
  let best: Scored | undefined;
  for (const s of scored) if (best === undefined || better(s, best, want.length)) best = s;
  if (best === undefined) {
    const floor = percent(Math.max(0, options.threshold - options.margin));
    return {
      kind: "not-found",
      note: `no region of the file is ${floor} similar to the SEARCH text; a fuzzy match needs ${percent(options.threshold)}`,
    };
  }
  const lines = `lines ${best.start + 1}-${best.start + best.size}`;
  if (best.similarity < options.threshold) {
    return {
      kind: "not-found",
      note: `the most similar region (${lines}) is ${percent(best.similarity)} similar; a fuzzy match needs ${percent(options.threshold)}`,
    };
  }
  const rivals: Scored[] = [];
  const ranked = [...scored].sort((a, b) => (better(a, b, want.length) ? -1 : 1));
  for (const s of ranked) {
    if (s.charged <= best.charged - options.margin || overlaps(s, best)) continue;
    if (rivals.some((r) => overlaps(r, s))) continue;
    rivals.push(s);
  }
  // A line number never makes a match, but it can unmake one: when the place it names holds a window nearly as
  // similar (above threshold - margin) apart from the best one, the text and the position point to two places.
  if (hintedStart !== undefined && !covers(best, hintedStart)) {
    const named = ranked.find(
      (s) => covers(s, hintedStart) && !overlaps(s, best) && s.similarity >= options.threshold - options.margin,
    );
    if (named !== undefined) rivals.push(named);
  }
  // Nor does it make one here, but it can tell near-identical places apart (as it does between equal ones on the
  // other rungs): when it names the best window's first line exactly and every rival is less similar, the text and
  // the position agree on one place. A rival as similar stays a tie whatever the line number says.
  const settled =
    hintedStart === best.start && rivals.every((r) => r.similarity < best.similarity && r.charged < best.charged);
  if (rivals.length > 0 && !settled) {
    const starts = [best, ...rivals].map((s) => s.start).sort((a, b) => a - b);
    return { kind: "ambiguous", starts };
  }
  const near = scored
    .filter((s) => s !== best && overlaps(s, best) && s.similarity > best.similarity - options.margin)
    .map((s) => ({ start: s.start, end: s.start + s.size }));
  // Nor does a line number make a match among overlapping windows, but the window it names the first line of can
  // unmake one: nearly as similar (above threshold - margin), its reading is weighed as a near window's is (the
  // edit lands only where every such reading puts it).
  if (hintedStart !== undefined && best.start !== hintedStart) {
    const named = ranked.find(
      (s) => s.start === hintedStart && overlaps(s, best) && s.similarity >= options.threshold - options.margin,
    );
    if (named !== undefined && !near.some((n) => n.start === named.start && n.end === named.start + named.size)) {
      near.push({ start: named.start, end: named.start + named.size });
    }
  }
  return { kind: "found", start: best.start, end: best.start + best.size, similarity: best.similarity, near };
}
