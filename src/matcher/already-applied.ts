/**
 * "Your REPLACE text is already in the file": the usual cause of a SEARCH that is not found is an edit the model
 * (or an earlier block) already made. Claimed only when the new side is present on a strict rung (exact, line
 * endings, trailing whitespace) and the old side is absent from every rung short of fuzzy.
 */
import type { LineOp } from "../core/edit.js";
import type { TextFile } from "../core/text.js";
import { fileIndentStyle, modelIndentStyle, nestingCompatible } from "./indent-structure.js";
import { LINE_RUNGS } from "./ladder.js";
import { isBlank } from "./normalize.js";
import { oldSide, type OldLine } from "./old-side.js";
import { locateElided } from "./rungs/elision.js";
import { exactRung } from "./rungs/exact.js";
import { lineEndingsRung } from "./rungs/line-endings.js";
import type { LineRung } from "./rungs/line-rung.js";
import { trailingWhitespaceRung } from "./rungs/trailing-whitespace.js";
import { findWindows } from "./windows.js";

const STRICT_RUNGS: readonly LineRung[] = [exactRung, lineEndingsRung, trailingWhitespaceRung];

/** The pieces between elisions occur in order (first occurrence after the previous piece). */
function presentStrictly(file: TextFile, lines: readonly OldLine[]): boolean {
  return STRICT_RUNGS.some((rung) => {
    const keys = rung.fileKeys(file);
    let cursor = 0;
    let piece: string[] = [];
    const pieces: string[][] = [];
    for (const line of lines) {
      if (line.kind !== "elision") piece.push(rung.modelKey(line.text));
      else if (piece.length > 0) {
        pieces.push(piece);
        piece = [];
      }
    }
    if (piece.length > 0) pieces.push(piece);
    for (const want of pieces) {
      const at = findWindows(keys, want, cursor)[0];
      if (at === undefined) return false;
      cursor = at + want.length;
    }
    return pieces.length > 0;
  });
}

function presentLoosely(file: TextFile, ops: readonly LineOp[], old: readonly OldLine[]): boolean {
  const modelStyle = modelIndentStyle(ops);
  if (old.some((l) => l.kind === "elision")) {
    return locateElided(file, old, modelStyle, fileIndentStyle(file)).kind !== "not-found";
  }
  return LINE_RUNGS.some((rung) =>
    findWindows(
      rung.fileKeys(file),
      old.map((l) => rung.modelKey(l.text)),
    ).some(
      (s) =>
        !rung.checksNesting ||
        nestingCompatible(
          old.map((l, j) => ({ model: l.text, file: file.lines[s + j]! })),
          modelStyle,
          fileIndentStyle(file),
        ),
    ),
  );
}

export function isAlreadyApplied(file: TextFile, ops: readonly LineOp[]): boolean {
  if (!ops.some((o) => o.op === "add" || o.op === "remove")) return false;
  const newSide: OldLine[] = [];
  ops.forEach((o, op) => {
    if (o.op !== "remove") newSide.push({ op, kind: o.op === "elision" ? "elision" : "context", text: o.text });
  });
  if (newSide.every((l) => l.kind === "elision" || isBlank(l.text))) return false;
  if (!presentStrictly(file, newSide)) return false;
  const old = oldSide(ops);
  return old.length === 0 || !presentLoosely(file, ops, old);
}
