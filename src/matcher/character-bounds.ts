/**
 * Upper bounds on a window's similarity from character counts alone, which the fuzzy search asks before it pays
 * for Levenshtein (fuzzy-search.ts): the exact bag distance of the window's characters (`characterWindow`), and a
 * coarser one from counts kept per line (`classWindow`), which costs a few dozen additions a line instead of a pass
 * over its characters. On a file of look-alike functions the search asks about thousands of windows per hunk that
 * share half the lines and have the right length; the coarse bound rules out nearly all of them first.
 */
import { lineRecords } from "../core/file-memo.js";
import type { TextFile } from "../core/text.js";

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
const CHARACTER_CLASSES = 512;
const classOf = (code: number): number => (code < 256 ? code : 256 | (code & 255));

export function characterWindow(keys: readonly string[], wantText: string, core: number): CharacterWindow {
  const want = new Int32Array(CHARACTER_CLASSES);
  for (let i = 0; i < wantText.length; i++) want[classOf(wantText.charCodeAt(i))]!++;
  const have = new Int32Array(CHARACTER_CLASSES);
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

/**
 * Classes of the per-line counts: a code's class is its low four bits. On the generated file of `--only drifted`,
 * 32 classes cost more in additions than they rule out, and 8 leave ten times as many windows to the exact bound.
 */
const LINE_CLASSES = 16;
/** A line's record: its state, then a count per class. */
export const CLASS_RECORD = 1 + LINE_CLASSES;
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
  const want = new Int32Array(LINE_CLASSES);
  for (let i = 0; i < wantText.length; i++) want[wantText.charCodeAt(i) & (LINE_CLASSES - 1)]!++;
  const have = new Int32Array(LINE_CLASSES);
  const NEWLINE_CLASS = 10 & (LINE_CLASSES - 1);
  let uncounted = 0;
  const add = (line: number, sign: number): void => {
    const at = line * CLASS_RECORD;
    if (counts[at] === UNWRITTEN) write(keys[line]!, counts, at);
    if (counts[at] === UNCOUNTED) {
      uncounted += sign;
      return;
    }
    for (let k = 0; k < LINE_CLASSES; k++) have[k]! += sign * counts[at + 1 + k]!;
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
        for (let k = 0; k < LINE_CLASSES; k++) {
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
  for (let i = 0; i < key.length; i++) into[at + 1 + (key.charCodeAt(i) & (LINE_CLASSES - 1))]!++;
}

/** Per line of the file, the class counts of its loose key, written when `classWindow` first reads them. */
export const looseClassCounts = (file: TextFile): Uint8Array => lineRecords(file, "classes:unicode", CLASS_RECORD);
