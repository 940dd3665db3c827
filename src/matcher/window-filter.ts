/**
 * Cheap pre-filters for similarity search: how many of the wanted lines occur verbatim (after normalisation) in
 * each window, counted as a multiset, found from the lines holding a wanted key (one pass over the file finds
 * them); each window's joined length from prefix sums; its character counts. Only windows that pass are handed
 * to Levenshtein.
 */
import { distance } from "fastest-levenshtein";
import type { TextFile } from "../core/text.js";
import { cached } from "../core/file-memo.js";
import { looseKeys, looseSignature, looseSignatures } from "./rungs/unicode.js";
import type { KeySignatures } from "./windows.js";

export interface SharedLineIndex {
  /** Ascending 0-based lines of the file whose key is one of the wanted non-blank keys. */
  readonly lines: Int32Array;
  /** Per entry of `lines`: the id of its key. */
  readonly ids: Int32Array;
  /** Per id: how many times the wanted lines contain that key. */
  readonly need: Int32Array;
  /** Non-blank wanted lines. */
  readonly wanted: number;
  /** The file's line count. */
  readonly total: number;
}

/**
 * The index for a file's loose keys, memoised per file and wanted text: a refused edit builds it once for the
 * fuzzy rung and reuses it to choose the lines its message quotes.
 */
export const sharedLineIndex = (file: TextFile, want: readonly string[]): SharedLineIndex =>
  // Blank wanted lines never enter the index, so the key leaves them out and trimmed variants share one entry.
  cached(file, `shared-lines:${want.filter((k) => k !== "").join("\n")}`, () =>
    indexSharedLines(looseKeys(file), want, { lines: looseSignatures(file), sign: looseSignature }),
  );

export function indexSharedLines(
  keys: readonly string[],
  want: readonly string[],
  signatures?: KeySignatures,
): SharedLineIndex {
  const idOf = new Map<string, number>();
  const counts: number[] = [];
  // Looking every file line up in the map costs tens of nanoseconds a line; a line whose signature (or, without
  // signatures, length) no wanted key has is ruled out by one bit first.
  const bits = new Uint8Array(FILTER_BITS);
  const bitOf = (key: string): number => (signatures === undefined ? key.length : signatures.sign(key)) & FILTER_MASK;
  let wanted = 0;
  for (const key of want) {
    if (key === "") continue;
    wanted++;
    bits[bitOf(key)] = 1;
    const id = idOf.get(key);
    if (id === undefined) {
      idOf.set(key, counts.length);
      counts.push(1);
    } else counts[id]!++;
  }
  const lines: number[] = [];
  const ids: number[] = [];
  const signed = signatures?.lines;
  for (let i = 0; i < keys.length; i++) {
    if (bits[(signed === undefined ? keys[i]!.length : signed[i]!) & FILTER_MASK] === 0) continue;
    const id = idOf.get(keys[i]!);
    if (id === undefined) continue;
    lines.push(i);
    ids.push(id);
  }
  return {
    lines: Int32Array.from(lines),
    ids: Int32Array.from(ids),
    need: Int32Array.from(counts),
    wanted,
    total: keys.length,
  };
}

const FILTER_BITS = 4096;
const FILTER_MASK = FILTER_BITS - 1;

/** Windows of one size, ascending by start, with how many wanted lines each shares. */
export interface SharingWindows {
  readonly starts: Int32Array;
  readonly shared: Int32Array;
}

/**
 * Every window of `size` lines sharing at least `atLeast` (>= 1) lines with the wanted ones, counted as a
 * multiset intersection. A line enters the windows that start up to `size - 1` lines before it and leaves them
 * after it, so the count changes only at those starts: the cost is the lines holding wanted keys plus the windows
 * returned, not the file's length.
 */
