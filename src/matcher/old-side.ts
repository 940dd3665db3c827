/**
 * The old side of a replace edit (its non-`add` ops) as the matcher sees it, with each line's op index so that
 * alignments can point back into `edit.ops`.
 */
import type { LineOp } from "../core/edit.js";
import type { TextFile } from "../core/text.js";
import { isBlank } from "./normalize.js";
import type { Alignment, Match } from "./types.js";

export interface OldLine {
  /** Index of the op in the edit's `ops` (add ops included). */
  readonly op: number;
  readonly kind: "context" | "remove" | "elision";
  readonly text: string;
}

export function oldSide(ops: readonly LineOp[]): OldLine[] {
  const lines: OldLine[] = [];
  for (let op = 0; op < ops.length; op++) {
    const o = ops[op]!;
    if (o.op !== "add") lines.push({ op, kind: o.op, text: o.text });
  }
  return lines;
}

/** One line per old line, from `start` on: the alignment of a window found by a line rung. */
export const straightAlignment = (old: readonly OldLine[], start: number): Alignment[] =>
  old.map((line, i) => ({ op: line.op, start: start + i, end: start + i + 1 }));

export interface BlankTrim {
  readonly leading: readonly OldLine[];
  readonly kept: readonly OldLine[];
  readonly trailing: readonly OldLine[];
}

const droppable = (line: OldLine): boolean => line.kind === "context" && isBlank(line.text);

/**
 * Leading and trailing blank CONTEXT lines, which models add or lose around a block; undefined when there are none
 * or nothing else would remain. Removed blank lines are never dropped: the edit means to delete them. A run stops
 * at added lines: in `M`, blank, `+x`, blank only the last blank may go; the first one places `+x` (dropping it
 * would move the insertion above the blank line the model put it below).
 */
export function trimBlankContext(old: readonly OldLine[]): BlankTrim | undefined {
  const adjacent = (a: OldLine, b: OldLine): boolean => b.op === a.op + 1;
  let first = 0;
  while (first < old.length && droppable(old[first]!) && (first === 0 || adjacent(old[first - 1]!, old[first]!))) {
    first++;
  }
  let last = old.length;
  while (last > first && droppable(old[last - 1]!) && (last === old.length || adjacent(old[last - 1]!, old[last]!))) {
    last--;
  }
  if (first === last || (first === 0 && last === old.length)) return undefined;
  return { leading: old.slice(0, first), kept: old.slice(first, last), trailing: old.slice(last) };
}

/** How far past a window a blank line may stand for the one an edit puts after the lines it adds. */
const DROPPED_LINES_REACH = 3;

/**
 * Why lines added at the end of a window found without the edit's trailing blank lines have no sure place: the
 * blank line after them was all that tied them there, the file's next line is not blank, and a blank line comes a
 * line or three later. The model may have added a blank line, or left out the lines before the file's: the added
 * lines go right after the window, or after those lines.
 */
export function trailingBlankDoubt(
  file: TextFile,
  ops: readonly LineOp[],
  trimmed: BlankTrim,
  match: Match,
): string | undefined {
  const first = trimmed.trailing[0];
  if (first === undefined || ops[first.op - 1]?.op !== "add") return undefined;
  const last = Math.min(file.lines.length, match.end + 1 + DROPPED_LINES_REACH);
  for (let i = match.end; i < last; i++) {
    if (!isBlank(file.lines[i]!)) continue;
    if (i === match.end) return undefined;
    return (
      `the lines it adds follow line ${match.end} here, but the blank line the edit puts after them is line ` +
      `${i + 1}: it may have left out the lines between, after which they would go; quote the lines around them`
    );
  }
  return undefined;
}
