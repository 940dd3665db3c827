/**
 * The loose rungs of the ladder (ladder.ts), after the line rungs found nothing: elision when the old side has
 * elision lines (`...`, `// ... existing code ...`), else the fuzzy rung (fuzzy.ts, its readings judged by
 * fuzzy-readings.ts).
 */
import { alignFuzzyReadings } from "./fuzzy-align.js";
import { judgeReadings } from "./fuzzy-readings.js";
import { locateFuzzy } from "./fuzzy.js";
import { addedLines, agreeingPairs, fileIndentStyle } from "./indent-structure.js";
import { elidedInsertionDoubt, locateElided } from "./rungs/elision.js";
import { continuedIn, type Pass, type PassResult } from "./ladder-pass.js";
import type { Match } from "./types.js";
import { toLineNumbers } from "./windows.js";

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

export /** The loose rungs: elision when the old side has elision lines, else fuzzy. */
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
