/**
 * Rung 6, elision: the old side is cut at its elision lines (`...`, `// ... existing code ...`) into pieces. Each
 * piece is located with the loosest line key (and the nesting rule), in order, each after the previous one, and
 * must be unique within that range: "the first one after" could land an edit in the wrong function, so a second
 * candidate refuses. An elision covers the gap between its neighbouring pieces (kept verbatim when written); a
 * leading one stands for everything before the first piece, a trailing one for everything after the last. Those
 * spans are a convention, not something the model said: added lines must be placed by a quoted line beside them
 * (elidedInsertionDoubt), never by where an elided run ends.
 */
import type { LineOp } from "../../core/edit.js";
import type { IndentStyle } from "../../core/indent.js";
import type { TextFile } from "../../core/text.js";
import { nestingCompatible } from "../indent-structure.js";
import type { OldLine } from "../old-side.js";
import type { Alignment } from "../types.js";
import { findWindows } from "../windows.js";
import { looseKey, looseKeys } from "./unicode.js";

export type ElisionOutcome =
  | { readonly kind: "found"; readonly start: number; readonly end: number; readonly alignment: readonly Alignment[] }
  | { readonly kind: "ambiguous"; readonly starts: readonly number[] }
  | { readonly kind: "not-found"; readonly note?: string };

/** Consecutive non-elision old lines. */
function splitPieces(old: readonly OldLine[]): OldLine[][] {
  const pieces: OldLine[][] = [];
  let current: OldLine[] = [];
  for (const line of old) {
    if (line.kind !== "elision") current.push(line);
    else if (current.length > 0) {
      pieces.push(current);
      current = [];
    }
  }
  if (current.length > 0) pieces.push(current);
  return pieces;
}

export function locateElided(
  file: TextFile,
  old: readonly OldLine[],
  modelStyle: IndentStyle | undefined,
  fileStyle: IndentStyle | undefined,
): ElisionOutcome {
  const pieces = splitPieces(old);
  if (pieces.length === 0) return { kind: "not-found", note: "the SEARCH holds only elision lines" };
  const keys = looseKeys(file);
  const starts: number[] = [];
  let cursor = 0;
  for (const [k, piece] of pieces.entries()) {
    const found = findWindows(
      keys,
      piece.map((l) => looseKey(l.text)),
      cursor,
    ).filter((s) =>
      nestingCompatible(
        piece.map((l, j) => ({ model: l.text, file: file.lines[s + j]! })),
        modelStyle,
        fileStyle,
      ),
    );
    if (found.length === 0) {
      const where = k === 0 ? "" : ` after line ${cursor}`;
      return {
        kind: "not-found",
        note: `the part of the SEARCH between elisions starting "${piece[0]!.text.trim()}" is not in the file${where}`,
      };
    }
    // Every reading of the SEARCH starts where its first piece does: a later piece's lines would send the model
    // looking at the middle of the block.
    if (found.length > 1) return { kind: "ambiguous", starts: k === 0 ? found : found.map(() => starts[0]!) };
    starts.push(found[0]!);
    cursor = found[0]! + piece.length;
  }
  return { kind: "found", ...alignPieces(old, starts, pieces, file.lines.length) };
}

/** Piece lines cover one line each; the first elision of a gap covers the gap, further ones cover nothing. */
function alignPieces(
  old: readonly OldLine[],
  starts: readonly number[],
  pieces: readonly OldLine[][],
  total: number,
): { start: number; end: number; alignment: Alignment[] } {
  const alignment: Alignment[] = [];
  let piece = 0;
  let inPiece = 0;
  let position = 0;
  let gapOpen = true;
  for (const line of old) {
    if (line.kind === "elision") {
      const gapEnd = piece < pieces.length ? starts[piece]! : total;
      alignment.push({ op: line.op, start: position, end: gapOpen ? gapEnd : position });
      if (gapOpen) position = gapEnd;
      gapOpen = false;
      continue;
    }
    if (inPiece === 0) position = starts[piece]!;
    alignment.push({ op: line.op, start: position, end: position + 1 });
    position++;
    gapOpen = true;
    if (++inPiece === pieces[piece]!.length) {
      piece++;
      inPiece = 0;
    }
  }
  return { start: alignment[0]!.start, end: position, alignment };
}

const INSERTION_ADVICE = "it is unclear where; quote the lines around the insertion";

/**
 * Why added lines cannot be placed, if they cannot. A run of added lines is placed by the old lines next to it in
 * op order; when neither is a quoted line of `old` (only elisions, the edge of the edit, or blank lines a retry
 * dropped), its place would be where an elided run starts or ends: the file's end after a trailing elision, its
 * start before a leading one, the end of the gap between two elisions. The model said none of these.
 */
export function elidedInsertionDoubt(ops: readonly LineOp[], old: readonly OldLine[]): string | undefined {
  const index = new Map(old.map((l, i) => [l.op, i]));
  const quoted = (i: number | undefined): boolean => i !== undefined && old[i]!.kind !== "elision";
  const isElision = (i: number | undefined): boolean => i !== undefined && old[i]!.kind === "elision";
  for (let a = 0; a < ops.length; a++) {
    if (ops[a]!.op !== "add") continue;
    let b = a;
    while (b + 1 < ops.length && ops[b + 1]!.op === "add") b++;
    const before = index.get(a - 1);
    const after = index.get(b + 1);
    a = b;
    if (quoted(before) || quoted(after)) continue;
    if (!isElision(before) && !isElision(after)) continue;
    const quotedAfter = old.some((l, i) => i > (before ?? -1) && l.kind !== "elision");
    const quotedBefore = old.some((l, i) => i < (after ?? old.length) && l.kind !== "elision");
    const where = !quotedAfter
      ? "after a trailing '...'"
      : !quotedBefore
        ? "before a leading '...'"
        : "between elided lines ('...')";
    return `the edit adds lines ${where} — ${INSERTION_ADVICE}`;
  }
  return undefined;
}
