/**
 * The fuzzy rung's rule. A window found by similarity is one reading of where the SEARCH sits; the edit lands only
 * when every other reasonable reading that can be aligned puts each removal and each insertion in the same place.
 * A reading that pairs a SEARCH line with a look-alike, or leaves it out, while the file has it verbatim nearby is
 * not a reasonable one, unless it is the one chosen (then the reading with that line in place is weighed, below).
 * The readings of the region, beside the chosen one:
 * - each window that reads it a line longer, shorter or shifted and scores within the margin (FuzzyOutcome.near);
 * - each window under every pairing of its lines (alignFuzzyReadings in fuzzy-align.ts);
 * - for each SEARCH line that a reading pairs with a look-alike, or leaves out beyond its pairs, while the file has
 *   it verbatim nearby: the window stretched to that copy, in which the model quoted a real line. Such a reading
 *   must align as well: the line is evidence, and a place it cannot be fitted to is a guess;
 * - for each SEARCH line the chosen reading takes for invented (unpaired between its pairs) right beside added
 *   lines, or whose copy lies across its pairs (two lines swapped), while the file has it verbatim nearby: the
 *   window stretched to that copy, where it aligns (the added lines follow the line they were written beside);
 *   where the lines pair with it there but a removal or an insertion has no clear place, the edit has none either.
 *   Beside the pairings of that window, the one made with the line on its copy counts, when it pairs as many lines
 *   as the chosen reading, or one fewer (a swap trades one pair for another);
 * - for each such line, the window of the SEARCH's own length that holds the copy where the SEARCH has the line:
 *   apart from the chosen window and at least threshold − margin similar, it is a rival place (a verbatim line
 *   never makes a match, but it can unmake one, as a line number can in fuzzy.ts);
 * - every other place that holds the very lines the match lands on (the lines the SEARCH has and the file lacks
 *   were all that told them apart, and a line the file does not have places nothing).
 * Readings that put the SEARCH elsewhere in the file (a rival window within the margin, the place a line number
 * names) never agree with it, so locateFuzzy settles them before any alignment (see fuzzy.ts).
 */
import type { LineOp } from "../core/edit.js";
import type { TextFile } from "../core/text.js";
import { alignFixedReading, alignFuzzyReadings, type FuzzyAlignment } from "./fuzzy-align.js";
import { elsewhereNote, sightingNote, unclearNote, type Sighting } from "./fuzzy-doubts.js";
import type { FuzzyOptions } from "./fuzzy.js";
import type { OldLine } from "./old-side.js";
import { looseKey, looseKeys, looseSignatures } from "./rungs/unicode.js";
import type { Alignment } from "./types.js";
import { similarity } from "./similarity.js";
import { findWindows } from "./windows.js";

export type ReadingsVerdict =
  | { readonly kind: "agree" }
  | { readonly kind: "ambiguous"; readonly starts: readonly number[] }
  | { readonly kind: "refused"; readonly note: string };

type Aligned = Extract<FuzzyAlignment, { ok: true }>;

interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * Where an aligned edit changes the file: the lines its removals cover and the positions its added lines go, as a
 * comparable string. Context lines only place the others.
 */
export function footprint(ops: readonly LineOp[], alignment: readonly Alignment[]): string {
  const byOp = new Map(alignment.map((a) => [a.op, a]));
  const marks: string[] = [];
  let cursor: number | undefined;
  let pendingAdds = 0;
  ops.forEach((op, i) => {
    if (op.op === "add") {
      if (cursor === undefined) pendingAdds++;
      else marks.push(`+${String(cursor)}`);
      return;
    }
    const a = byOp.get(i);
    if (a === undefined) return;
    // Added lines before the first aligned line go where it starts.
    for (; pendingAdds > 0; pendingAdds--) marks.push(`+${String(a.start)}`);
    if (op.op === "remove") marks.push(`-${String(a.start)}:${String(a.end)}`);
    cursor = a.end;
  });
  return marks.join(" ");
}

/** How many old lines a reading (aligned, or unclear) pairs with a file line. */
const pairCount = (reading: FuzzyAlignment): number =>
  (reading.placed ?? []).reduce((n, at) => (at >= 0 ? n + 1 : n), 0);

