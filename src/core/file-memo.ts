/**
 * Per-file memo of derived data (normalised line keys, indentation style, joined text). A reply often carries
 * several edits for one file, and a failing lookup on a large file walks every rung: computing each key array once
 * per TextFile keeps a 100,000-line lookup cheap. Each edit makes a new version of the file, whose line keys are
 * the previous version's with the edited lines spliced in (`deriveFile`): fifty drifted hunks then compute each
 * rung's keys once, not fifty times.
 *
 * The memo rides on the file object itself, under a symbol no caller sees, so it goes with the file. A WeakMap
 * keyed by the file would do the same on paper, but the engine keeps a weak map's values alive through every minor
 * collection while their key is young: whole key arrays of large files were copied and promoted until the next
 * full collection.
 */
import type { Eol, TextFile } from "./text.js";

const MEMO = Symbol("patchsmith.file-memo");

type Memo = Map<string, unknown>;

/** Returns the value stored under `slot` for this file, computing it on first use. */
export function cached<T>(file: TextFile, slot: string, compute: () => T): T {
  const holder = file as TextFile & { [MEMO]?: Memo };
  let slots = holder[MEMO];
  if (slots === undefined) {
    // A frozen file cannot carry the memo: it is then computed each time, which is only slower.
    if (!Object.isExtensible(holder)) return compute();
    slots = new Map();
    Object.defineProperty(holder, MEMO, { value: slots });
  }
  if (slots.has(slot)) return slots.get(slot) as T;
  const value = compute();
  slots.set(slot, value);
  return value;
}

/** Whether `slot` holds a value for this file (computed, or carried over by `deriveFile`). */
export function isCached(file: TextFile, slot: string): boolean {
  return (file as TextFile & { [MEMO]?: Memo })[MEMO]?.has(slot) === true;
}

type KeyOf = (file: TextFile, line: number) => unknown;

/** The slots `lineKeys` filled, with how one line's key is made: what `deriveFile` can splice. */
const LINE_KEYS = new Map<string, KeyOf>();

/** One key per line of the file, memoised under `slot`; `keyOf` must depend on that line alone. */
export function lineKeys<T>(file: TextFile, slot: string, keyOf: (file: TextFile, line: number) => T): readonly T[] {
  LINE_KEYS.set(slot, keyOf);
  return cached(file, slot, () => {
    const keys = new Array<T>(file.lines.length);
    for (let i = 0; i < keys.length; i++) keys[i] = keyOf(file, i);
    return keys;
  });
}

/** The widths of the slots `lineRecords` made. */
const LINE_RECORDS = new Map<string, number>();

/**
 * `width` bytes per line of the file in one array (line i at i * width), memoised under `slot` and carried to the
 * versions made from this one, where an edit's new lines get zeroed records. The caller writes each record when it
 * first needs it (a record of zeros is one not yet written): for numbers about some lines of a large file, where
 * computing them for every line, or keeping a small array a line, would cost more than the lines asked about.
 */
export function lineRecords(file: TextFile, slot: string, width: number): Uint8Array {
  LINE_RECORDS.set(slot, width);
  return cached(file, slot, () => new Uint8Array(file.lines.length * width));
}

/** How a value that follows the file's lines becomes the next version's: undefined drops it (computed again). */
export type SpliceValue<T> = (value: T, start: number, removed: number, added: number) => T | undefined;

/** The slots `splicedCached` filled, with how each follows an edit. */
const SPLICED = new Map<string, SpliceValue<unknown>>();

/**
 * `cached`, for a value about the file's lines that an edit can update for less than computing it again (an index
 * of where lines are): `deriveFile` hands the new version `splice(value, start, removed, added)`, lines [start,
 * start + removed) having become `added` lines. The parent gives the value up, as it does its line keys.
 */
export function splicedCached<T>(file: TextFile, slot: string, compute: () => T, splice: SpliceValue<T>): T {
  SPLICED.set(slot, splice as SpliceValue<unknown>);
  return cached(file, slot, compute);
}

const spliced = <T>(items: readonly T[], start: number, removed: number, added: readonly T[]): T[] =>
  items.slice(0, start).concat(added, items.slice(start + removed));

/** Arguments one `splice` call may take: far below every engine's limit on arguments. */
const SPLICE_ARGUMENTS = 10_000;

/** `items` with [start, start + removed) replaced by `added`, edited in place when that is cheap. */
function spliceInPlace<T>(items: T[], start: number, removed: number, added: readonly T[]): T[] {
  if (added.length === removed) {
    for (let k = 0; k < removed; k++) items[start + k] = added[k]!;
    return items;
  }
  if (added.length > SPLICE_ARGUMENTS) return spliced(items, start, removed, added);
  items.splice(start, removed, ...added);
  return items;
}

/**
 * `parent` with lines [start, start + removed) replaced by `lines`: a new file whose line keys are the parent's,
 * spliced, with keys computed for the new lines only. The parent gives its line keys up (a later call on it
 * computes them afresh); with `reuse` (the caller will never read the parent again) its lines too.
 */
export function deriveFile(
  parent: TextFile,
  start: number,
  removed: number,
  lines: readonly string[],
  eols: readonly Eol[],
  reuse: boolean,
): TextFile {
  // With `reuse`, nothing reads the parent again: its arrays become the new file's, edited in place.
  const edit = <T>(items: readonly T[], added: readonly T[]): T[] =>
    reuse ? spliceInPlace(items as T[], start, removed, added) : spliced(items, start, removed, added);
  const file: TextFile = { bom: parent.bom, lines: edit(parent.lines, lines), eols: edit(parent.eols, eols) };
  const slots = (parent as TextFile & { [MEMO]?: Memo })[MEMO];
  if (slots === undefined) return file;
  for (const [slot, keyOf] of LINE_KEYS) {
    const keys = slots.get(slot) as unknown[] | undefined;
    if (keys === undefined) continue;
    const added = lines.map((_, k) => keyOf(file, start + k));
    // The parent gives its keys up (a later call on it computes them afresh) and they are edited in place: an
    // edit then moves the lines after it at most, where a copy would allocate and fill the whole array again.
    slots.delete(slot);
    cached(file, slot, () => spliceInPlace(keys, start, removed, added));
  }
  for (const [slot, splice] of SPLICED) {
    if (!slots.has(slot)) continue;
    const value = splice(slots.get(slot), start, removed, lines.length);
    slots.delete(slot);
    if (value !== undefined) cached(file, slot, () => value);
  }
  for (const [slot, width] of LINE_RECORDS) {
    const old = slots.get(slot) as Uint8Array | undefined;
    if (old === undefined) continue;
    slots.delete(slot);
    // As many lines as before: the parent's records are rewritten in place (it gives them up as it does its keys).
    const records = lines.length === removed ? old : new Uint8Array(file.lines.length * width);
    if (records === old) records.fill(0, start * width, (start + removed) * width);
    else {
      records.set(old.subarray(0, start * width));
      records.set(old.subarray((start + removed) * width), (start + lines.length) * width);
    }
    cached(file, slot, () => records);
  }
  return file;
}
