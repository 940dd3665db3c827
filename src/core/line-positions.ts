/**
 * Where each number of a per-line number array sits (a hash of each line's key, say), kept across the versions
 * edits make. A search for a few wanted keys on a large file then costs the lines holding them, not a pass over
 * the file for every hunk of a reply.
 *
 * Numbers are any 32-bit integers. The positions are those of the version the index was built on (its base),
 * grouped by the number's low bits (a bucket: about one per line, so a bucket rarely holds two numbers); a lookup
 * keeps the lines whose number is the one asked for. A later version is
 * described as runs of its lines: a stretch of base lines, or lines the edits wrote. An edit cuts the runs
 * (O(runs)); a lookup maps each run's base positions by a binary search and reads the written lines themselves.
 * When written lines or runs grow past a share of the file, the index is dropped and built again on use.
 */

/** Past this many runs, or written lines beyond an eighth of the base, building again is cheaper than keeping up. */
const MAX_RUNS = 256;
const MIN_WRITTEN = 64;
/** Buckets: at least one per line of the base (a power of two), within these bounds. */
const MIN_BUCKETS = 16;
const MAX_BUCKETS = 1 << 22;

interface Run {
  /** The run's first line in this version. */
  readonly from: number;
  readonly length: number;
  /** The base line it starts at, or -1 for lines the edits wrote. */
  readonly base: number;
}

export class LinePositions {
  private constructor(
    /** The low bits that make a number's bucket. */
    private readonly mask: number,
    /** Where each bucket's base positions start in `positions` (one more entry than buckets). */
    private readonly offsets: Int32Array,
    /** Base positions, grouped by bucket, ascending within each. */
    private readonly positions: Int32Array,
    private readonly baseLines: number,
    private readonly runs: readonly Run[],
    private readonly written: number,
  ) {}

  /** The index of `numbers` (32-bit integers). */
  static build(numbers: ArrayLike<number>): LinePositions {
    const buckets = Math.min(MAX_BUCKETS, 1 << Math.ceil(Math.log2(Math.max(MIN_BUCKETS, numbers.length))));
    const mask = buckets - 1;
    const offsets = new Int32Array(buckets + 1);
    for (let i = 0; i < numbers.length; i++) offsets[(numbers[i]! & mask) + 1]!++;
    for (let b = 1; b < offsets.length; b++) offsets[b]! += offsets[b - 1]!;
    const next = offsets.slice(0, buckets);
    const positions = new Int32Array(numbers.length);
    for (let i = 0; i < numbers.length; i++) positions[next[numbers[i]! & mask]!++] = i;
    const runs = numbers.length === 0 ? [] : [{ from: 0, length: numbers.length, base: 0 }];
    return new LinePositions(mask, offsets, positions, numbers.length, runs, 0);
  }

  /**
   * About how many lines held `n` when the index was built (those of its bucket, so never fewer): a cheap measure
   * of how common it is.
   */
  estimate(n: number): number {
    const bucket = n & this.mask;
    return this.offsets[bucket + 1]! - this.offsets[bucket]!;
  }

  /**
   * The index after lines [start, start + removed) became `added` lines, or undefined when it is worth building
   * again.
   */
  spliced(start: number, removed: number, added: number): LinePositions | undefined {
    const runs: Run[] = [];
    const end = start + removed;
    const shift = added - removed;
    let inserted = added === 0;
    const insert = (): void => {
      if (!inserted) runs.push({ from: start, length: added, base: -1 });
      inserted = true;
    };
    for (const run of this.runs) {
      const runEnd = run.from + run.length;
      if (runEnd <= start) {
        runs.push(run);
        continue;
      }
      if (run.from < start) runs.push(piece(run, 0, start - run.from, run.from));
      if (runEnd > end) {
        insert();
        const cut = Math.max(0, end - run.from);
        runs.push(piece(run, cut, run.length - cut, run.from + cut + shift));
      }
    }
    insert();
    const written = this.written + added;
    if (runs.length > MAX_RUNS || written > Math.max(MIN_WRITTEN, this.baseLines / 8)) return undefined;
    return new LinePositions(this.mask, this.offsets, this.positions, this.baseLines, runs, written);
  }

  /** Ascending lines holding `n` in the version whose per-line numbers are `numbers` (the one this index is of). */
  lines(n: number, numbers: ArrayLike<number>): number[] {
    const found: number[] = [];
    const bucket = n & this.mask;
    const lo = this.offsets[bucket]!;
    const hi = this.offsets[bucket + 1]!;
    for (const run of this.runs) {
      if (run.base < 0) {
        for (let i = run.from; i < run.from + run.length; i++) if (numbers[i] === n) found.push(i);
        continue;
      }
      const baseEnd = run.base + run.length;
      for (let k = firstAtLeast(this.positions, lo, hi, run.base); k < hi && this.positions[k]! < baseEnd; k++) {
        const line = run.from + this.positions[k]! - run.base;
        if (numbers[line] === n) found.push(line);
      }
    }
    return found;
  }
}

/** Lines [skip, skip + length) of `run`, starting at line `from` of the new version. */
function piece(run: Run, skip: number, length: number, from: number): Run {
  return { from, length, base: run.base < 0 ? -1 : run.base + skip };
}

/** The first index in [lo, hi) of ascending `items` whose item is at least `value` (hi when none). */
function firstAtLeast(items: Int32Array, lo: number, hi: number, value: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
