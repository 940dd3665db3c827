/**
 * An edit placed only by counting equal lines. When the lines an edit changes sit inside a run of equal lines of
 * the file, with copies of that line in the SEARCH right before and right after the change, and the SEARCH stops
 * inside the run on one side (the file goes on repeating the line past the window), nothing but the number of
 * copies the model wrote places the change: a model that dropped or repeated one copy (the slip models make most
 * with such runs, see COUNTED_COPIES) moves it by a line, and the text still matches byte for byte. That other
 * reading is a guess's twin, so the edit is ambiguous. Blank lines are left out (models drop and add them all the
 * time, and a place among blank lines rarely matters), and so is a change that only removes copies: it leaves the
 * same text wherever it falls.
 */
import type { LineOp } from "../core/edit.js";
import { isBlank, stripCarriageReturn } from "./normalize.js";
import type { OldLine } from "./old-side.js";

/**
 * Copies a model must count for its count to be doubted: one or two equal lines are seen at a glance (and a change
 * right after a distinct line is placed by that line), while slips in copying a run come with longer runs.
 */
const COUNTED_COPIES = 3;

/** Reads a line of the file being matched (0-based), without its ending or a trailing CR. */
export type LineAt = (i: number) => string;

/**
 * Whether the window of `old` at `start` (found byte for byte, endings aside) places its change by counting. The
 * change is taken as one stretch, from the first removed or added line to the last.
 */
export function placedByCount(
  line: LineAt,
  length: number,
  ops: readonly LineOp[],
  old: readonly OldLine[],
  start: number,
): boolean {
  const firstOp = ops.findIndex((o) => o.op !== "context");
  if (firstOp < 0) return false;
  let lastOp = ops.length - 1;
  while (ops[lastOp]!.op === "context") lastOp--;
  // Old lines before and after the change.
  const before = old.filter((l) => l.op < firstOp);
  const after = old.filter((l) => l.op > lastOp);
  const text = (l: { readonly text: string }): string => stripCarriageReturn(l.text);
  if (endsInRun(line, length, ops.slice(firstOp, lastOp + 1), before.length === 0, after.length === 0, start, old))
    return true;
  const last = before[before.length - 1];
  const copy = last === undefined ? undefined : text(last);
  if (copy === undefined || isBlank(copy) || after[0] === undefined || text(after[0]) !== copy) return false;
  const changed = ops.slice(firstOp, lastOp + 1);
  // A removed line of its own text is placed by that text; only copies (or a gap between them) are counted.
  if (changed.some((o) => o.op !== "add" && text(o) !== copy)) return false;
  if (changed.every((o) => o.op === "remove")) return false;
  const all = (lines: readonly OldLine[]): boolean => lines.every((l) => text(l) === copy);
  // The copies between the change and the distinct line that places it, counted from the change outwards.
  const copies = (lines: readonly OldLine[]): number => {
    let n = 0;
    while (n < lines.length && text(lines[n]!) === copy) n++;
    return n;
  };
  const end = start + old.length;
  const runGoesOnAfter = all(after) && end < length && line(end) === copy;
  const runGoesOnBefore = all(before) && start > 0 && line(start - 1) === copy;
  return (
    (runGoesOnAfter && copies([...before].reverse()) >= COUNTED_COPIES) ||
    (runGoesOnBefore && copies(after) >= COUNTED_COPIES)
  );
}

/**
 * The doubt of an edit `placedByCount` in words: the run of equal lines around the window's first changed line
 * (0-based `at`), as 1-based line numbers.
 */
export function countedRunNote(line: LineAt, length: number, at: number): string {
  const copy = line(at);
  let first = at;
  while (first > 0 && line(first - 1) === copy) first--;
  let last = at;
  while (last + 1 < length && line(last + 1) === copy) last++;
  return (
    `lines ${String(first + 1)}-${String(last + 1)} repeat the same line, and the change falls among those copies: ` +
    `only the number of copies the edit quotes places it, so one copy more or fewer would move it; quote the run ` +
    `up to a line that differs on both sides of the change`
  );
}

/**
 * Whether the SEARCH ends (or starts) with the change itself, which replaces copies of a line the file repeats right
 * past that end: nothing quoted on that side shows where the run goes on, so a model that left out a copy before
 * the change (or after it) would change the wrong one, and the text would still match. A change that only removes
 * copies leaves the same text wherever it falls.
 */
function endsInRun(
  line: LineAt,
  length: number,
  changed: readonly LineOp[],
  atStart: boolean,
  atEnd: boolean,
  start: number,
  old: readonly OldLine[],
): boolean {
  const removed = changed.filter((o) => o.op === "remove").map((o) => stripCarriageReturn(o.text));
  const copy = removed[0];
  if (copy === undefined || isBlank(copy) || removed.some((r) => r !== copy)) return false;
  if (changed.every((o) => o.op === "remove")) return false;
  const end = start + old.length;
  return (atEnd && end < length && line(end) === copy) || (atStart && start > 0 && line(start - 1) === copy);
}