export function windowsSharing(index: SharedLineIndex, size: number, atLeast: number): SharingWindows {
  const { lines, ids, need, total } = index;
  const last = total - size;
  const starts: number[] = [];
  const counts: number[] = [];
  if (size < 1 || last < 0) return { starts: new Int32Array(0), shared: new Int32Array(0) };
  const have = new Int32Array(need.length);
  let shared = 0;
  let entered = 0;
  let left = 0;
  let from = 0;
  while (from <= last && left < lines.length) {
    const enterAt = entered < lines.length ? Math.max(0, lines[entered]! - size + 1) : Infinity;
    const leaveAt = left < entered ? lines[left]! + 1 : Infinity;
    const at = Math.min(enterAt, leaveAt);
    if (shared >= atLeast) {
      for (let start = from; start < Math.min(at, last + 1); start++) {
        starts.push(start);
        counts.push(shared);
      }
    }
    from = at;
    if (leaveAt === at) {
      const id = ids[left++]!;
      if (--have[id]! < need[id]!) shared--;
    } else {
      const id = ids[entered++]!;
      if (have[id]!++ < need[id]!) shared++;
    }
  }
  return { starts: Int32Array.from(starts), shared: Int32Array.from(counts) };
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
 *
 * The counts follow the windows asked about. They are kept for the `core` lines every asked window starts with,
 * and a window's further lines are added for the question and taken out again, so windows of several sizes at
 * one start cost their core once. Moving forward by a few lines costs those lines; a jump past the core forgets
 * it (the classes it touched are zeroed) and counts the new core afresh.
 */
export interface CharacterWindow {
  /** The bound for the window of `size` (>= core) lines at `start` (starts must not decrease between calls). */
  readonly boundAt: (start: number, size: number, length: number) => number;
}

/**
 * Characters are counted in classes: each of the first 256 codes its own, every other code in one of 256 shared
 * classes. Counting classes instead of characters can only lower the bound (a surplus of one character and a
 * shortage of another cancel in a shared class), so it stays a bound; the counts fit a small array that each
 * window search allocates afresh.
 */
const CLASSES = 512;
const classOf = (code: number): number => (code < 256 ? code : 256 | (code & 255));

export function characterWindow(keys: readonly string[], wantText: string, core: number): CharacterWindow {
  const want = new Int32Array(CLASSES);
  for (let i = 0; i < wantText.length; i++) want[classOf(wantText.charCodeAt(i))]!++;
  const have = new Int32Array(CLASSES);
  let surplus = 0;
  let shortage = wantText.length;
  const addLine = (line: string): void => {
    for (let i = 0; i < line.length; i++) {
      const code = classOf(line.charCodeAt(i));
      if (have[code]!++ >= want[code]!) surplus++;
      else shortage--;
    }
  };
  const removeLine = (line: string): void => {
    for (let i = 0; i < line.length; i++) {
      const code = classOf(line.charCodeAt(i));
      if (--have[code]! >= want[code]!) surplus--;
      else shortage++;
    }
  };
  const forget = (from: number): void => {
    for (let i = from; i < from + core; i++) {
      const line = keys[i]!;
      for (let j = 0; j < line.length; j++) have[classOf(line.charCodeAt(j))] = 0;
    }
    have[classOf(10)] = 0;
    surplus = 0;
    shortage = wantText.length;
  };
  // The lines of a window and the newlines joining them (one per line after the first).
  const newline = "\n";
  const enter = (line: string, first: boolean): void => {
    if (!first) addLine(newline);
    addLine(line);
  };
  const leave = (line: string, first: boolean): void => {
    if (!first) removeLine(newline);
    removeLine(line);
  };
  let at = -1;
  const moveTo = (start: number): void => {
    if (at >= 0 && start < at + core) {
      // Overlapping: the lines before `start` leave (the newline after each goes with the next line's turn).
      for (let i = at; i < start; i++) {
        removeLine(keys[i]!);
        removeLine(newline);
      }
      for (let i = at + core; i < start + core; i++) enter(keys[i]!, false);
    } else {
      if (at >= 0) forget(at);
      for (let i = start; i < start + core; i++) enter(keys[i]!, i === start);
    }
    at = start;
  };
  return {
    boundAt: (start, size, length) => {
      if (start !== at) moveTo(start);
      for (let i = start + core; i < start + size; i++) enter(keys[i]!, i === start);
      const bound = 1 - Math.max(surplus, shortage) / Math.max(length, wantText.length, 1);
      for (let i = start + size - 1; i >= start + core; i--) leave(keys[i]!, i === start);
      return bound;
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
