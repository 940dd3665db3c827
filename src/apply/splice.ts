/**
 * Turning a located match into the new file. Lines outside the match are copied byte for byte; inside it, context
 * lines and elision gaps keep the file's own bytes and endings (even when they matched only loosely), removed
 * lines are dropped, and added lines are re-indented to the file's style (splice-indent.ts) with the file's
 * dominant line ending; an added line that only restates a removed one keeps the file's text (splice-restated.ts).
 * The BOM and the final-newline state survive unless the edit says otherwise.
 */
import type { ReplaceEdit } from "../core/edit.js";
import { dominantEol, hasFinalNewline, type Eol, type TextFile } from "../core/text.js";
import { fileIndentKind, fileIndentStyle } from "../matcher/indent-structure.js";
import { stripCarriageReturn } from "../matcher/normalize.js";
import type { Match } from "../matcher/types.js";
import { alignedPairs, nearestPair, planIndent, reindentLine, type FileIndent } from "./splice-indent.js";
import { restatedLines, restatedText } from "./splice-restated.js";
import { startsInsideLiteral } from "./string-literals.js";

/** The alignment must tile the match in op order; anything else is a matcher bug, not an expected failure. */
function checkAlignment(edit: ReplaceEdit, match: Match): void {
  let k = 0;
  let at = match.start;
  let ok = true;
  for (let index = 0; index < edit.ops.length; index++) {
    if (edit.ops[index]!.op === "add") continue;
    const a = match.alignment[k++];
    ok &&= a !== undefined && a.op === index && a.start === at && a.end >= a.start;
    if (a !== undefined) at = a.end;
  }
  if (!ok || k !== match.alignment.length || at !== match.end)
    throw new Error(`renderReplacement: the alignment does not cover lines ${match.start}-${match.end} in op order`);
}

/** What a splice reads of the version it edits: a LineDoc, or a parsed file through `renderReplacement`. */
export interface SpliceSource {
  readonly length: number;
  line(i: number): string;
  eol(i: number): Eol;
  dominantEol(): "\n" | "\r\n";
  hasFinalNewline(): boolean;
}

/** Lines [start, end) of the version become `lines`; `changed` is what a reader sees as the edit (1-based). */
export interface Splice {
  readonly start: number;
  readonly end: number;
  readonly lines: readonly string[];
  readonly eols: readonly Eol[];
  readonly changed: { start: number; end: number };
}

/**
 * The lines that replace a match. The splice starts one line early when the match reaches the end of the file: the
 * old last line may gain or lose its ending there. `indent` is the file's, read only if a line needs it.
 */
export function renderSplice(source: SpliceSource, edit: ReplaceEdit, match: Match, indent: FileIndent): Splice {
  checkAlignment(edit, match);
  const total = source.length;
  const eol: "\n" | "\r\n" = total === 0 ? "\n" : source.dominantEol();
  const from = match.end === total && match.start > 0 ? match.start - 1 : match.start;
  const lineAt = (i: number): string => source.line(i);
  const eolAt = (i: number): Eol => source.eol(i);
  const pairs = alignedPairs(lineAt, edit, match, () => indent.style());
  const restated = restatedLines(edit.ops, match.alignment, lineAt);
  const plan = planIndent(indent, edit, pairs);
  // Read only if an added line's indentation is in doubt (string-literals.ts reads a Markdown file's lines above).
  let literal: readonly boolean[] | undefined | null = null;
  const inLiteral = (index: number) => (): boolean => {
    if (literal === null) literal = startsInsideLiteral(edit.path, edit.ops, { count: match.start, line: lineAt });
    return literal?.[index] === true;
  };
  const lines: string[] = [];
  const eols: Eol[] = [];
  const keep = (start: number, end: number): void => {
    for (let i = start; i < end; i++) {
      lines.push(lineAt(i));
      eols.push(eolAt(i));
    }
  };
  keep(from, match.start);
  let k = 0;
  let leadingGap = 0;
  let trailingGap = 0;
  let seenNonElision = false;
  for (let index = 0; index < edit.ops.length; index++) {
    const op = edit.ops[index]!;
    if (op.op === "add") {
      // A `\r` left at the end of model text is CRLF residue; the line gets the file's ending instead.
      const fileLine = restated.get(index);
      lines.push(
        fileLine === undefined
          ? reindentLine(stripCarriageReturn(op.text), nearestPair(pairs, index), plan, inLiteral(index))
          : restatedText(lineAt(fileLine), op.text),
      );
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
    // An elision-looking line the SEARCH was found with as a line of the file (a line rung, one line) is that line:
    // where REPLACE words it otherwise, the edit changes it.
    if (op.op === "elision" && op.becomes !== undefined && match.strategy !== "elision" && a.end - a.start === 1) {
      const file = lineAt(a.start);
      lines.push(`${file.slice(0, file.length - file.trimStart().length)}${stripCarriageReturn(op.becomes).trim()}`);
      eols.push(eolAt(a.start));
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
  // before it when the edit appends at the end (then the splice starts there); the tail keeps its endings.
  const tailCount = total - match.end;
  for (let i = 0; i < regionEnd; i++) {
    if (eols[i] === "" && (i < regionEnd - 1 || tailCount > 0)) eols[i] = eol;
  }
  if (match.end === total && regionEnd > 0) {
    const last = regionEnd - 1;
    // A diff changes the final newline only when its two sides disagree about it; when both carry the marker (or
    // neither does), the file keeps its own state.
    const changesNewline = (edit.oldEndsWithoutNewline ?? false) !== (edit.newEndsWithoutNewline ?? false);
    const withoutNewline = changesNewline ? edit.newEndsWithoutNewline === true : !source.hasFinalNewline();
    if (withoutNewline) eols[last] = "";
    else if (eols[last] === "") eols[last] = eol;
  }
  return {
    start: from,
    end: match.end,
    lines,
    eols,
    changed: { start: match.start + leadingGap + 1, end: from + regionEnd - (seenNonElision ? trailingGap : 0) },
  };
}

/** A parsed file as a splice source (the ladder's callers and tests work on parsed files). */
function fileSource(file: TextFile): SpliceSource {
  return {
    length: file.lines.length,
    line: (i) => file.lines[i]!,
    eol: (i) => file.eols[i]!,
    dominantEol: () => dominantEol(file),
    hasFinalNewline: () => hasFinalNewline(file),
  };
}

/** renderSplice on a parsed file, returning the new file. */
export function renderReplacement(
  file: TextFile,
  edit: ReplaceEdit,
  match: Match,
): { file: TextFile; changed: { start: number; end: number } } {
  const splice = renderSplice(fileSource(file), edit, match, {
    style: () => fileIndentStyle(file),
    kind: () => fileIndentKind(file),
  });
  const lines = [...file.lines.slice(0, splice.start), ...splice.lines, ...file.lines.slice(splice.end)];
  const eols = [...file.eols.slice(0, splice.start), ...splice.eols, ...file.eols.slice(splice.end)];
  return { file: { bom: file.bom, lines, eols }, changed: splice.changed };
}
