/**
 * Finding every window of file lines whose keys equal a list of wanted keys. One pass over the file per rung,
 * comparing a single probe key per line (the longest wanted line: usually the rarest), then checking the window
 * around each probe hit; with an index of the keys, only the lines holding the rarest wanted key. Whole lines only:
 * a SEARCH never matches a fragment of a longer line.
 */

/**
 * Signatures of the keys (`sign(keys[i])` at `lines[i]`, equal keys signing equally): the scan compares them before
 * reading a key, which on a large file saves a cache miss a line.
 */
export interface KeySignatures {
  readonly lines: readonly number[];
  readonly sign: (key: string) => number;
  /**
   * Signatures are a hash of the key (distinct keys rarely sign alike): a count that only lets windows through to
   * a finer comparison may take a signature match for a key match, without reading the key.
   */
  readonly hashed?: boolean;
  /** Where each signature sits, when an index keeps it: then no scan is needed. */
  readonly positions?: SignaturePositions;
}

export interface SignaturePositions {
  /** Ascending lines whose signature is `sign`. */
  readonly lines: (sign: number) => readonly number[];
  /** About how many lines sign so: enough to tell a rare key from a common one. */
  readonly estimate: (sign: number) => number;
}

/** 0-based starts of every window within [from, to) whose keys equal `want`, in file order. */
export function findWindows(
  keys: readonly string[],
  want: readonly string[],
  from = 0,
  to: number = keys.length,
  signatures?: KeySignatures,
): number[] {
  const n = want.length;
  const starts: number[] = [];
  if (n === 0 || to - from < n) return starts;
  const positions = signatures?.positions;
  if (positions !== undefined) {
    // Only the lines holding the rarest wanted key are looked at.
    const signs = want.map((key) => signatures!.sign(key));
    let rarest = 0;
    for (let j = 1; j < n; j++) if (positions.estimate(signs[j]!) < positions.estimate(signs[rarest]!)) rarest = j;
    for (const i of positions.lines(signs[rarest]!)) {
      const start = i - rarest;
      if (start >= from && start + n <= to && holdsAt(keys, want, start)) starts.push(start);
    }
    return starts;
  }
  let probe = 0;
  for (let j = 1; j < n; j++) if (want[j]!.length > want[probe]!.length) probe = j;
  const probeKey = want[probe]!;
  const last = to - n + probe;
  const signed = signatures?.lines;
  const probeSignature = signatures?.sign(probeKey);
  for (let i = from + probe; i <= last; i++) {
    if (signed !== undefined && signed[i] !== probeSignature) continue;
    if (keys[i] !== probeKey) continue;
    if (holdsAt(keys, want, i - probe)) starts.push(i - probe);
  }
  return starts;
}

/** Whether the window at `start` (inside the file) holds `want`, key for key. */
export function holdsAt(keys: readonly string[], want: readonly string[], start: number): boolean {
  for (let j = 0; j < want.length; j++) if (keys[start + j] !== want[j]) return false;
  return true;
}

/**
 * Whether `found` (a looser rung's windows) holds one that is not in `starts` (a stricter rung's, which it
 * contains). A set: `}` is at hundreds of thousands of places in a large file, and includes() on each would be
 * quadratic.
 */
export function holdsOthers(found: readonly number[], starts: readonly number[]): boolean {
  if (found.length !== starts.length) return found.length > starts.length;
  const strict = new Set(starts);
  return found.some((s) => !strict.has(s));
}

/** The 1-based line numbers of 0-based window starts, for messages. */
export const toLineNumbers = (starts: readonly number[]): number[] => starts.map((s) => s + 1);
