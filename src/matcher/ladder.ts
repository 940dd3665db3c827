/**
 * The ladder: where a replace edit's old lines sit in a file. Rungs are tried in order over every position; the
 * first rung with at least one candidate decides (one: found; several: ambiguous, unless the hints select exactly
 * one). Ambiguity never falls through to a looser rung, where it could only look resolved. When the old side starts
 * or ends with blank context lines (which models add or lose around a block), the line rungs run once more without
 * them before the loose rungs (elision, fuzzy) run on either variant: a block found exactly once without a
 * spurious blank line must not be judged by similarity, where a look-alike block elsewhere would make it ambiguous.
 */
import type { EditHint, LineOp } from "../core/edit.js";
import type { IndentStyle } from "../core/indent.js";
import type { TextFile } from "../core/text.js";
import { alignFuzzyReadings } from "./fuzzy-align.js";
import { judgeReadings } from "./fuzzy-readings.js";
import { FUZZY_BUDGET, FUZZY_MARGIN, FUZZY_THRESHOLD, locateFuzzy, type FuzzyOptions } from "./fuzzy.js";
import { quoteConsistent, selectByHints, type Window } from "./hints.js";
import { bracketContinued } from "./bracket-continuation.js";
import { addedLines, agreeingPairs, fileIndentStyle, modelIndentStyle } from "./indent-structure.js";
import { locateInsertion } from "./insertion.js";
import { findNearestLines } from "./nearest-lines.js";
import { oldSide, straightAlignment, trailingBlankDoubt, trimBlankContext, type OldLine } from "./old-side.js";
import { reindentedEdgeReading } from "./reindented-edge.js";
import { lineWindowDoubt } from "./window-doubts.js";
import { elidedInsertionDoubt, locateElided } from "./rungs/elision.js";
import { exactRung, hidesByEndings } from "./rungs/exact.js";
import { indentationRung } from "./rungs/indentation.js";
import type { LineRung } from "./rungs/line-rung.js";
import { lineEndingsRung } from "./rungs/line-endings.js";
import { hidesByTrailingWhitespace, trailingWhitespaceRung } from "./rungs/trailing-whitespace.js";
import { hasLooseKeys, looseKey, looseKeys, looseSignatures, unicodeRung } from "./rungs/unicode.js";
import { isBlank, stripCarriageReturn } from "./normalize.js";
import { isBareEllipsis } from "../formats/shared/elision.js";
import type { Alignment, LocateInput, LocateOptions, LocateResult, Match, Rung } from "./types.js";
import { findWindows, holdsAt, toLineNumbers } from "./windows.js";

/** The line rungs, strictest first; elision and fuzzy follow. */
export const LINE_RUNGS: readonly LineRung[] = [
  exactRung,
  lineEndingsRung,
  trailingWhitespaceRung,
  indentationRung,
  unicodeRung,
];

interface Pass {
  readonly file: TextFile;
  readonly path: string | undefined;
  /** The whole edit: added lines are placed by the old lines beside them. */
  readonly ops: readonly LineOp[];
  readonly old: readonly OldLine[];
  readonly hint: EditHint;
  /** Added to hint.line to compare it with this pass's first old line in the current file. */
  readonly lineOffset: number;
  readonly modelStyle: IndentStyle | undefined;
  readonly fuzzy: FuzzyOptions;
}

/** A decided outcome: it ends the ladder. */
type Settled =
  | { readonly kind: "found"; readonly match: Match }
  | {
      readonly kind: "ambiguous";
      readonly strategy: Match["strategy"];
      readonly lines: readonly number[];
      readonly note?: string;
    };

type PassResult = Settled | { readonly kind: "not-found"; readonly notes: readonly string[] };

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

/** The rungs on which the lines are in the file byte for byte, line endings aside. */
const BYTE_EXACT: ReadonlySet<Rung> = new Set(["exact", "line-endings"]);
/** The rungs that match lines whose indentation differs from the file's. */
const REINDENTING: ReadonlySet<Rung> = new Set(["indentation", "unicode"]);

const rungOf = (r: Settled): Rung => (r.kind === "found" ? r.match.strategy : r.strategy);

function runLineRungs(pass: Pass, notes: string[], from = 0): Settled | undefined {
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

function runFuzzy(pass: Pass, notes: string[]): PassResult {
  const hinted = pass.hint.line === undefined ? undefined : pass.hint.line - 1 + pass.lineOffset;
  const outcome = locateFuzzy(pass.file, pass.old, pass.fuzzy, hinted);
  if (outcome.kind === "ambiguous")
    return { kind: "ambiguous", strategy: "fuzzy", lines: toLineNumbers(outcome.starts) };
  if (outcome.kind === "not-found")
    return { kind: "not-found", notes: outcome.note === undefined ? notes : [...notes, outcome.note] };
  const readings = alignFuzzyReadings(pass.file, pass.ops, pass.old, outcome.start, outcome.end);
  const aligned = readings[0]!;
  if (!aligned.ok) return { kind: "not-found", notes: [...notes, aligned.note] };
  const verdict = judgeReadings(pass.file, pass.ops, pass.old, readings, outcome.near, pass.fuzzy);
  if (verdict.kind === "ambiguous")
    return { kind: "ambiguous", strategy: "fuzzy", lines: toLineNumbers(verdict.starts) };
  if (verdict.kind === "refused") return { kind: "not-found", notes: [...notes, verdict.note] };
  const continued = (): ReadonlySet<number> => continuedIn(pass, aligned.start, aligned.end);
  if (
    agreeingPairs(aligned.pairs, continued, pass.modelStyle, fileIndentStyle(pass.file), addedLines(pass.ops)) ===
    undefined
  ) {
    return {
      kind: "not-found",
      notes: [
        ...notes,
        `lines ${aligned.start + 1}-${aligned.end} are similar but nested differently (compare the indentation)`,
      ],
    };
  }
  const match: Match = {
    start: aligned.start,
    end: aligned.end,
    strategy: "fuzzy",
    alignment: aligned.alignment,
    similarity: outcome.similarity,
  };
  return { kind: "found", match };
}

/** The lines of the window [start, end) that continue a bracket (bracket-continuation.ts). */
const continuedIn = (pass: Pass, start: number, end: number): ReadonlySet<number> =>
  bracketContinued((i) => pass.file.lines[i]!, start, end, pass.path);

/** The loose rungs: elision when the old side has elision lines, else fuzzy. */
function runLoose(pass: Pass, notes: string[]): PassResult {
  if (pass.old.some((l) => l.kind === "elision")) {
    const outcome = locateElided(pass.file, pass.old, pass.modelStyle, fileIndentStyle(pass.file));
    if (outcome.kind === "found") {
      const doubt = elidedInsertionDoubt(pass.ops, pass.old);
      if (doubt !== undefined) return { kind: "not-found", notes: [...notes, doubt] };
      return { kind: "found", match: { ...outcome, strategy: "elision" } };
    }
    if (outcome.kind === "ambiguous")
      return { kind: "ambiguous", strategy: "elision", lines: toLineNumbers(outcome.starts) };
    return { kind: "not-found", notes: outcome.note === undefined ? notes : [...notes, outcome.note] };
  }
  return runFuzzy(pass, notes);
}

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
