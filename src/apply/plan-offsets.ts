/**
 * Hint line numbers (a udiff hunk's `@@ -LINE`) are written against the original file, but each edit is located in
 * the file as changed by the edits before it. Hunks need not come in file order, so the shift of a hint line is the
 * sum of the line deltas of the applied edits ABOVE it only; an edit below it moves nothing there.
 *
 * A diff made against another version of the file has hints off by the lines added or removed since: as GNU patch
 * carries a hunk's offset to the next, the hint of an edit is first moved by the drift at which the nearest hinted
 * edit above it was found (its place minus its hint), so a stale header cannot pick a repeated text elsewhere.
 */
import type { LineOp } from "../core/edit.js";
import type { Alignment, Match } from "../matcher/types.js";

/** One applied edit of a file, in original-file coordinates (0-based, end exclusive). */
export interface LineShift {
  readonly start: number;
  readonly end: number;
  /** Lines added minus lines removed. */
  readonly delta: number;
  /** For a hinted edit: where it was found minus where its hint put it, in original lines. */
  readonly drift?: number;
  /** The diff section the edit was a hunk of (EditOrigin.section). */
  readonly section?: number;
}

/** The shift to add to an original 0-based line to find it in the current file. */
export function shiftAt(shifts: readonly LineShift[], line: number): number {
  let sum = 0;
  for (const s of shifts) if (s.end <= line) sum += s.delta;
  return sum;
}

/** The drift of the nearest hinted edit at or above an original 0-based line (0 when none is). */
export function driftAbove(shifts: readonly LineShift[], line: number): number {
  let drift = 0;
  for (const s of shifts) {
    if (s.start > line) break;
    if (s.drift !== undefined) drift = s.drift;
  }
  return drift;
}

/** What to add to a hint's original 0-based line to compare it with the current file. */
export function hintOffset(shifts: readonly LineShift[], line: number): number {
  const drift = driftAbove(shifts, line);
  return drift + shiftAt(shifts, line + drift);
}

/**
 * The original line of a current 0-based line: the edits are walked in original order (recordShift keeps them so),
 * each one's current end found from the deltas of those above it, and the deltas of those ending at or above
 * `line` are taken back.
 */
export function originalLine(shifts: readonly LineShift[], line: number): number {
  let shift = 0;
  for (const s of shifts) {
    if (s.end + shift + s.delta > line) break;
    shift += s.delta;
  }
  return line - shift;
}

/**
 * Whether current 0-based `line` lies in the lines an applied hunk of diff `section` wrote (its changed range as it
 * is now).
 */
export function writtenBySection(shifts: readonly LineShift[], line: number, section: number): boolean {
  let shift = 0;
  for (const s of shifts) {
    const start = s.start + shift;
    const end = start + (s.end - s.start) + s.delta;
    if (line < start) return false;
    if (line < end) return s.section === section;
    shift += s.delta;
  }
  return false;
}

/**
 * Records an edit that replaced current lines [start, end) and changed the file's length by `delta` (a hunk of diff
 * `section`, when it is one).
 */
export function recordShift(
  shifts: LineShift[],
  start: number,
  end: number,
  delta: number,
  drift?: number,
  section?: number,
): void {
  const from = originalLine(shifts, start);
  // Kept in original order; edits at the same original line stay in the order they were applied.
  let at = shifts.length;
  while (at > 0 && shifts[at - 1]!.start > from) at--;
  shifts.splice(at, 0, {
    start: from,
    end: from + (end - start),
    delta,
    ...(drift === undefined ? {} : { drift }),
    ...(section === undefined ? {} : { section }),
  });
}

/**
 * The lines of a match an edit really changes: its window without the context (and elision) lines it only kept at
 * either end. A later hunk's hint line may fall on those kept lines, and they moved with the change before them.
 */
export function changedRange(
  ops: readonly LineOp[],
  alignment: readonly Alignment[],
  start: number,
  end: number,
): { start: number; end: number } {
  const kept = (op: LineOp): boolean => op.op === "context" || op.op === "elision";
  const spans = alignment.map((a) => ({ kept: kept(ops[a.op]!), size: a.end - a.start, op: a.op }));
  const firstChange = ops.findIndex((op) => !kept(op));
  if (firstChange === -1) return { start, end };
  let lastChange = ops.length - 1;
  while (kept(ops[lastChange]!)) lastChange--;
  let from = start;
  for (const s of spans) {
    if (s.op >= firstChange) break;
    from += s.size;
  }
  let to = end;
  for (let k = spans.length - 1; k >= 0 && spans[k]!.op > lastChange; k--) to -= spans[k]!.size;
  return { start: from, end: Math.max(from, to) };
}

/**
 * Where the edit's first old line was found, in original lines, minus where its hint put it. Blank context lines the
 * ladder dropped at the top (aligned to nothing) still count as the hunk's first lines.
 */
export function foundDrift(shifts: readonly LineShift[], match: Match, hinted: number): number {
  let dropped = 0;
  while (dropped < match.alignment.length && match.alignment[dropped]!.start === match.alignment[dropped]!.end) {
    dropped++;
  }
  return originalLine(shifts, match.start) - dropped - hinted;
}
