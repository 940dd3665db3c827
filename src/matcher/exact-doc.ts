/**
 * The exact rung on a document being edited (core/lines/doc.ts) instead of a parsed file: the same windows as
 * `findWindows(exactRung.fileKeys(file), want)`, found through the document's line index rather than by a scan,
 * so that each of a reply's hunks costs its own size and not the file's. The planner tries this first; anything
 * but a single window goes to the full ladder, which repeats these rungs and decides as always. Like the ladder,
 * an exact window counts as single only when no other window holds the same texts once line endings are ignored,
 * and the line-endings rung comes next (a CRLF file's usual rung: replies carry no CR).
 */
import type { LineDoc } from "../core/lines/doc.js";
import { endingFreeKey } from "./rungs/exact.js";
import { trimLineEnd } from "./normalize.js";
import { endsWithWhitespace } from "./rungs/trailing-whitespace.js";

/** The exact rung's key of a line equals `want`: its text, plus the `\r` of a CRLF ending (see rungs/exact.ts). */
function keyEquals(line: string, eol: string, want: string): boolean {
  if (eol !== "\r\n") return line === want;
  return want.length === line.length + 1 && want.charCodeAt(line.length) === 13 && want.startsWith(line);
}

/** Whether the window at `start` matches. */
function windowMatches(doc: LineDoc, start: number, want: readonly string[]): boolean {
  for (let j = 0; j < want.length; j++) if (!keyEquals(doc.line(start + j), doc.eol(start + j), want[j]!)) return false;
  return true;
}

/** The wanted line windows are looked up by: the longest, usually the rarest. */
function probeOf(want: readonly string[]): number {
  let probe = 0;
  for (let j = 1; j < want.length; j++) if (want[j]!.length > want[probe]!.length) probe = j;
  return probe;
}

/** The line texts exactWindows will look up for `want` (a key ending in `\r` also matches a CRLF line without it). */
export function exactProbes(want: readonly string[]): string[] {
  if (want.length === 0) return [];
  const key = want[probeOf(want)]!;
  return key.endsWith("\r") ? [key, key.slice(0, -1)] : [key];
}

/**
 * Every line text the exact path may look up for `want`: the probes, and the probe's trimmed text
 * (`mayHideBySpaces`). The planner announces them all, to find them in one pass.
 */
export function lookedUp(want: readonly string[]): string[] {
  if (want.length === 0) return [];
  return [...exactProbes(want), trimLineEnd(want[probeOf(want)]!)];
}

/** 0-based starts of every window whose exact keys equal `want`, in document order. */
export function exactWindows(doc: LineDoc, want: readonly string[]): number[] {
  const n = want.length;
  if (n === 0 || doc.length < n) return [];
  // Only windows holding the probe line at its place are checked.
  const probe = probeOf(want);
  const keys = exactProbes(want);
  const hits = doc.occurrences(keys[0]!);
  if (keys.length > 1) {
    hits.push(...doc.occurrences(keys[1]!));
    hits.sort((a, b) => a - b);
  }
  const starts: number[] = [];
  for (const hit of hits) {
    const start = hit - probe;
    if (start >= 0 && start + n <= doc.length && windowMatches(doc, start, want)) starts.push(start);
  }
  return starts;
}

/** 0-based starts of every window whose lines' texts (endings ignored) equal `want` without CRLF residue. */
export function endingFreeWindows(doc: LineDoc, want: readonly string[]): number[] {
  const n = want.length;
  if (n === 0 || doc.length < n) return [];
  const probe = probeOf(want);
  const keys = want.map(endingFreeKey);
  const starts: number[] = [];
  for (const hit of doc.occurrences(keys[probe]!)) {
    const start = hit - probe;
    if (start < 0 || start + n > doc.length) continue;
    let j = 0;
    while (j < n && doc.line(start + j) === keys[j]) j++;
    if (j === n) starts.push(start);
  }
  return starts;
}

/** Lines ending with whitespace beyond which the check below is left to the ladder's scans. */
const MOST_SPACED_LINES = 4096;

/**
 * Whether a window other than `start` holds `want` once trailing whitespace is ignored. Its probe line (see
 * probeOf) is then either the probe's trimmed text exactly (found through the index) or that text with whitespace
 * after it, one of the document's few lines that end with whitespace: only windows at those lines are compared.
 */
function mayHideBySpaces(doc: LineDoc, want: readonly string[], start: number): boolean {
  const spaced = doc.spacedLines(endsWithWhitespace);
  if (spaced.length > MOST_SPACED_LINES) return true;
  const keys = want.map(trimLineEnd);
  const probe = probeOf(want);
  const key = keys[probe]!;
  const lines = [...doc.occurrences(key), ...spaced.filter((line) => trimLineEnd(doc.line(line)) === key)];
  const holds = (at: number): boolean => {
    for (let k = 0; k < keys.length; k++) if (trimLineEnd(doc.line(at + k)) !== keys[k]) return false;
    return true;
  };
  return lines.some((line) => {
    const at = line - probe;
    return at !== start && at >= 0 && at + keys.length <= doc.length && holds(at);
  });
}

/**
 * Where the ladder's first two rungs settle an edit on one window, and which of them did; or that neither rung has
 * any window (`start` undefined), so the ladder can begin at the third.
 */
export type SoleWindow =
  { readonly start: number; readonly strategy: "exact" | "line-endings" } | { readonly start: undefined };

/**
 * The window the ladder's exact or line-endings rung would take, when it is the only one there, or that neither has
 * one; undefined when the ladder has to decide (several windows, or text the document cannot compare this way).
 *
 * The exact rung takes its single window unless another one matches once endings are ignored (hidesByEndings in
 * rungs/exact.ts); the line-endings rung then decides, and usually does for a CRLF file, whose lines LF model text
 * never matches exactly. Without any CRLF in the document or the model's lines the second search is the first one.
 */
export function soleLineWindow(doc: LineDoc, want: readonly string[]): SoleWindow | undefined {
  const exact = exactWindows(doc, want);
  // A window that differs only in trailing whitespace is as likely meant (rungs/trailing-whitespace.ts): when one
  // may exist, the single window is left to the ladder, which decides among them.
  const sole = (start: number, strategy: "exact" | "line-endings"): SoleWindow | undefined =>
    mayHideBySpaces(doc, want, start) ? undefined : { start, strategy };
  const crFree = !doc.hasCrlf() && !want.some((w) => w.endsWith("\r"));
  if (crFree) {
    if (exact.length === 1) return sole(exact[0]!, "exact");
    // Without a CR anywhere, the line-endings rung's keys are the exact rung's.
    return exact.length === 0 && !doc.mayHoldTrailingCr() ? { start: undefined } : undefined;
  }
  const blind = endingFreeWindows(doc, want);
  if (!blind.some((s) => !exact.includes(s))) {
    if (exact.length === 1) return sole(exact[0]!, "exact");
    if (exact.length > 1) return undefined;
  }
  // The line-endings rung compares texts with every trailing CR removed on both sides: that is `blind` when no
  // line's text and no model line keeps a CR once one is dropped.
  const residue = want.some((w) => endingFreeKey(w).endsWith("\r"));
  if (residue || doc.mayHoldTrailingCr()) return undefined;
  if (blind.length === 1) return sole(blind[0]!, "line-endings");
  return blind.length === 0 && exact.length === 0 ? { start: undefined } : undefined;
}
