/**
 * The windows a similarity search looks at: which windows share enough of the wanted lines verbatim (after
 * normalisation), counted as a multiset and found from the lines holding a wanted key (one pass over the file
 * finds them), with each window's joined length. The bounds from character counts asked next are in
 * character-bounds.ts, the similarity itself in similarity.ts.
 */
import type { TextFile } from "../core/text.js";
import { looseKeyLengths, looseKeys, looseSignatures } from "./rungs/unicode.js";
import type { KeySignatures } from "./windows.js";

/**
 * Windows by start, then size: for each, its start, its size (an index into the sizes asked for), how many wanted
 * lines it shares and its joined length (lines and the newlines between them).
 */
export interface SharingWindows {
  readonly starts: Int32Array;
  readonly sizes: Uint8Array;
  readonly shared: Int32Array;
  readonly lengths: Int32Array;
}

/** The joined lengths of the windows wanted: [min, max]. */
export interface LengthRange {
  readonly min: number;
  readonly max: number;
}

const ANY_LENGTH: LengthRange = { min: 0, max: Infinity };

/**
 * Every window of the file's loose keys, of any of `sizes` (at most four), sharing at least `atLeast` lines (1 if
 * less) with `want`, counted as a multiset intersection (blank wanted lines never count), whose joined length is
 * within `lengths`.
 */
export const looseWindowsSharing = (
  file: TextFile,
  want: readonly string[],
  sizes: readonly number[],
  atLeast: number,
  lengths: LengthRange = ANY_LENGTH,
): SharingWindows =>
  windowsSharing(looseKeys(file), want, sizes, atLeast, looseSignatures(file), lengths, looseKeyLengths(file));

/** One bit per signature bucket. */
const BUCKETS = 4096;
const BUCKET_MASK = BUCKETS - 1;

/**
 * A buffer of one line number per file line, kept between searches: a search on a 100,000-line file would
 * otherwise allocate and zero 400 KB. Searches never run inside one another.
 */
const scratch = {
  lineBuffer: new Int32Array(0),
  lines(n: number): Int32Array {
    if (this.lineBuffer.length < n) this.lineBuffer = new Int32Array(n);
    return this.lineBuffer;
  },
};

/** Windows as they are found: start, size index, shared lines and joined length, four numbers a window. */
class FoundWindows {
  private items = new Int32Array(4 * 256);
  private n = 0;

  add(start: number, size: number, shared: number, length: number): void {
    if (this.n + 4 > this.items.length) {
      const grown = new Int32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.n++] = start;
    this.items[this.n++] = size;
    this.items[this.n++] = shared;
    this.items[this.n++] = length;
  }

  windows(): SharingWindows {
    const count = this.n / 4;
    const windows = {
      starts: new Int32Array(count),
      sizes: new Uint8Array(count),
      shared: new Int32Array(count),
      lengths: new Int32Array(count),
    };
    for (let w = 0, j = 0; w < count; w++, j += 4) {
      windows.starts[w] = this.items[j]!;
      windows.sizes[w] = this.items[j + 1]!;
      windows.shared[w] = this.items[j + 2]!;
      windows.lengths[w] = this.items[j + 3]!;
    }
    return windows;
  }
}

/**
 * `looseWindowsSharing` on any keys. A window sharing `atLeast` lines holds one of the rarest wanted keys, those
 * without which fewer than `atLeast` wanted lines remain (pigeonhole): only windows around the lines holding one
 * of them are counted, so a wanted `}` on thousands of lines costs nothing unless it is among the rarest. With an
 * index of the signatures (`KeySignatures.positions`) rarity is its estimate and the lines are looked up; without,
 * both come from one pass over the signatures. With hashed signatures, a line whose key only shares a wanted key's
 * hash counts as holding it (reading every key costs a cache miss a line): a window may be let through that the
 * comparison after this filter rules out, none is lost.
 */