/** The window that puts old line `line` at file line `at` and still covers `region`. */
function stretched(file: TextFile, old: readonly OldLine[], region: Span, line: number, at: number): Span {
  return {
    start: Math.max(0, Math.min(region.start, at - line)),
    end: Math.min(file.lines.length, Math.max(region.end, at + old.length - line)),
  };
}

/**
 * The start of a window of the old side's length that puts a sighted old line on its copy, lies apart from `chosen`
 * and is at least threshold − margin similar to the old side, if there is one. Several sightings may name one
 * window: each is compared once, within the fuzzy budget; one that the budget cannot compare counts as a rival (the
 * place is then unproven, as a search that runs out of budget finds nothing).
 */
function rivalAtSightings(
  file: TextFile,
  old: readonly OldLine[],
  chosen: Span,
  sightings: readonly Sighting[],
  options: FuzzyOptions,
): number | undefined {
  const want = old.map((l) => looseKey(l.text)).join("\n");
  const keys = looseKeys(file);
  let budget = options.budget;
  const starts = new Set(sightings.map(({ line, at }) => at - line));
  for (const start of starts) {
    const end = start + old.length;
    if (start < 0 || end > keys.length || (start < chosen.end && chosen.start < end)) continue;
    const found = similarity(want, keys.slice(start, end).join("\n"), budget);
    if (found === undefined || found.similarity >= options.threshold - options.margin) return start;
    budget -= found.cost;
  }
  return undefined;
}

/**
 * What the reading with a sighted line on its copy says of the chosen one (`where` is its footprint), if anything
 * against it: refused, or another place (`elsewhere`) in a window that starts elsewhere.
 */
function judgeSighting(
  file: TextFile,
  ops: readonly LineOp[],
  old: readonly OldLine[],
  chosen: Aligned,
  sighting: Sighting,
  mustFit: boolean,
): Extract<ReadingsVerdict, { kind: "refused" }> | { readonly kind: "elsewhere"; readonly start: number } | undefined {
  const { line, at } = sighting;
  const where = footprint(ops, chosen.alignment);
  const window = stretched(file, old, chosen, line, at);
  // The reading with the line on its copy, made so, when it keeps the region's pairs (it may trade one: two lines
  // swapped); one that loses more is no reading of this region.
  const fixed = alignFixedReading(file, ops, old, window.start, window.end, sighting);
  const kept = pairCount(fixed) >= pairCount(chosen) - 1;
  const readingsThere = alignFuzzyReadings(file, ops, old, window.start, window.end);
  if (kept) readingsThere.push(fixed);
  const fitted = readingsThere.filter((r): r is Aligned => r.ok && r.placed[line] === at);
  if (fitted.length === 0 && mustFit) return { kind: "refused", note: sightingNote(old[line]!.text, at) };
  // With the line on its copy the lines pair, but a removal or an insertion has no clear place: nor has it here.
  if (fitted.length === 0 && kept && !fixed.ok) {
    return { kind: "refused", note: unclearNote(old[line]!.text, at, fixed.note) };
  }
  const other = fitted.find((r) => footprint(ops, r.alignment) !== where);
  if (other === undefined) return undefined;
  // Two readings of one region: a list of places would name the same line twice.
  if (other.start === chosen.start) return { kind: "refused", note: elsewhereNote(old[line]!.text, at) };
  return { kind: "elsewhere", start: other.start };
}

/**
 * Another start where the chosen reading's pairs hold, once the pairs that a drifted SEARCH line makes are set
 * aside when the file has that line verbatim nearby (a sighting): the model may have copied the line from there, so
 * its likeness to the line it is paired with places nothing. Undefined when no such pair is set aside, or when the
 * other pairs hold nowhere else.
 */
function placeWithoutSightedLines(
  chosen: Aligned,
  keys: readonly string[],
  signatures: ReturnType<typeof looseSignatures>,
): number | undefined {
  // A paired line with a sighting is a drifted pair (an identical one is on its own copy).
  const sighted = new Set(chosen.sightings.map((s) => s.line));
  if (!chosen.placed.some((at, l) => at >= 0 && sighted.has(l))) return undefined;
  const evidence = chosen.placed.flatMap((at, l) => (at >= 0 && !sighted.has(l) ? [at] : []));
  if (evidence.length === 0) return undefined;
  const first = evidence[0]!;
  const holds = (start: number): boolean =>
    evidence.every((at) => {
      const there = start + at - chosen.start;
      return there >= 0 && there < keys.length && keys[there] === keys[at];
    });
  for (const line of findWindows(keys, [keys[first]!], 0, keys.length, signatures)) {
    const start = chosen.start + line - first;
    if (start !== chosen.start && holds(start)) return start;
  }
  return undefined;
}

