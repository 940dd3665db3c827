/**
 * The ladder: where a replace edit's old lines sit in a file. Rungs are tried in order over every position; the
 * first rung with at least one candidate decides (one: found; several: ambiguous, unless the hints select exactly
 * one). Ambiguity never falls through to a looser rung, where it could only look resolved. When the old side starts
 * or ends with blank context lines (which models add or lose around a block), the line rungs run once more without
 * them before the loose rungs (elision, fuzzy) run on either variant: a block found exactly once without a
 * spurious blank line must not be judged by similarity, where a look-alike block elsewhere would make it ambiguous.
 */
import type { TextFile } from "../core/text.js";
import { FUZZY_BUDGET, FUZZY_MARGIN, FUZZY_THRESHOLD } from "./fuzzy.js";
import { modelIndentStyle } from "./indent-structure.js";
import { locateInsertion } from "./insertion.js";
import { BYTE_EXACT, REINDENTING, rungOf, type Pass, type Settled } from "./ladder-pass.js";
import { runLineRungs } from "./line-ladder.js";
import { runLoose } from "./loose-rungs.js";
import { findNearestLines } from "./nearest-lines.js";
import { oldSide, trailingBlankDoubt, trimBlankContext, type OldLine } from "./old-side.js";
import { isBlank } from "./normalize.js";
import { isBareEllipsis } from "../formats/shared/elision.js";
import type { Alignment, LocateInput, LocateOptions, LocateResult, Match } from "./types.js";
import { toLineNumbers } from "./windows.js";

/** Adds empty alignments for the blank context lines a retry dropped, at the edges of the match. */
function withDropped(match: Match, leading: readonly OldLine[], trailing: readonly OldLine[]): Match {
  const before: Alignment[] = leading.map((l) => ({ op: l.op, start: match.start, end: match.start }));
  const after: Alignment[] = trailing.map((l) => ({ op: l.op, start: match.end, end: match.end }));
  return { ...match, alignment: [...before, ...match.alignment, ...after] };
}

/**
 * Whether the old side's only non-blank lines are bare `...` it keeps: code in Python, but as likely lines left
 * out. (One it removes is a line the model wants gone: code.)
 */
export const onlyEllipses = (old: readonly OldLine[]): boolean =>
  old.some((l) => isBareEllipsis(l.text)) &&
  old.every((l) => isBlank(l.text) || (isBareEllipsis(l.text) && l.kind === "context"));

export function locate(file: TextFile, input: LocateInput, options: LocateOptions = {}): LocateResult {
  const old = oldSide(input.ops);
  if (old.length === 0) return locateInsertion(file, input.hint);
  // Such a SEARCH names no place: found as code, it would put the edit at whichever `...` the file has.
  if (onlyEllipses(old)) {
    return {
      kind: "not-found",
      nearest: findNearestLines(file, []),
      note: "the SEARCH holds only `...`, which may stand for lines left out as well as be code; quote the real lines around the change",
    };
  }
  const base: Pass = {
    file,
    path: input.path,
    ops: input.ops,
    old,
    hint: input.hint,
    lineOffset: options.hintOffset ?? 0,
    modelStyle: modelIndentStyle(input.ops),
    fuzzy: {
      threshold: options.fuzzyThreshold ?? FUZZY_THRESHOLD,
      margin: options.fuzzyMargin ?? FUZZY_MARGIN,
      budget: options.fuzzyBudget ?? FUZZY_BUDGET,
    },
  };
  const trimmed = trimBlankContext(old);
  const retry: Pass | undefined =
    trimmed === undefined
      ? undefined
      : { ...base, old: trimmed.kept, lineOffset: base.lineOffset + trimmed.leading.length };
  const dropped = (r: Settled): LocateResult => {
    if (r.kind !== "found" || trimmed === undefined) return r;
    const doubt = trailingBlankDoubt(file, input.ops, trimmed, r.match);
    if (doubt !== undefined) {
      return { kind: "ambiguous", strategy: r.match.strategy, lines: toLineNumbers([r.match.start]), note: doubt };
    }
    return { kind: "found", match: withDropped(r.match, trimmed.leading, trimmed.trailing) };
  };
  const notes: string[] = [];
  const retryNotes: string[] = [];
  // Line rungs with the blank lines, then without; ambiguity on either stops the ladder.
  // The first two rungs are skipped when the caller already knows they hold no window for these lines.
  const byLines = runLineRungs(base, notes, options.noExactWindow === true ? 2 : 0);
  const loose = byLines !== undefined && REINDENTING.has(rungOf(byLines));
  const retryByLines =
    retry === undefined || (byLines !== undefined && !loose) ? undefined : runLineRungs(retry, retryNotes);
  if (byLines !== undefined) {
    // Edge blank lines are the text models add and drop most freely: when they held in place a window whose lines
    // differ in indentation, and the lines without them are elsewhere in the file byte for byte (endings aside),
    // the two readings point to two places and the edit is ambiguous. Trailing whitespace is no such evidence:
    // models strip it all the time, and a blank line that fits says more than an exact copy elsewhere of lines
    // ending the same way.
    if (
      loose &&
      byLines.kind === "found" &&
      retryByLines?.kind === "found" &&
      BYTE_EXACT.has(rungOf(retryByLines)) &&
      retryByLines.match.start !== byLines.match.start + (trimmed?.leading.length ?? 0)
    ) {
      return {
        kind: "ambiguous",
        strategy: rungOf(byLines),
        lines: toLineNumbers([byLines.match.start, retryByLines.match.start].sort((a, b) => a - b)),
      };
    }
    return byLines;
  }
  if (retryByLines !== undefined) return dropped(retryByLines);
  let result = runLoose(base, notes);
  if (result.kind === "not-found" && retry !== undefined) {
    const loose = runLoose(retry, retryNotes);
    if (loose.kind !== "not-found") return dropped(loose);
    result = { kind: "not-found", notes: [...new Set([...result.notes, ...loose.notes])] };
  }
  if (result.kind !== "not-found") return result;
  const wanted = old.filter((l) => l.kind !== "elision").map((l) => l.text);
  const nearest = findNearestLines(file, wanted);
  return result.notes.length === 0
    ? { kind: "not-found", nearest }
    : { kind: "not-found", nearest, note: result.notes.join("; ") };
}