export function windowsSharing(
  keys: readonly string[],
  want: readonly string[],
  sizes: readonly number[],
  atLeast: number,
  signatures: KeySignatures,
  lengths: LengthRange = ANY_LENGTH,
  keyLengths: readonly number[] = keys.map((k) => k.length),
): SharingWindows {
  const found = new FoundWindows();
  // A file shorter than every size has no window (and no span to count).
  if (!sizes.some((size) => size >= 1 && size <= keys.length)) return found.windows();
  const signed = signatures.lines;
  const least = Math.max(1, atLeast);
  // The distinct wanted keys, by id: the key, its signature, how many times it is wanted.
  const wantedKeys: string[] = [];
  const signOf: number[] = [];
  const need: number[] = [];
  for (const key of want) {
    if (key === "") continue;
    const id = wantedKeys.indexOf(key);
    if (id >= 0) need[id]!++;
    else {
      wantedKeys.push(key);
      signOf.push(signatures.sign(key));
      need.push(1);
    }
  }
  // Per signature bucket, the first wanted key in it, and per key the next one in its bucket (-1 ends both).
  const firstInBucket = new Int32Array(BUCKETS).fill(-1);
  const nextInBucket = new Int32Array(need.length);
  for (let id = need.length - 1; id >= 0; id--) {
    const bucket = signOf[id]! & BUCKET_MASK;
    nextInBucket[id] = firstInBucket[bucket]!;
    firstInBucket[bucket] = id;
  }
  // The wanted key a line holds (signature first, then the key unless signatures are hashes), -1 for none.
  const trusted = signatures.hashed === true;
  const idAt = (i: number): number => {
    const sign = signed[i]!;
    let id = firstInBucket[sign & BUCKET_MASK]!;
    while (id >= 0 && (signOf[id] !== sign || (!trusted && keys[i] !== wantedKeys[id]))) id = nextInBucket[id]!;
    return id;
  };
  // How common each wanted key is, and the lines holding one: from the index, or from one pass over the file.
  const index = signatures.positions;
  const holding = new Int32Array(need.length);
  let lines = scratch.lines(index === undefined ? keys.length : 0);
  let count = 0;
  if (index !== undefined) need.forEach((_, id) => (holding[id] = index.estimate(signOf[id]!)));
  else {
    for (let i = 0; i < keys.length; i++) {
      const id = idAt(i);
      if (id < 0) continue;
      lines[count++] = i;
      holding[id]!++;
    }
  }
  // The rarest keys, until the others hold fewer than `atLeast` wanted lines.
  const byRarity = need.map((_, id) => id).sort((x, y) => holding[x]! - holding[y]!);
  let others = need.reduce((sum, n) => sum + n, 0);
  const rare = new Uint8Array(need.length);
  for (const id of byRarity) {
    if (others < least) break;
    rare[id] = 1;
    others -= need[id]!;
  }
  // The lines holding a rare key, ascending.
  if (index !== undefined) {
    // One list per signature: keys sharing one share their lines.
    const signs = new Set(byRarity.filter((id) => rare[id] === 1).map((id) => signOf[id]!));
    const lists = [...signs].map((sign) => index.lines(sign));
    lines = mergeAscending(lists);
    count = lines.length;
  } else {
    let kept = 0;
    for (let j = 0; j < count; j++) if (rare[idAt(lines[j]!)] === 1) lines[kept++] = lines[j]!;
    count = kept;
  }
  const largest = Math.max(0, ...sizes);
  const distinct = need.length;
  const needed = Int32Array.from(need);
  const { min, max } = lengths;
  // Per size, the wanted lines of each key its window holds, how many count as shared, and its joined length.
  const have = new Int32Array(sizes.length * distinct);
  const shared = new Int32Array(sizes.length);
  const joined = new Int32Array(sizes.length);
  const lastStart = new Int32Array(sizes.length);
  let ids = new Int32Array(64);
  let lineLengths = new Int32Array(64);
  // The windows starting in the span, by start, then size: each size's window slides one line a start (the line
  // before the start leaves it, the line at its end enters).
  const slide = (origin: number): void => {
    have.fill(0);
    let last = -1;
    for (let k = 0; k < sizes.length; k++) {
      const size = sizes[k]!;
      shared[k] = 0;
      joined[k] = size - 1;
      lastStart[k] = size < 1 ? -1 : Math.min(spanTo, keys.length - size);
      last = Math.max(last, lastStart[k]!);
      for (let i = 0; i < size - 1; i++) {
        joined[k]! += lineLengths[i]!;
        const id = ids[i]!;
        if (id >= 0 && have[k * distinct + id]!++ < needed[id]!) shared[k]!++;
      }
    }
    for (let start = origin; start <= last; start++) {
      for (let k = 0; k < sizes.length; k++) {
        if (start > lastStart[k]!) continue;
        const base = k * distinct;
        let length = joined[k]!;
        let count = shared[k]!;
        if (start > origin) {
          const leaving = start - 1 - origin;
          length -= lineLengths[leaving]!;
          const id = ids[leaving]!;
          if (id >= 0 && --have[base + id]! < needed[id]!) count--;
        }
        const entering = start - origin + sizes[k]! - 1;
        length += lineLengths[entering]!;
        const id = ids[entering]!;
        if (id >= 0 && have[base + id]!++ < needed[id]!) count++;
        joined[k] = length;
        shared[k] = count;
        if (count >= least && length >= min && length <= max) found.add(start, k, count, length);
      }
    }
  };
  // Spans of starts within reach of a rare line, merged; each is counted by sliding over its lines.
  let spanFrom = -1;
  let spanTo = -1;
  const countSpan = (): void => {
    if (spanFrom < 0) return;
    const n = Math.min(keys.length, spanTo + largest) - spanFrom;
    if (n > ids.length) {
      ids = new Int32Array(2 * n);
      lineLengths = new Int32Array(2 * n);
    }
    for (let i = 0; i < n; i++) {
      ids[i] = idAt(spanFrom + i);
      lineLengths[i] = keyLengths[spanFrom + i]!;
    }
    slide(spanFrom);
  };
  for (let j = 0; j < count; j++) {
    const i = lines[j]!;
    const from = Math.max(0, i - largest + 1);
    if (spanFrom >= 0 && from <= spanTo + 1) spanTo = i;
    else {
      countSpan();
      spanFrom = from;
      spanTo = i;
    }
  }
  countSpan();
  return found.windows();
}

/** The ascending lists as one ascending list (they share no line: a line has one signature). */
function mergeAscending(lists: readonly (readonly number[])[]): Int32Array {
  const merged = new Int32Array(lists.reduce((n, list) => n + list.length, 0));
  const next = lists.map(() => 0);
  for (let k = 0; k < merged.length; k++) {
    let pick = -1;
    for (let l = 0; l < lists.length; l++) {
      const line = lists[l]![next[l]!];
      if (line !== undefined && (pick < 0 || line < lists[pick]![next[pick]!]!)) pick = l;
    }
    merged[k] = lists[pick]![next[pick]!++]!;
  }
  return merged;
}
