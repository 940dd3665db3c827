/**
 * An insertion made already: an edit that only adds lines (before and/or after the lines it quotes), found where
 * those added lines already stand beside the quoted ones. Applied again it would write them twice (a retried
 * reply, or a branch that has the change since the model read it); GNU patch calls this "previously applied".
 * Short additions are left alone: a `}` or a blank line next to its twin is as likely meant as made.
 */
import type { ReplaceEdit } from "../core/edit.js";
import type { Match } from "../matcher/types.js";

/** Non-whitespace characters the added lines must hold before their presence counts as the edit being made. */
const MIN_ADDED_CHARACTERS = 40;

const sameLine = (a: string, b: string): boolean => a.trim() === b.trim();

/** The 1-based first and last lines of the file already holding the edit's added lines, if they all are. */
export function alreadyInserted(
  edit: ReplaceEdit,
  match: Match,
  length: number,
  lineAt: (i: number) => string,
): { start: number; end: number } | undefined {
  const { ops } = edit;
  if (ops.some((op) => op.op === "remove" || op.op === "elision")) return undefined;
  const first = ops.findIndex((op) => op.op !== "add");
  if (first < 0) return undefined;
  let last = ops.length - 1;
  while (ops[last]!.op === "add") last--;
  // Added lines between quoted ones would have split them: the quoted lines could not be found together.
  if (ops.slice(first, last + 1).some((op) => op.op === "add")) return undefined;
  const before = ops.slice(0, first).map((op) => op.text);
  const after = ops.slice(last + 1).map((op) => op.text);
  const added = [...before, ...after];
  if (added.reduce((n, line) => n + line.replace(/\s+/g, "").length, 0) < MIN_ADDED_CHARACTERS) return undefined;
  const from = match.start - before.length;
  const to = match.end + after.length;
  if (from < 0 || to > length) return undefined;
  const holds = (lines: readonly string[], at: number): boolean =>
    lines.every((line, i) => sameLine(line, lineAt(at + i)));
  if (!holds(before, from) || !holds(after, match.end)) return undefined;
  return before.length > 0 && after.length > 0
    ? { start: from + 1, end: to }
    : before.length > 0
      ? { start: from + 1, end: match.start }
      : { start: match.end + 1, end: to };
}
