/**
 * The fuzzy rung's search: the similarity of every window the decision in fuzzy.ts can read, and of no other.
 *
 * Windows have the old side's line count, or one line more or less, and are compared on their loose keys
 * (trimmed, Unicode-folded, whitespace-collapsed lines joined with `\n`). A window is compared (Levenshtein) only
 * when cheap filters leave it a chance: at least half of the old side's non-blank lines occur verbatim in it, and
 * neither its length nor its character counts keep it below the floor it must reach. The floor is what the
 * decision needs: first the best window (found from the windows sharing the most lines, then confirmed against
 * every window whose bound reaches its similarity); then every window that could be within the margin of it
 * (above best.charged − margin: a rival's charged score and a near window's similarity must exceed that, and both
 * are at most the similarity), and the windows around the hinted line down to threshold − margin. In a file of
 * look-alike functions tens of thousands of windows share half the lines, and a handful reach the floor.
 */
import type { TextFile } from "../core/text.js";
import { looseKeys } from "./rungs/unicode.js";
import { characterWindow, joinedLength, looseWindowsSharing, similarity } from "./window-filter.js";

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

/** Better similarity first; on a tie the window of the old side's own size, then the earlier one. */
export function better(a: Scored, b: Scored, size: number): boolean {
  if (a.similarity !== b.similarity) return a.similarity > b.similarity;
  const da = Math.abs(a.size - size);
  const db = Math.abs(b.size - size);
  if (da !== db) return da < db;
  return a.start < b.start;
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
  const wantText = want.join("\n");
  const wantLines = nonBlank(want, 0, want.length);
  const minShared = Math.ceil(wantLines / 2);
  const lowest = options.threshold - options.margin;
  const sizes = [want.length - 1, want.length, want.length + 1].filter((n) => n >= 1 && n <= keys.length);
  const bySize = looseWindowsSharing(file, want, sizes, minShared);
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

  // The windows sharing enough lines, packed as start * 4 + size index: in numeric order, by start, then size. The
  // seeds: the first windows of each size sharing the most lines.
  const most = bySize.reduce((m, { shared }) => shared.reduce((a, b) => Math.max(a, b), m), 0);
  const sharing = new Int32Array(bySize.reduce((n, { starts }) => n + starts.length, 0));
  const seeds: number[] = [];
  let packed = 0;
  bySize.forEach(({ starts, shared }, k) => {
    for (let i = 0, taken = 0; i < starts.length; i++) {
      sharing[packed++] = starts[i]! * 4 + k;
      if (shared[i] === most && taken++ < SEEDS) seeds.push(starts[i]! * 4 + k);
    }
  });
  sharing.sort();

  // Compares every window sharing enough lines whose length and characters leave it a chance of `floor()`, or of
  // `hintedFloor` when it holds the hinted line. `windows` are packed as `sharing` is.
  const sweep = (windows: ArrayLike<number>, floor: () => number, hintedFloor = Infinity): void => {
    const chars = characterWindow(keys, wantText, sizes[0] ?? 0);
    for (let w = 0; w < windows.length && !state.exhausted; w++) {
      const start = windows[w]! >> 2;
      const size = sizes[windows[w]! & 3]!;
      const hinted = hintedStart !== undefined && start <= hintedStart && hintedStart < start + size;
      const needed = (hinted ? Math.min(hintedFloor, floor()) : floor()) - ROUNDING;
      const length = joinedLength(keys, start, size);
      // lev >= the difference in length.
      if (1 - Math.abs(length - wantText.length) / Math.max(length, wantText.length, 1) < needed) continue;
      if (chars.boundAt(start, size, length) >= needed) compare(start, size);
    }
  };

  // The seeds first, at the lowest floor, to give the search a best window to confirm.
  sweep(
    seeds.sort((a, b) => a - b),
    () => lowest,
  );
  // The best window: the similarity to beat only rises, so a window passed over stays below it.
  sweep(sharing, () => Math.max(lowest, state.best?.similarity ?? lowest));
  const { best } = state;
  if (best !== undefined) {
    const floor = Math.max(lowest, best.charged - options.margin);
    sweep(sharing, () => floor, lowest);
  }
  return state.exhausted ? "exhausted" : [...compared.values()];
}
