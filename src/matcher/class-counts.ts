/**
 * Character counts kept per line, for the fuzzy search's first bound on a window (window-filter.ts has the exact
 * one): a window's counts are the sum of its lines', so asking about a window costs a few dozen additions a line
 * instead of a pass over its characters. On a file of look-alike functions the search asks about thousands of
 * windows per hunk that share half the lines and have the right length; this rules out nearly all of them.
 */
import { lineRecords } from "../core/file-memo.js";
import type { TextFile } from "../core/text.js";
import type { CharacterWindow } from "./window-filter.js";

/**
 * Classes of the per-line counts: a code's class is its low four bits. On the generated file of `--only drifted`,
 * 32 classes cost more in additions than they rule out, and 8 leave ten times as many windows to the exact bound.
 */
const CLASSES = 16;
/** A line's record: its state, then a count per class. */
export const CLASS_RECORD = 1 + CLASSES;
const UNWRITTEN = 0;
const COUNTED = 1;
/** A line past 255 characters: a count might not fit its byte. */
const UNCOUNTED = 2;

/**
 * The character-count bound of `characterWindow` on coarser classes, from counts kept per line (`looseClassCounts`):
 * a window costs a few dozen additions a line instead of a pass over its characters. Classes merge characters,
 * which can only lower the bound (a surplus and a shortage in one class cancel): it rules out most windows the
 * exact bound would, and the survivors are asked again with the exact one. A window holding a line past 255
 * characters is never ruled out.
 */
export function classWindow(
  counts: Uint8Array,
  keys: readonly string[],
  wantText: string,
  core: number,
): CharacterWindow {
  const want = new Int32Array(CLASSES);
  for (let i = 0; i < wantText.length; i++) want[wantText.charCodeAt(i) & (CLASSES - 1)]!++;
  const have = new Int32Array(CLASSES);
  const NEWLINE_CLASS = 10 & (CLASSES - 1);
  let uncounted = 0;
  const add = (line: number, sign: number): void => {
    const at = line * CLASS_RECORD;
    if (counts[at] === UNWRITTEN) write(keys[line]!, counts, at);
    if (counts[at] === UNCOUNTED) {
      uncounted += sign;
      return;
    }
    for (let k = 0; k < CLASSES; k++) have[k]! += sign * counts[at + 1 + k]!;
  };
  let at = -1;
  const moveTo = (start: number): void => {
    if (at >= 0 && start < at + core) {
      for (let i = at; i < start; i++) add(i, -1);
      for (let i = at + core; i < start + core; i++) add(i, 1);
    } else {
      have.fill(0);
      uncounted = 0;
      for (let i = start; i < start + core; i++) add(i, 1);
    }
    at = start;
  };
  return {
    boundAt: (start, size, length) => {
      if (start !== at) moveTo(start);
      for (let i = start + core; i < start + size; i++) add(i, 1);
      let bound = 1;
      if (uncounted === 0) {
        // The newlines joining the window's lines are characters too.
        const newlines = Math.max(0, size - 1);
        have[NEWLINE_CLASS]! += newlines;
        let surplus = 0;
        let shortage = 0;
        for (let k = 0; k < CLASSES; k++) {
          const d = have[k]! - want[k]!;
          if (d > 0) surplus += d;
          else shortage -= d;
        }
        have[NEWLINE_CLASS]! -= newlines;
        bound = 1 - Math.max(surplus, shortage) / Math.max(length, wantText.length, 1);
      }
      for (let i = start + core; i < start + size; i++) add(i, -1);
      return bound;
    },
  };
}

/** Writes the record of `key` at `at`. */
function write(key: string, into: Uint8Array, at: number): void {
  if (key.length > 255) {
    into[at] = UNCOUNTED;
    return;
  }
  into[at] = COUNTED;
  for (let i = 0; i < key.length; i++) into[at + 1 + (key.charCodeAt(i) & (CLASSES - 1))]!++;
}

/** Per line of the file, the class counts of its loose key, written when `classWindow` first reads them. */
export const looseClassCounts = (file: TextFile): Uint8Array => lineRecords(file, "classes:unicode", CLASS_RECORD);
