/**
 * The fuzzy rung's search: the similarity of every window the decision in fuzzy.ts can read, and of no other.
 *
 * Windows have the old side's line count, or one line more or less, and are compared on their loose keys
 * (trimmed, Unicode-folded, whitespace-collapsed lines joined with `\n`). A window is compared (Levenshtein) only
 * when cheap filters leave it a chance: at least half of the old side's non-blank lines occur verbatim in it, and
 * neither its length nor its character counts (by classes kept per line first, then exactly: character-bounds.ts)
 * keep it below the floor it must reach. The floor is what the decision needs: every window that could be within
 * the margin of the best one (above best.charged − margin: a rival's charged score and a near window's similarity
 * must exceed that, and both are at most the similarity), and the windows around the hinted line down to
 * threshold − margin. The best is guessed first from the windows sharing the most lines (the seeds); one sweep at
 * the floor that guess sets also finds any better window, and the windows are swept again only when the best found
 * sets a lower floor. In a file of look-alike functions tens of thousands of windows share half the lines, and a
 * handful reach the floor.
 */
import type { TextFile } from "../core/text.js";
import { characterWindow, classWindow, looseClassCounts } from "./character-bounds.js";
import { looseKeys } from "./rungs/unicode.js";
import { similarity } from "./similarity.js";
import { looseWindowsSharing, type SharingWindows } from "./window-filter.js";

/**
 * What a window pays, in characters of edit distance, per non-blank line it has more or fewer than the SEARCH,
 * when its lead over another place is measured. Levenshtein over the joined text charges a missing line its own
 * length, so a short one (`/**`, `}`, a Python `...`) went nearly free, and a window that simply lacked it beat the
 * place the model meant, where one line had drifted. A line more or less is a structural difference, so it costs
 * at least this much when two places compete; it does not count against the threshold, so a window that is alone
 * still lands with a line the model dropped. Blank lines stay free (models drop and add them all the time).
 */
export const UNPAIRED_LINE_COST = 8;

export interface Scored {
  readonly start: number;
  readonly size: number;
  readonly similarity: number;
  /** `similarity` with UNPAIRED_LINE_COST charged: what a lead over another place is measured in. */
  readonly charged: number;
}

export interface SearchOptions {
  readonly threshold: number;
  readonly margin: number;
  readonly budget: number;
}

/**
 * Better similarity first; on a tie the window of the old side's own size, then the earlier one, then the shorter
 * one: a total order, so the decision does not depend on the order the search compared windows in.
 */
export function better(a: Scored, b: Scored, size: number): boolean {
  if (a.similarity !== b.similarity) return a.similarity > b.similarity;
  const da = Math.abs(a.size - size);
  const db = Math.abs(b.size - size);
  if (da !== db) return da < db;
  if (a.start !== b.start) return a.start < b.start;
  return a.size < b.size;
}

/** Windows of the most shared lines compared first, to give the search a best window to confirm. */
const SEEDS = 16;

/** Rounding allowance: a bound is taken to reach a floor it misses by less than this. */
const ROUNDING = 1e-9;

function nonBlank(keys: readonly string[], from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (keys[i] !== "") n++;
  return n;
}

