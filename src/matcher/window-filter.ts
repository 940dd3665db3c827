/**
 * Cheap pre-filters for similarity search: how many of the wanted lines occur verbatim (after normalisation) in
 * each window, counted as a multiset, found from the lines holding a wanted key (one pass over the file finds
 * them); each window's joined length; its character counts. Only windows that pass are handed
 * to Levenshtein.
 */
import { distance } from "fastest-levenshtein";
import type { TextFile } from "../core/text.js";
import { looseKeys, looseSignatures } from "./rungs/unicode.js";
import type { KeySignatures } from "./windows.js";

/** Windows of one size, ascending by start, with how many wanted lines each shares. */
export interface SharingWindows {
  readonly starts: Int32Array;
  readonly shared: Int32Array;
}

/**
 * For each of `sizes`, every window of the file's loose keys sharing at least `atLeast` lines (1 if less) with `want`,
 * counted as a multiset intersection (blank wanted lines never count).
 */
export const looseWindowsSharing = (
  file: TextFile,
  want: readonly string[],
  sizes: readonly number[],
  atLeast: number,
): SharingWindows[] => windowsSharing(looseKeys(file), want, sizes, atLeast, looseSignatures(file));

/** One bit per signature bucket. */
const BUCKETS = 4096;
const BUCKET_MASK = BUCKETS - 1;

/**
 * `looseWindowsSharing` on any keys. A window sharing `atLeast` lines holds one of the rarest wanted keys, those
 * without which fewer than `atLeast` wanted lines remain (pigeonhole): only windows around the lines holding one
 * of them are counted, so a wanted `}` on thousands of lines costs nothing unless it is among the rarest. Rarity
 * is estimated from one pass over the signatures; any choice would be correct, a good one is cheap.
 */
export function windowsSharing(
  keys: readonly string[],
  want: readonly string[],
  sizes: readonly number[],
  atLeast: number,
  signatures: KeySignatures,
): SharingWindows[] {
  // A file shorter than every size has no window (and no span to count).
  if (!sizes.some((size) => size >= 1 && size <= keys.length)) {
    return sizes.map(() => ({ starts: new Int32Array(0), shared: new Int32Array(0) }));
  }
  const signed = signatures.lines;
  const least = Math.max(1, atLeast);
  const bucketOfKey = (key: string): number => signatures.sign(key) & BUCKET_MASK;
  const idOf = new Map<string, number>();
  const need: number[] = [];
  for (const key of want) {
    if (key === "") continue;
    const id = idOf.get(key);
    if (id === undefined) {
      idOf.set(key, need.length);
      need.push(1);
    } else need[id]!++;
  }
  const wanted = new Uint8Array(BUCKETS);
  for (const key of idOf.keys()) wanted[bucketOfKey(key)] = 1;
  // One pass over the file: the lines in a wanted key's bucket, and how many each bucket has.
  const seen = new Int32Array(BUCKETS);
  const inWantedBucket: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    const bucket = signed[i]! & BUCKET_MASK;
    if (wanted[bucket] === 0) continue;
    seen[bucket]!++;
    inWantedBucket.push(i);
  }
  // The rarest keys, until the others hold fewer than `atLeast` wanted lines.
  const byRarity = [...idOf].sort((x, y) => seen[bucketOfKey(x[0])]! - seen[bucketOfKey(y[0])]!);
  let others = need.reduce((sum, n) => sum + n, 0);
  const rare = new Set<string>();
  const rareBuckets = new Uint8Array(BUCKETS);
  for (const [key, id] of byRarity) {
    if (others < least) break;
    rare.add(key);
    rareBuckets[bucketOfKey(key)] = 1;
    others -= need[id]!;
  }
  const idAt = (i: number): number => (wanted[signed[i]! & BUCKET_MASK] === 0 ? -1 : (idOf.get(keys[i]!) ?? -1));
  const found = sizes.map(() => ({ starts: [] as number[], shared: [] as number[] }));
  const largest = Math.max(0, ...sizes);
  // Spans of starts within reach of a rare line, merged; each is counted by sliding over its lines.
  let spanFrom = -1;
  let spanTo = -1;
  const countSpan = (): void => {
    if (spanFrom < 0) return;
    const ids = new Int32Array(Math.min(keys.length, spanTo + largest) - spanFrom);
    for (let i = 0; i < ids.length; i++) ids[i] = idAt(spanFrom + i);
    sizes.forEach((size, k) => {
      slide(ids, spanFrom, Math.min(spanTo, keys.length - size), size, k);
    });
  };
  const slide = (ids: Int32Array, origin: number, last: number, size: number, k: number): void => {
    if (size < 1 || last < origin) return;
    const have = new Int32Array(need.length);
    let shared = 0;
    for (let i = 0; i < last - origin + size; i++) {
      const entering = ids[i]!;
      if (entering >= 0 && have[entering]!++ < need[entering]!) shared++;
      if (i >= size) {
        const leaving = ids[i - size]!;
        if (leaving >= 0 && --have[leaving]! < need[leaving]!) shared--;
      }
      if (i >= size - 1 && shared >= least) {
        found[k]!.starts.push(origin + i - size + 1);
        found[k]!.shared.push(shared);
      }
    }
  };
  for (const i of inWantedBucket) {
    if (rareBuckets[signed[i]! & BUCKET_MASK] === 0 || !rare.has(keys[i]!)) continue;
    const from = Math.max(0, i - largest + 1);
    if (spanFrom >= 0 && from <= spanTo + 1) spanTo = i;
    else {
      countSpan();
      spanFrom = from;
      spanTo = i;
    }
  }
  countSpan();
  return found.map(({ starts, shared }) => ({ starts: Int32Array.from(starts), shared: Int32Array.from(shared) }));
}

/**
 * Length of `keys[start, start + size)` joined with `\n`. Summed per window: prefix sums would be O(file lines)
 * again for every version of the file, and a reply's versions are as many as its edits.
 */
export function joinedLength(keys: readonly string[], start: number, size: number): number {
  let length = size - 1;
  for (let i = start; i < start + size; i++) length += keys[i]!.length;
  return length;
}

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
