/**
 * An edit whose old lines are not in the file but were before the model's own earlier edits, which are still in
 * it (not accepted yet, not undone): a model that sends its change again as it first wrote it, against the file as
 * it first read it. "Not found" with whatever lines look most alike sends it looking in the wrong place; this says
 * what happened and quotes those lines as the earlier edits left them (pure).
 */
import { diffArrays } from "diff";
import type { Edit } from "../core/edit.js";
import type { EditResult, Strategy } from "../core/result.js";
import { parseText } from "../core/text.js";
import { describe } from "./feedback.js";
import { planEdits, type Refusal } from "./plan.js";

/** One file as it stood before the model's earlier edits, and as it is now. */
export interface FileVersions {
  readonly earlier: string;
  readonly current: string;
}

/** Lines of context quoted on each side of the changed lines. */
const CONTEXT = 2;
/** Past this many changed lines between the versions the line diff gives up (it costs lines × changes). */
const MAX_CHANGED_LINES = 2_000;

const NOT_FOUND = new Set(["search-not-found", "hunk-context-mismatch"]);

/** The rungs on which an edit can find its place, strictest first. */
const LOOSENESS: readonly Strategy[] = [
  "exact",
  "line-endings",
  "trailing-whitespace",
  "indentation",
  "unicode",
  "elision",
  "fuzzy",
];

/** The failed edits that fit a file's earlier version get the message that says so; the rest are unchanged. */
export function explainChangedEarlier(
  results: readonly EditResult[],
  versions: ReadonlyMap<string, FileVersions>,
): EditResult[] {
  return results.map((result) => {
    if (result.ok || !NOT_FOUND.has(result.reason)) return result;
    const version = versions.get(result.path);
    if (version === undefined || version.earlier === version.current) return result;
    const message = changedEarlierMessage(result, version);
    return message === undefined ? result : { ...result, message };
  });
}

function applyTo(result: EditResult, content: string): EditResult | undefined {
  if (result.edit?.kind !== "replace") return undefined;
  const snapshot = new Map([[result.path, { kind: "text", content } as const]]);
  return planEdits([{ type: "edit", edit: result.edit }], snapshot, { partial: true }).results[0];
}

/** An edit's identity within one reply: where it came from and what it names. */
export const editKey = (edit: Edit): string =>
  `${edit.path}\0${String(edit.origin.line)}\0${String(edit.origin.section ?? 0)}`;

/**
 * The edits that found their place in the file only loosely where the model's own earlier edits changed it, and
 * that fit the file as it stood before those edits more closely (on a stricter rung): a model sending its change
 * again as it first wrote it. Applied, such an edit would write its lines a second time beside the earlier ones
 * (an insertion quoting the lines around it lands again between them). Each is refused, keyed by `editKey`, with
 * the message that says so; `versions` holds each file as it stood before the reply.
 */
export function resentEdits(
  results: readonly EditResult[],
  versions: ReadonlyMap<string, FileVersions>,
): Map<string, Refusal> {
  const resent = new Map<string, Refusal>();
  for (const result of results) {
    if (!result.ok || result.edit.kind !== "replace" || result.found === undefined) continue;
    const version = versions.get(result.path);
    if (version === undefined || version.earlier === version.current) continue;
    const message = changedEarlierMessage(result, version, { ...result.found, strategy: result.strategy });
    if (message === undefined) continue;
    const reason = result.edit.origin.format === "udiff" ? "hunk-context-mismatch" : "search-not-found";
    resent.set(editKey(result.edit), { reason, message });
  }
  return resent;
}

/**
 * The message for an edit that fits the file as it stood before the model's earlier edits, where those edits
 * changed lines: for a failed edit, one that does not fit the file now; for an applied one (`landed`: where it
 * found its place now), one whose place now overlaps those changed lines.
 */
function changedEarlierMessage(
  result: EditResult,
  { earlier, current }: FileVersions,
  landed?: { readonly start: number; readonly end: number; readonly strategy: Strategy },
): string | undefined {
  const then = applyTo(result, earlier);
  if (then?.ok !== true || then.found === undefined) return undefined;
  if (landed !== undefined && !(LOOSENESS.indexOf(then.strategy) < LOOSENESS.indexOf(landed.strategy)))
    return undefined;
  // Found now after all (the edits of the same reply before it moved it away and back): not this case.
  if (landed === undefined && applyTo(result, current)?.ok === true) return undefined;
  const before = parseText(earlier).lines;
  const now = parseText(current).lines;
  const from = then.found.start - 1;
  const to = then.found.end;
  const region = currentRegion(before, now, from, to);
  if (region === undefined) return undefined;
  if (landed !== undefined && (landed.end <= region.start || landed.start - 1 >= region.end)) return undefined;
  const made = parseText(then.after).lines;
  const madeRegion = made.slice(from, to + made.length - before.length);
  const alreadyMade =
    madeRegion.length === region.end - region.start && madeRegion.every((line, i) => line === now[region.start + i]);
  const quoteFrom = Math.max(0, region.start - CONTEXT);
  const quoteTo = Math.min(now.length, region.end + CONTEXT);
  return describe.changedEarlier(result.path, result.edit!, {
    earlier: { start: from + 1, end: to },
    current: { start: quoteFrom + 1, lines: now.slice(quoteFrom, quoteTo) },
    fileLines: now.length,
    alreadyMade,
  });
}

/**
 * The lines of `now` that stand where lines [from, to) of `before` stood: those kept, and those written in place
 * of any of them (or inserted between two of them); undefined when none of them changed, or when the versions
 * differ too much to say.
 */
function currentRegion(
  before: readonly string[],
  now: readonly string[],
  from: number,
  to: number,
): { start: number; end: number } | undefined {
  let start = Infinity;
  let end = -Infinity;
  let changed = false;
  let b = 0;
  let n = 0;
  const take = (first: number, last: number): void => {
    start = Math.min(start, first);
    end = Math.max(end, last);
  };
  const parts = diffArrays(before as string[], now as string[], { maxEditLength: MAX_CHANGED_LINES });
  if (parts === undefined) return undefined;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    const count = part.count;
    if (!part.added && !part.removed) {
      const lo = Math.max(b, from);
      const hi = Math.min(b + count, to);
      if (lo < hi) take(n + lo - b, n + hi - b);
      b += count;
      n += count;
      continue;
    }
    // A change: removed lines of `before` (maybe none) and the lines written in their place (maybe none).
    let removed = 0;
    let added = 0;
    for (; k < parts.length && (parts[k]!.added || parts[k]!.removed); k++) {
      const change = parts[k]!;
      if (change.removed) removed += change.count;
      else added += change.count;
    }
    k--;
    const touches = removed > 0 ? b < to && b + removed > from : b > from && b < to;
    if (touches) {
      changed = true;
      take(n, n + added);
    }
    b += removed;
    n += added;
  }
  return changed && start <= end ? { start, end } : undefined;
}
