/**
 * Rung 7, bounded fuzzy: for a SEARCH that drifted from the file by a typo or a small edit the model made while
 * copying. A wrong edit is the worst outcome, so it applies only a window that is both very similar and clearly
 * better than any other place.
 *
 * Windows have the old side's line count, or one line more or less. Each is compared on its loose keys (trimmed,
 * Unicode-folded, whitespace-collapsed lines joined with `\n`), after cheap filters: at least half of the old
 * side's non-blank lines occur verbatim in the window, and neither the lengths nor the character counts rule out
 * reaching threshold − margin (below that a window can be neither the match nor its runner-up).
 */
import type { TextFile } from "../core/text.js";
import { isBlank } from "./normalize.js";
import type { OldLine } from "./old-side.js";
import { looseKey, looseKeys } from "./rungs/unicode.js";
import {
  characterWindow,
  forEachWindow,
  sharedLineIndex,
  joinedLength,
  loosePrefixLengths,
  similarity,
} from "./window-filter.js";

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

/**
 * What a window pays, in characters of edit distance, per non-blank line it has more or fewer than the SEARCH,
 * when its lead over another place is measured. Levenshtein over the joined text charges a missing line its own
 * length, so a short one (`/**`, `}`, a Python `...`) went nearly free, and a window that simply lacked it beat the
 * place the model meant, where one line had drifted. A line more or less is a structural difference, so it costs
 * at least this much when two places compete; it does not count against the threshold, so a window that is alone
 * still lands with a line the model dropped. Blank lines stay free (models drop and add them all the time).
 */
export const UNPAIRED_LINE_COST = 8;

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

interface Scored {
  readonly start: number;
  readonly size: number;
  readonly similarity: number;
  /** `similarity` with UNPAIRED_LINE_COST charged: what a lead over another place is measured in. */
  readonly charged: number;
}

const percent = (x: number): string => `${Math.floor(x * 1000) / 10} %`;
const overlaps = (a: Scored, b: Scored): boolean => a.start < b.start + b.size && b.start < a.start + a.size;
const covers = (a: Scored, line: number): boolean => a.start <= line && line < a.start + a.size;

/** Whether the old side is long enough for the fuzzy rung. */
export function fuzzyEligible(old: readonly OldLine[]): boolean {
  const real = old.filter((l) => !isBlank(l.text));
  const characters = real.reduce((sum, l) => sum + l.text.replace(/\s+/g, "").length, 0);
  return real.length >= MIN_NON_BLANK_LINES && characters >= MIN_CHARACTERS;
}

/** Better similarity first; on a tie the window of the old side's own size, then the earlier one. */
function better(a: Scored, b: Scored, size: number): boolean {
  if (a.similarity !== b.similarity) return a.similarity > b.similarity;
  const da = Math.abs(a.size - size);
  const db = Math.abs(b.size - size);
  if (da !== db) return da < db;
  return a.start < b.start;
}

function nonBlank(keys: readonly string[], from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (keys[i] !== "") n++;
  return n;
}

function scoreWindows(file: TextFile, want: readonly string[], options: FuzzyOptions): Scored[] | "exhausted" {
  const keys = looseKeys(file);
  const index = sharedLineIndex(file, want);
  const sums = loosePrefixLengths(file);
  const wantText = want.join("\n");
  const minShared = Math.ceil(index.wanted / 2);
  // Windows that cannot reach threshold - margin cannot be a runner-up either: lev >= |lenA - lenB|.
  const slack = 1 - Math.max(0, options.threshold - options.margin);
  const floor = options.threshold - options.margin;
  const survivors: { start: number; size: number }[] = [];
  for (const size of [want.length - 1, want.length, want.length + 1]) {
    if (size < 1 || size > keys.length) continue;
    const chars = characterWindow(keys, wantText, size);
    forEachWindow(index, size, (start, shared) => {
      if (shared < minShared) return;
      const length = joinedLength(sums, start, size);
      if (Math.abs(length - wantText.length) > slack * Math.max(length, wantText.length)) return;
      if (chars.boundAt(start, length) >= floor) survivors.push({ start, size });
    });
  }
  let budget = options.budget;
  const scored: Scored[] = [];
  const wantLines = nonBlank(want, 0, want.length);
  for (const { start, size } of survivors) {
    const windowText = keys.slice(start, start + size).join("\n");
    const result = similarity(wantText, windowText, budget);
    if (result === undefined) return "exhausted";
    budget -= result.cost;
    const unpaired = size === want.length ? 0 : Math.abs(nonBlank(keys, start, start + size) - wantLines);
    const penalty = (unpaired * UNPAIRED_LINE_COST) / Math.max(wantText.length, windowText.length, 1);
    scored.push({ start, size, similarity: result.similarity, charged: result.similarity - penalty });
  }
  return scored;
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
  const scored = scoreWindows(file, want, options);
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
  if (rivals.length > 0) {
    const starts = [best, ...rivals].map((s) => s.start).sort((a, b) => a - b);
    return { kind: "ambiguous", starts };
  }
  const near = scored
    .filter((s) => s !== best && overlaps(s, best) && s.similarity > best.similarity - options.margin)
    .map((s) => ({ start: s.start, end: s.start + s.size }));
  return { kind: "found", start: best.start, end: best.start + best.size, similarity: best.similarity, near };
}
