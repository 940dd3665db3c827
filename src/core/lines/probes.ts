/**
 * Finding, in one pass over a file, every line equal to one of the lines a reply will look for. The planner knows
 * each edit's probe line before it plans any (exact-doc.ts), so fifty hunks cost one pass, not fifty scans, and no
 * index of the whole file is built. The pass is the one that finds the file's line breaks (table.ts): each
 * line costs a length check, sometimes its signature and, rarely, a comparison.
 */
import { sameAt, signature, signatureAt } from "./index.js";
import type { LineTable } from "./table.js";

export class ProbeSet {
  /** The ascending lines found for each key. */
  readonly found = new Map<string, number[]>();
  /** The longest key's length: longer lines are no key. */
  readonly longest: number;
  /** 1 at the lengths some key has: most lines are turned away by their length, before any character is read. */
  readonly lengths: Uint8Array;
  private readonly slots: (string[] | undefined)[];
  private readonly mask: number;

  constructor(keys: Iterable<string>) {
    for (const key of keys) this.found.set(key, []);
    let size = 64;
    while (size < this.found.size * 32) size <<= 1;
    this.mask = size - 1;
    this.slots = new Array<string[] | undefined>(size);
    let longest = 0;
    for (const key of this.found.keys()) longest = Math.max(longest, key.length);
    this.longest = longest;
    this.lengths = new Uint8Array(longest + 1);
    for (const key of this.found.keys()) {
      (this.slots[signature(key) & this.mask] ??= []).push(key);
      this.lengths[key.length] = 1;
    }
  }

  /** Records line `line`, the `n` characters of `text` from `start`, under the key it equals (if any). */
  offer(text: string, start: number, n: number, line: number): void {
    const slot = this.slots[signatureAt(text, start, n) & this.mask];
    if (slot === undefined) return;
    for (const key of slot) if (key.length === n && sameAt(text, start, key)) this.found.get(key)!.push(line);
  }
}

/** The ascending positions of each of `keys` among the table's lines (for keys announced after the first pass). */
export function batchPositions(table: LineTable, keys: Iterable<string>): Map<string, number[]> {
  const probes = new ProbeSet(keys);
  const { text } = table;
  for (let i = 0; i < table.length; i++) {
    const start = table.start(i);
    const n = table.end(i) - start;
    if (n <= probes.longest && probes.lengths[n] !== 0) probes.offer(text, start, n, i);
  }
  return probes.found;
}