/** `want` (loose keys of the old side) against the file: the compared windows, or "exhausted" past the budget. */
export function scoreWindows(
  file: TextFile,
  want: readonly string[],
  options: SearchOptions,
  hintedStart: number | undefined,
): Scored[] | "exhausted" {
  const keys = looseKeys(file);
  const classCounts = looseClassCounts(file);
  const wantText = want.join("\n");
  const wantLines = nonBlank(want, 0, want.length);
  const minShared = Math.ceil(wantLines / 2);
  const lowest = options.threshold - options.margin;
  const sizes = [want.length - 1, want.length, want.length + 1].filter((n) => n >= 1 && n <= keys.length);
  // Levenshtein is at least the difference in length: below `lowest` on length alone, a window is never compared.
  const lengthFloor = lowest - ROUNDING;
  const lengths =
    lengthFloor > 0 ? { min: wantText.length * lengthFloor, max: wantText.length / lengthFloor } : undefined;
  const sharing = looseWindowsSharing(file, want, sizes, minShared, lengths);
  const compared = new Map<number, Scored>();
  const state: { best: Scored | undefined; budget: number; exhausted: boolean } = {
    best: undefined,
    budget: options.budget,
    exhausted: false,
  };

  const compare = (start: number, size: number): void => {
    const id = start * 4 + size - want.length + 1;
    if (state.exhausted || compared.has(id)) return;
    const windowText = keys.slice(start, start + size).join("\n");
    const result = similarity(wantText, windowText, state.budget);
    if (result === undefined) {
      state.exhausted = true;
      return;
    }
    state.budget -= result.cost;
    const unpaired = size === want.length ? 0 : Math.abs(nonBlank(keys, start, start + size) - wantLines);
    const penalty = (unpaired * UNPAIRED_LINE_COST) / Math.max(wantText.length, windowText.length, 1);
    const window = { start, size, similarity: result.similarity, charged: result.similarity - penalty };
    compared.set(id, window);
    if (state.best === undefined || better(window, state.best, want.length)) state.best = window;
  };

  // The seeds: the first windows of each size sharing the most lines.
  const most = sharing.shared.reduce((a, b) => Math.max(a, b), 0);

  // Compares every window sharing enough lines whose length and characters leave it a chance of `floor()`, or of
  // `hintedFloor` when it holds the hinted line.
  const sweep = (windows: SharingWindows, floor: () => number, hintedFloor = Infinity): void => {
    const chars = characterWindow(keys, wantText, sizes[0] ?? 0);
    const classes = classWindow(classCounts, keys, wantText, sizes[0] ?? 0);
    for (let w = 0; w < windows.starts.length && !state.exhausted; w++) {
      const start = windows.starts[w]!;
      const size = sizes[windows.sizes[w]!]!;
      const hinted = hintedStart !== undefined && start <= hintedStart && hintedStart < start + size;
      const needed = (hinted ? Math.min(hintedFloor, floor()) : floor()) - ROUNDING;
      const length = windows.lengths[w]!;
      // lev >= the difference in length.
      if (1 - Math.abs(length - wantText.length) / Math.max(length, wantText.length, 1) < needed) continue;
      if (classes.boundAt(start, size, length) < needed) continue;
      if (chars.boundAt(start, size, length) >= needed) compare(start, size);
    }
  };

  // The seeds first, at the lowest floor, to give the search a best window to confirm.
  sweep(seedsOf(sharing, most), () => lowest);
  const floorOf = (best: Scored): number => Math.max(lowest, best.charged - options.margin);
  const seeded = state.best;
  let swept = Infinity;
  if (seeded !== undefined) {
    // One sweep at the floor the seeds' best sets: a better window is above it, and so is every window the
    // decision reads, unless the best found turns out to be charged less than the seeds' one (then again below).
    swept = floorOf(seeded);
    sweep(sharing, () => swept, lowest);
  } else {
    // The best window: the similarity to beat only rises, so a window passed over stays below it.
    sweep(sharing, () => Math.max(lowest, state.best?.similarity ?? lowest));
  }
  const { best } = state;
  if (best !== undefined && floorOf(best) < swept) {
    const floor = floorOf(best);
    sweep(sharing, () => floor, lowest);
  }
  return state.exhausted ? "exhausted" : [...compared.values()];
}

/** The first SEEDS windows of each size sharing `most` lines, in the same order. */
function seedsOf(windows: SharingWindows, most: number): SharingWindows {
  const taken = [0, 0, 0, 0];
  const picked: number[] = [];
  for (let w = 0; w < windows.starts.length; w++) {
    if (windows.shared[w] === most && taken[windows.sizes[w]!]!++ < SEEDS) picked.push(w);
  }
  return {
    starts: Int32Array.from(picked, (w) => windows.starts[w]!),
    sizes: Uint8Array.from(picked, (w) => windows.sizes[w]!),
    shared: Int32Array.from(picked, (w) => windows.shared[w]!),
    lengths: Int32Array.from(picked, (w) => windows.lengths[w]!),
  };
}
