/**
 * The line rungs of the ladder (ladder.ts): exact, line endings, trailing whitespace, indentation, Unicode, tried in
 * that order; the first rung with a window decides, by the hints when it has several.
 */
import { quoteConsistent, selectByHints, type Window } from "./hints.js";
import { addedLines, agreeingPairs, fileIndentStyle } from "./indent-structure.js";
import { straightAlignment } from "./old-side.js";
import { reindentedEdgeReading } from "./reindented-edge.js";
import { lineWindowDoubt } from "./window-doubts.js";
import { exactRung, hidesByEndings } from "./rungs/exact.js";
import { indentationRung } from "./rungs/indentation.js";
import type { LineRung } from "./rungs/line-rung.js";
import { lineEndingsRung } from "./rungs/line-endings.js";
import { hidesByTrailingWhitespace, trailingWhitespaceRung } from "./rungs/trailing-whitespace.js";
import { hasLooseKeys, looseKey, looseKeys, looseSignatures, unicodeRung } from "./rungs/unicode.js";
import { stripCarriageReturn } from "./normalize.js";
import { BYTE_EXACT, continuedIn, REINDENTING, type Pass, type Settled } from "./ladder-pass.js";
import { findWindows, holdsAt, toLineNumbers } from "./windows.js";

/** The line rungs, strictest first; elision and fuzzy follow. */
export const LINE_RUNGS: readonly LineRung[] = [
  exactRung,
  lineEndingsRung,
  trailingWhitespaceRung,
  indentationRung,
  unicodeRung,
];

function decide(pass: Pass, rung: LineRung["name"], starts: readonly number[]): Settled {
  const windows: Window[] = starts.map((start) => ({ start, end: start + pass.old.length }));
  const hints = { hint: pass.hint, lineOffset: pass.lineOffset };
  const chosen =
    windows.length === 1
      ? windows[0]
      : selectByHints(pass.file, rung === "unicode" ? quoteConsistent(pass.file, pass.old, windows) : windows, hints);
  if (chosen === undefined) {
    return { kind: "ambiguous", strategy: rung, lines: toLineNumbers(starts) };
  }
  const other = REINDENTING.has(rung) ? reindentedEdgeReading(pass.file, pass.ops, pass.old, chosen.start) : undefined;
  if (other !== undefined) {
    return { kind: "ambiguous", strategy: rung, lines: toLineNumbers([chosen.start, other].sort((a, b) => a - b)) };
  }
  const lineAt = (i: number): string => stripCarriageReturn(pass.file.lines[i]!);
  const doubt = lineWindowDoubt(lineAt, pass.file.lines.length, pass.ops, pass.old, chosen.start, BYTE_EXACT.has(rung));
  if (doubt !== undefined)
    return { kind: "ambiguous", strategy: rung, lines: toLineNumbers([chosen.start]), note: doubt };
  const alignment = straightAlignment(pass.old, chosen.start);
  return { kind: "found", match: { start: chosen.start, end: chosen.end, strategy: rung, alignment } };
}

export function runLineRungs(pass: Pass, notes: string[], from = 0): Settled | undefined {
  const { file, old } = pass;
  // Lines equal on a rung are equal on every looser one (normalize.ts): the loosest rung's windows hold those of
  // every rung, so one lookup finds them for every rung, which then checks only those. Until the file has its
  // loose keys, the stricter rungs scan their own: an edit they settle (the commonest drift) must not pay for the
  // loose keys of the whole file; an edit that needs them computes them once, the versions after it carry them, and
  // their index (rungs/unicode.ts) finds the windows without a scan.
  let loosest: number[] | undefined;
  const windowsOn = (rung: LineRung, want: readonly string[]): number[] => {
    const own = !REINDENTING.has(rung.name) && !hasLooseKeys(file);
    if (own) return findWindows(rung.fileKeys(file), want);
    if (loosest === undefined) {
      const keys = looseKeys(file);
      const signatures = looseSignatures(file);
      const wanted = old.map((l) => looseKey(l.text));
      loosest = findWindows(keys, wanted, 0, keys.length, signatures);
    }
    const keys = rung.fileKeys(file);
    return loosest.filter((start) => holdsAt(keys, want, start));
  };
  for (const rung of LINE_RUNGS.slice(from)) {
    const found = windowsOn(
      rung,
      old.map((l) => rung.modelKey(l.text)),
    );
    const starts = rung.checksNesting
      ? found.filter(
          (s) =>
            agreeingPairs(
              old.map((l, j) => ({ model: l.text, file: file.lines[s + j]!, line: s + j })),
              () => continuedIn(pass, s, s + old.length),
              pass.modelStyle,
              fileIndentStyle(file),
              addedLines(pass.ops),
            ) !== undefined,
        )
      : found;
    if (starts.length > 0) {
      // Endings the model cannot see leave the decision to the line-endings rung (see rungs/exact.ts), trailing
      // whitespace models strip to the trailing-whitespace rung (rungs/trailing-whitespace.ts).
      const texts = old.map((l) => l.text);
      const hidden =
        (rung === exactRung && hidesByEndings(file, texts, starts)) ||
        (BYTE_EXACT.has(rung.name) && hidesByTrailingWhitespace(file, texts, starts));
      if (!hidden) return decide(pass, rung.name, starts);
      continue;
    }
    if (found.length > 0 && notes.length === 0) {
      const lines = toLineNumbers(found).join(", ");
      notes.push(`the text is at line ${lines} but nested differently there (compare the indentation)`);
    }
  }
  return undefined;
}
