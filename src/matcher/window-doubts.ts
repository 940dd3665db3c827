/**
 * Why a window the line rungs found alone is still no sure place for the edit, in words: a change that only the
 * number of equal lines quoted places (counted-run.ts; on the byte-exact rungs, where copies are told apart by
 * nothing else), or lines added inside a continued line the edit does not show (continued-line.ts). The ladder
 * refuses with it; the exact path leaves such an edit to the ladder.
 */
import type { LineOp } from "../core/edit.js";
import { continuationNote, cutContinuation } from "./continued-line.js";
import { countedRunNote, placedByCount, type LineAt } from "./counted-run.js";
import type { OldLine } from "./old-side.js";

export function lineWindowDoubt(
  line: LineAt,
  length: number,
  ops: readonly LineOp[],
  old: readonly OldLine[],
  start: number,
  byteExact: boolean,
): string | undefined {
  if (byteExact && placedByCount(line, length, ops, old, start)) {
    // The change's first line in the file: a copy, or (for lines added between copies) the copy after them.
    const firstOp = ops.findIndex((o) => o.op !== "context");
    return countedRunNote(line, length, start + old.filter((l) => l.op < firstOp).length);
  }
  const cut = cutContinuation(line, length, ops, old, start, start + old.length);
  return cut === undefined ? undefined : continuationNote(cut);
}
