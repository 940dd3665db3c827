/**
 * "Your REPLACE text is already in the file": the usual cause of a SEARCH that is not found is an edit the model
 * (or an earlier block) already made. Claimed only when the new side is present on a strict rung (exact, line
 * endings, trailing whitespace), the removed lines are not beside it where they were, and the old side is absent
 * from every rung short of fuzzy.
 */
import type { LineOp } from "../core/edit.js";
import type { TextFile } from "../core/text.js";
import { fileIndentStyle, modelIndentStyle, nestingCompatible } from "./indent-structure.js";
import { LINE_RUNGS } from "./line-ladder.js";
import { isBlank } from "./normalize.js";
import { oldSide, type OldLine } from "./old-side.js";
import { locateElided } from "./rungs/elision.js";
import { exactRung } from "./rungs/exact.js";
import { lineEndingsRung } from "./rungs/line-endings.js";
import type { LineRung } from "./rungs/line-rung.js";
import { trailingWhitespaceRung } from "./rungs/trailing-whitespace.js";
import { looseKey, looseKeys } from "./rungs/unicode.js";
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

interface RemovedRun {
  /** New-side lines before the run: the run sat right after them. */
  readonly after: number;
  readonly texts: readonly string[];
}

function removedRuns(ops: readonly LineOp[]): RemovedRun[] {
  const runs: { after: number; texts: string[] }[] = [];
  let seen = 0;
  let current: { after: number; texts: string[] } | undefined;
  for (const o of ops) {
    if (o.op !== "remove") {
      seen++;
      current = undefined;
    } else if (current === undefined) {
      current = { after: seen, texts: [o.text] };
      runs.push(current);
    } else current.texts.push(o.text);
  }
  return runs;
}

/**
 * Whether a removed run is still where it was next to the new side found at `start`: right after the new-side
 * lines before it, or, for a run before the whole new side, right above it. Compared loosely: a removed line that
 * is still there with other spacing is still there.
 */
function stillThere(keys: readonly string[], start: number, run: RemovedRun): boolean {
  const [at, text] = run.after === 0 ? [start - 1, run.texts.at(-1)!] : [start + run.after, run.texts[0]!];
  return at >= 0 && at < keys.length && keys[at] === looseKey(text);
}

/**
 * The removed lines are gone from every place the new side occurs (strictly). Without it a deletion whose
 * remaining context is unchanged (`a` kept, `b` removed, `b` still after `a`) would pass for applied. New sides
 * with elisions are left to the old-side check: where their pieces sit says little about a removed line's place.
 */
function removedGone(file: TextFile, ops: readonly LineOp[], newSide: readonly OldLine[]): boolean {
  if (newSide.some((l) => l.kind === "elision")) return true;
  const runs = removedRuns(ops);
  if (runs.length === 0) return true;
  const loose = looseKeys(file);
  return STRICT_RUNGS.every((rung) =>
    findWindows(
      rung.fileKeys(file),
      newSide.map((l) => rung.modelKey(l.text)),
    ).every((start) => !runs.some((run) => stillThere(loose, start, run))),
  );
}

/**
 * True when the new side is present (strictly), the removed lines are not where they were beside it, and the old
 * side as a whole is absent short of fuzzy: only then is "already made" a fair guess and not a misleading one.
 */
export function isAlreadyApplied(file: TextFile, ops: readonly LineOp[]): boolean {
  if (!ops.some((o) => o.op === "add" || o.op === "remove")) return false;
  const newSide: OldLine[] = [];
  ops.forEach((o, op) => {
    if (o.op !== "remove") newSide.push({ op, kind: o.op === "elision" ? "elision" : "context", text: o.text });
  });
  if (newSide.every((l) => l.kind === "elision" || isBlank(l.text))) return false;
  if (!presentStrictly(file, newSide)) return false;
  if (!removedGone(file, ops, newSide)) return false;
  const old = oldSide(ops);
  return old.length === 0 || !presentLoosely(file, ops, old);
}
