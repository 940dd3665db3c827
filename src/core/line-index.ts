/**
 * Finds every line equal to a given string without comparing it with every line of the file. A reply's fifty hunks
 * on one 10,000-line file would otherwise scan the whole file fifty times, and hashing every line whole (a Map of
 * strings) costs more than the scans it saves. Lines are chained instead by a signature of their length and three
 * sampled characters: one linear pass, no string read past those characters. A lookup compares only the lines of
 * one chain, and equal lines always share it.
 */

/** At least this many chains, and at least one per line (up to MAX_CHAINS). */
const MIN_CHAINS = 1 << 10;
const MAX_CHAINS = 1 << 20;

/** A hash of the length and the last, middle and quarter characters (all of them, for short lines). */
export function signature(text: string): number {
  const n = text.length;
  if (n === 0) return 0;
  let h = Math.imul(n, 0x9e3779b1);
  h ^= Math.imul(text.charCodeAt(n - 1), 0x85ebca6b);
  h ^= Math.imul(text.charCodeAt(n >> 1), 0xc2b2ae35);
  h ^= Math.imul(text.charCodeAt(n >> 2), 0x27d4eb2f);
  return h ^ (h >>> 15);
}

export class LineIndex {
  private readonly mask: number;
  /** First line of each chain, -1 for none. */
  private readonly head: Int32Array;
  /** The next line of the same chain, -1 at the end; chains run in ascending line order. */
  private readonly next: Int32Array;

  constructor(private readonly lines: readonly string[]) {
    const n = lines.length;
    let size = MIN_CHAINS;
    while (size < n && size < MAX_CHAINS) size <<= 1;
    const mask = size - 1;
    const head = new Int32Array(size).fill(-1);
    const next = new Int32Array(n);
    // Linking from the last line up leaves every chain in ascending order.
    for (let i = n - 1; i >= 0; i--) {
      const chain = signature(lines[i]!) & mask;
      next[i] = head[chain]!;
      head[chain] = i;
    }
    this.mask = mask;
    this.head = head;
    this.next = next;
  }

  /** Ascending 0-based numbers of the lines equal to `text`. */
  positions(text: string): number[] {
    const found: number[] = [];
    for (let i = this.head[signature(text) & this.mask]!; i !== -1; i = this.next[i]!) {
      if (this.lines[i] === text) found.push(i);
    }
    return found;
  }
}

/** Ascending 0-based numbers of the lines equal to `text`, by comparing each: cheaper than an index for one lookup. */
export function scanPositions(lines: readonly string[], text: string): number[] {
  const found: number[] = [];
  for (let i = 0; i < lines.length; i++) if (lines[i] === text) found.push(i);
  return found;
}

/**
 * The ascending positions of each of `keys` among `lines`, in one pass: when the lines a reply will look for are
 * known before it is planned, one pass with a small table of their signatures finds them all, with no index to
 * build (each line costs a length check, often its signature and, rarely, a comparison).
 */
export function batchPositions(lines: readonly string[], keys: Iterable<string>): Map<string, number[]> {
  const found = new Map<string, number[]>();
  for (const key of keys) found.set(key, []);
  let size = 64;
  while (size < found.size * 32 && size < MAX_CHAINS) size <<= 1;
  const mask = size - 1;
  const table = new Array<string[] | undefined>(size);
  // Most lines are turned away by their length alone, before any character is read.
  let longest = 0;
  for (const key of found.keys()) longest = Math.max(longest, key.length);
  const wantedLength = new Uint8Array(longest + 1);
  for (const key of found.keys()) {
    (table[signature(key) & mask] ??= []).push(key);
    wantedLength[key.length] = 1;
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length > longest || wantedLength[line.length] === 0) continue;
    const slot = table[signature(line) & mask];
    if (slot === undefined) continue;
    for (const key of slot) if (line === key) found.get(key)!.push(i);
  }
  return found;
}
