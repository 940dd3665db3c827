/**
 * Lines added inside a line continued with a backslash that the edit does not show. When the edit's added lines
 * come first and the file line before them ends with `\` unquoted, or come last right after a quoted line ending
 * with `\` whose continuation is not quoted, the added lines would cut that continued line in two (the file's
 * next line then stands alone). A model that saw the continuation would not write that without a `\` of its own;
 * one that left the continuation out of its quote meant to add after it. Either way the place is a guess.
 */
import type { LineOp } from "../core/edit.js";
import type { LineAt } from "./counted-run.js";
import type { OldLine } from "./old-side.js";

/** Whether `text` ends with an odd number of backslashes: the line goes on to the next one. */
export function continues(text: string): boolean {
  let n = 0;
  while (n < text.length && text.charCodeAt(text.length - 1 - n) === 92) n++;
  return n % 2 === 1;
}

/**
 * For `old` (the edit's located old lines) at the window [start, end) of a file of `length` lines, the 0-based
 * file line whose continuation the edit's added lines would cut, unquoted, or undefined. Context lines of the edit
 * outside the window (blank edge lines the ladder left out) are not in the file there and do not count.
 */
export function cutContinuation(
  line: LineAt,
  length: number,
  ops: readonly LineOp[],
  old: readonly OldLine[],
  start: number,
  end: number,
): number | undefined {
  if (old.length === 0) return undefined;
  const addedText = (from: number, to: number): string[] =>
    ops.slice(from, to).flatMap((o) => (o.op === "add" ? [o.text] : []));
  // What decides is the last added line: the file line after it stays in the continued line only if it continues.
  const leading = addedText(0, old[0]!.op);
  if (leading.length > 0 && start > 0 && continues(line(start - 1)) && !continues(leading[leading.length - 1]!)) {
    return start - 1;
  }
  // After the window, the line before the added ones is the window's last line, if the edit keeps it.
  const last = old[old.length - 1]!;
  const trailing = last.kind === "context" ? addedText(last.op + 1, ops.length) : [];
  if (trailing.length > 0 && end < length && continues(line(end - 1)) && !continues(trailing[trailing.length - 1]!)) {
    return end - 1;
  }
  return undefined;
}

/** The doubt in words, for line `cut` (0-based) of the file. */
export function continuationNote(cut: number): string {
  const [line, next] = [cut + 1, cut + 2];
  return (
    `line ${String(line)} ends with a backslash, which continues it onto line ${String(next)}, and the added lines ` +
    `would go between them although the edit does not show line ${String(next)}: quote line ${String(next)} too, ` +
    `so that it is clear whether they go before or after it`
  );
}
