/**
 * Per-file memo of derived data (normalised line keys, indentation style, joined text). A reply often carries
 * several edits for one file, and a failing lookup on a large file walks every rung: computing each key array once
 * per TextFile keeps a 100,000-line lookup cheap.
 *
 * The memo rides on the file object itself, under a symbol no caller sees, so it goes with the file. A WeakMap
 * keyed by the file would do the same on paper, but the engine keeps a weak map's values alive through every minor
 * collection while their key is young: whole key arrays of large files were copied and promoted until the next
 * full collection.
 */
import type { TextFile } from "../core/text.js";

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
