/**
 * Per-file memo of derived data (normalised line keys, indentation style, joined text). A reply often carries
 * several edits for one file, and a failing lookup on a large file walks every rung: computing each key array once
 * per TextFile keeps a 100,000-line lookup cheap. A WeakMap lets the data go with the file object.
 */
import type { TextFile } from "../core/text.js";

const memo = new WeakMap<TextFile, Map<string, unknown>>();

/** Returns the value stored under `slot` for this file, computing it on first use. */
export function cached<T>(file: TextFile, slot: string, compute: () => T): T {
  let slots = memo.get(file);
  if (slots === undefined) {
    slots = new Map();
    memo.set(file, slots);
  }
  if (slots.has(slot)) return slots.get(slot) as T;
  const value = compute();
  slots.set(slot, value);
  return value;
}
