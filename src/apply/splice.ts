/**
 * Turning a located match into the new file. Lines outside the match are copied byte for byte; inside it, context
 * lines and elision gaps keep the file's own bytes and endings (even when they matched only loosely), removed
 * lines are dropped, and added lines are re-indented to the file's style (splice-indent.ts) with the file's
 * dominant line ending. The BOM and the final-newline state survive unless the edit says otherwise.
 */
import type { ReplaceEdit } from "../core/edit.js";
import { dominantEol, hasFinalNewline, type Eol, type TextFile } from "../core/text.js";
import { stripCarriageReturn } from "../matcher/normalize.js";
import type { Match } from "../matcher/types.js";
import { alignedPairs, nearestPair, planIndent, reindentLine } from "./splice-indent.js";

/** The alignment must tile the match in op order; anything else is a matcher bug, not an expected failure. */
function checkAlignment(edit: ReplaceEdit, match: Match): void {
  const oldOps = edit.ops.flatMap((o, i) => (o.op === "add" ? [] : [i]));
  let at = match.start;
  const ok =
    match.alignment.length === oldOps.length &&
    match.alignment.every((a, k) => {
      const tiles = a.op === oldOps[k] && a.start === at && a.end >= a.start;
      at = a.end;
      return tiles;
    }) &&
    at === match.end;
  if (!ok)
    throw new Error(`renderReplacement: the alignment does not cover lines ${match.start}-${match.end} in op order`);
}

export function renderReplacement(
  file: TextFile,
  edit: ReplaceEdit,
  match: Match,
): { file: TextFile; changed: { start: number; end: number } } {
  checkAlignment(edit, match);
  const total = file.lines.length;
  const eol: "\n" | "\r\n" = total === 0 ? "\n" : dominantEol(file);
  const pairs = alignedPairs(file, edit, match);
  const plan = planIndent(file, edit, pairs);
  const lines: string[] = file.lines.slice(0, match.start);
  const eols: Eol[] = file.eols.slice(0, match.start);
  const keep = (start: number, end: number): void => {
    for (let i = start; i < end; i++) {
      lines.push(file.lines[i]!);
      eols.push(file.eols[i]!);
    }
  };
  let k = 0;
  let leadingGap = 0;
  let trailingGap = 0;
  let seenNonElision = false;
  for (const [index, op] of edit.ops.entries()) {
    if (op.op === "add") {
      // A `\r` left at the end of model text is CRLF residue; the line gets the file's ending instead.
      lines.push(reindentLine(stripCarriageReturn(op.text), nearestPair(pairs, index, edit.ops.length), plan));
      eols.push(eol);
      seenNonElision = true;
      trailingGap = 0;
      continue;
    }
    const a = match.alignment[k++]!;
    if (op.op === "remove") {
      seenNonElision = true;
      trailingGap = 0;
      continue;
    }
    keep(a.start, a.end);
    if (op.op === "elision") {
      if (!seenNonElision) leadingGap += a.end - a.start;
      trailingGap += a.end - a.start;
    } else {
      seenNonElision = true;
      trailingGap = 0;
    }
  }
  const regionEnd = lines.length;
  // Only the old last line can lack an ending. If lines now follow it, it gets one. It sits in the region, or just
  // before it when the edit appends at the end; lines before that are untouched and the tail keeps its order.
  const tailCount = total - match.end;
  for (let i = Math.max(0, match.start - 1); i < regionEnd; i++) {
    if (eols[i] === "" && (i < regionEnd - 1 || tailCount > 0)) eols[i] = eol;
  }
  // concat copies the untouched tail in one go: one replace on a large file must stay cheap.
  const outLines = tailCount > 0 ? lines.concat(file.lines.slice(match.end)) : lines;
  const outEols = tailCount > 0 ? eols.concat(file.eols.slice(match.end)) : eols;
  if (match.end === total && outEols.length > 0) {
    const last = outEols.length - 1;
    const withoutNewline = edit.newEndsWithoutNewline ?? !hasFinalNewline(file);
    if (withoutNewline) outEols[last] = "";
    else if (outEols[last] === "") outEols[last] = eol;
  }
  return {
    file: { bom: file.bom, lines: outLines, eols: outEols },
    changed: { start: match.start + leadingGap + 1, end: regionEnd - (seenNonElision ? trailingGap : 0) },
  };
}