/**
 * Another start where a SEARCH line that the chosen reading pairs with a look-alike stands verbatim, with at least
 * as many SEARCH lines on their verbatim copies as the chosen reading has (blank lines aside): the model may have
 * copied that line from there, so the chosen window's lead is only how far its other lines drifted. Undefined
 * when there is none.
 */
function placeAtCopyOfDriftedLine(
  chosen: Aligned,
  oldKeys: readonly string[],
  keys: readonly string[],
  signatures: ReturnType<typeof looseSignatures>,
): number | undefined {
  const verbatimAt = (start: number): number =>
    oldKeys.reduce((n, key, i) => n + (key !== "" && keys[start + i] === key ? 1 : 0), 0);
  const held = chosen.placed.filter((at, i) => at >= 0 && oldKeys[i] !== "" && keys[at] === oldKeys[i]).length;
  for (let line = 0; line < oldKeys.length; line++) {
    const at = chosen.placed[line]!;
    if (at < 0 || oldKeys[line] === "" || keys[at] === oldKeys[line]) continue;
    for (const copy of findWindows(keys, [oldKeys[line]!], 0, keys.length, signatures)) {
      const start = copy - line;
      const apart = start + oldKeys.length <= chosen.start || start >= chosen.end;
      if (start >= 0 && apart && verbatimAt(start) >= held) return start;
    }
  }
  return undefined;
}

/**
 * The verdict on the chosen reading (`readings[0]`, aligned), given every reading of the chosen window (from
 * alignFuzzyReadings), and the windows near it; `options` are the fuzzy rung's (a rival place needs threshold −
 * margin).
 */
export function judgeReadings(
  file: TextFile,
  ops: readonly LineOp[],
  old: readonly OldLine[],
  readings: readonly FuzzyAlignment[],
  near: readonly Span[],
  options: FuzzyOptions,
): ReadingsVerdict {
  const chosen = readings[0] as Aligned;
  const where = footprint(ops, chosen.alignment);
  // Another place for the edit: the chosen window and that one.
  const ambiguous = (start: number): ReadingsVerdict => ({
    kind: "ambiguous",
    starts: [chosen.start, start].sort((a, b) => a - b),
  });
  const others = [...readings.slice(1), ...near.flatMap((w) => alignFuzzyReadings(file, ops, old, w.start, w.end))];
  for (const reading of others) {
    if (!reading.ok || reading.sightings.length > 0) continue;
    if (footprint(ops, reading.alignment) !== where) return ambiguous(reading.start);
  }
  const rival = rivalAtSightings(file, old, chosen, [...chosen.sightings, ...chosen.anchors], options);
  if (rival !== undefined) return ambiguous(rival);
  // A line the chosen reading pairs with a look-alike or leaves out beyond its pairs must fit its copy; a line it
  // takes for invented between its pairs only matters where it does fit, placing the added lines elsewhere.
  for (const [sighting, mustFit] of [
    ...chosen.sightings.map((s) => [s, true] as const),
    ...chosen.anchors.map((s) => [s, false] as const),
  ]) {
    const verdict = judgeSighting(file, ops, old, chosen, sighting, mustFit);
    if (verdict !== undefined) return verdict.kind === "elsewhere" ? ambiguous(verdict.start) : verdict;
  }
  const keys = looseKeys(file);
  const signatures = looseSignatures(file);
  const elsewhere =
    placeWithoutSightedLines(chosen, keys, signatures) ??
    placeAtCopyOfDriftedLine(
      chosen,
      old.map((l) => looseKey(l.text)),
      keys,
      signatures,
    );
  if (elsewhere !== undefined) return ambiguous(elsewhere);
  const twins =
    chosen.end > chosen.start
      ? findWindows(keys, keys.slice(chosen.start, chosen.end), 0, keys.length, signatures)
      : [];
  if (twins.length > 1) return { kind: "ambiguous", starts: twins };
  return { kind: "agree" };
}
