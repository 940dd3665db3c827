/**
 * Cheap pre-filters for similarity search, linear in the file's line count: how many of the wanted lines occur
 * verbatim (after normalisation) in each window, counted as a multiset with sliding counts, and each window's
 * joined length from prefix sums. Only windows that pass are handed to Levenshtein.
 */
import { distance } from "fastest-levenshtein";
import type { TextFile } from "../core/text.js";
import { cached } from "../core/file-memo.js";
import { looseKeys } from "./rungs/unicode.js";

export interface SharedLineIndex {
  /** Per file line: the id of its key among the wanted non-blank keys, or -1. */
  readonly ids: Int32Array;
  /** Per id: how many times the wanted lines contain that key. */
  readonly need: Int32Array;
  /** Non-blank wanted lines. */
  readonly wanted: number;
}

/**
 * The index for a file's loose keys, memoised per file and wanted text: a refused edit builds it once for the
 * fuzzy rung and reuses it to choose the lines its message quotes.
 */
export const sharedLineIndex = (file: TextFile, want: readonly string[]): SharedLineIndex =>
  // Blank wanted lines never enter the index, so the key leaves them out and trimmed variants share one entry.
  cached(file, `shared-lines:${want.filter((k) => k !== "").join("\n")}`, () =>
    indexSharedLines(looseKeys(file), want),
  );

export function indexSharedLines(keys: readonly string[], want: readonly string[]): SharedLineIndex {
  const idOf = new Map<string, number>();
  const counts: number[] = [];
  let wanted = 0;
  for (const key of want) {
    if (key === "") continue;
    wanted++;
    const id = idOf.get(key);
    if (id === undefined) {
      idOf.set(key, counts.length);
      counts.push(1);
    } else counts[id]!++;
  }
  const ids = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) ids[i] = idOf.get(keys[i]!) ?? -1;
  return { ids, need: Int32Array.from(counts), wanted };
}

/**
 * Calls `visit(start, shared)` for every window of `size` lines, where `shared` is the size of the multiset
 * intersection of the window's keys and the wanted keys. O(file lines).
 */
export function forEachWindow(
  index: SharedLineIndex,
  size: number,
  visit: (start: number, shared: number) => void,
): void {
  const { ids, need } = index;
  const total = ids.length;
  if (size < 1 || size > total) return;
  const have = new Int32Array(need.length);
  let shared = 0;
  const add = (id: number): void => {
    if (id < 0) return;
    if (have[id]! < need[id]!) shared++;
    have[id]!++;
  };
  const drop = (id: number): void => {
    if (id < 0) return;
    have[id]!--;
    if (have[id]! < need[id]!) shared--;
  };
  for (let i = 0; i < size; i++) add(ids[i]!);
  visit(0, shared);
  for (let start = 1; start + size <= total; start++) {
    drop(ids[start - 1]!);
    add(ids[start + size - 1]!);
    visit(start, shared);
  }
}

/** Prefix sums of the loose keys' lengths plus one newline each: a window's joined length in O(1). */
export function loosePrefixLengths(file: TextFile): Float64Array {
  return cached(file, "loose-prefix-lengths", () => {
    const keys = looseKeys(file);
    const sums = new Float64Array(keys.length + 1);
    for (let i = 0; i < keys.length; i++) sums[i + 1] = sums[i]! + keys[i]!.length + 1;
    return sums;
  });
}

/** Length of the loose keys of lines [start, start + size) joined with `\n`. */
export const joinedLength = (sums: Float64Array, start: number, size: number): number =>
  sums[start + size]! - sums[start]! - 1;

/**
 * An upper bound on a window's similarity from character counts alone: every edit operation changes the counts
 * by at most one, so levenshtein >= the larger of the surplus and the shortage of characters (the bag distance).
 * The counts follow the windows asked about: moving forward by a few lines costs those lines only.
 */
export interface CharacterWindow {
  /** The bound for the window of `size` lines at `start` (starts must not decrease between calls). */
  readonly boundAt: (start: number, length: number) => number;
}

export function characterWindow(keys: readonly string[], wantText: string, size: number): CharacterWindow {
  const want = new Int32Array(0x10000);
  for (let i = 0; i < wantText.length; i++) want[wantText.charCodeAt(i)]!++;
  const have = new Int32Array(0x10000);
  let surplus = 0;
  let shortage = wantText.length;
  const addLine = (line: string): void => {
    for (let i = 0; i < line.length; i++) {
      const code = line.charCodeAt(i);
      if (have[code]!++ >= want[code]!) surplus++;
      else shortage--;
    }
  };
  const removeLine = (line: string): void => {
    for (let i = 0; i < line.length; i++) {
      const code = line.charCodeAt(i);
      if (--have[code]! >= want[code]!) surplus--;
      else shortage++;
    }
  };
  // The size - 1 newlines joining the lines.
  addLine("\n".repeat(Math.max(0, size - 1)));
  let at = 0;
  for (let i = 0; i < size; i++) addLine(keys[i]!);
  return {
    boundAt: (start, length) => {
      // Old lines that are not in the new window leave, new ones enter (all of both when they do not overlap).
      const leaveEnd = Math.min(start, at + size);
      for (let i = at; i < leaveEnd; i++) removeLine(keys[i]!);
      for (let i = Math.max(start, at + size); i < start + size; i++) addLine(keys[i]!);
      at = start;
      const longest = Math.max(length, wantText.length);
      return longest === 0 ? 1 : 1 - Math.max(surplus, shortage) / longest;
    },
  };
}

export interface Similarity {
  readonly similarity: number;
  /** Character comparisons spent: the edit-distance matrix left after the common prefix and suffix. */
  readonly cost: number;
}

/**
 * 1 − levenshtein / max length. The common prefix and suffix are set aside first (the distance does not change),
 * which makes a near-identical window nearly free. Returns undefined, spending nothing, when the comparison would
 * cost more than `budget`.
 */
export function similarity(a: string, b: string, budget: number): Similarity | undefined {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return { similarity: 1, cost: 0 };
  let head = 0;
  const shortest = Math.min(a.length, b.length);
  while (head < shortest && a.charCodeAt(head) === b.charCodeAt(head)) head++;
  let tail = 0;
  while (tail < shortest - head && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail++;
  const restA = a.slice(head, a.length - tail);
  const restB = b.slice(head, b.length - tail);
  const cost = restA.length * restB.length;
  if (cost > budget) return undefined;
  const d = restA.length === 0 || restB.length === 0 ? Math.max(restA.length, restB.length) : distance(restA, restB);
  return { similarity: 1 - d / longest, cost };
}
