/**
 * Position hints break ties between real candidates of one rung; they never make a window match. Every hint given
 * must agree (they are intersected); a selection of none or of several candidates stays ambiguous.
 */
import type { EditHint } from "../core/edit.js";
import { leadingWhitespace } from "../core/indent.js";
import type { TextFile } from "../core/text.js";
import { contradictsQuoteKinds, isBlank } from "./normalize.js";
import { looseKey, looseKeys } from "./rungs/unicode.js";

export interface Window {
  readonly start: number;
  readonly end: number;
}

/** The first index in a sorted list whose value is greater than `after`. */
function firstAfter(sorted: readonly number[], after: number): number | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! > after) hi = mid;
    else lo = mid + 1;
  }
  return sorted[lo];
}

/**
 * Where an `@@` anchor chain can end: each anchor line is matched loosely (trimmed, Unicode-folded, whole line),
 * each after the previous one. Every occurrence of the outermost anchor starts a chain; the distinct 0-based
 * positions of the innermost anchor line are returned, sorted. An empty result means the chain does not resolve.
 */
export function resolveAnchors(file: TextFile, anchors: readonly string[]): number[] {
  const wanted = anchors.filter((a) => !isBlank(a)).map(looseKey);
  if (wanted.length === 0) return [];
  const keys = looseKeys(file);
  const occurrences = wanted.map((want) => {
    const at: number[] = [];
    for (let i = 0; i < keys.length; i++) if (keys[i] === want) at.push(i);
    return at;
  });
  const ends = new Set<number>();
  for (const first of occurrences[0]!) {
    let at: number | undefined = first;
    for (let k = 1; k < occurrences.length && at !== undefined; k++) at = firstAfter(occurrences[k]!, at);
    if (at !== undefined) ends.add(at);
  }
  return [...ends].sort((a, b) => a - b);
}

export interface HintContext {
  readonly hint: EditHint;
  /** Added to hint.line to compare it with the current file (earlier edits, dropped leading blank lines). */
  readonly lineOffset: number;
}

export const hasHint = (hint: EditHint): boolean =>
  hint.line !== undefined || (hint.anchors?.some((a) => !isBlank(a)) ?? false) || hint.atEndOfFile === true;

/** Indentation width in columns (a tab advances to the next multiple of 4): only compared within one file. */
function columns(line: string): number {
  let width = 0;
  for (const ch of leadingWhitespace(line)) width = ch === "\t" ? width + 4 - (width % 4) : width + 1;
  return width;
}

/** Net count of `(` and `[` left open on a line: a header such as `def f(` continues until they close. */
function openBrackets(line: string): number {
  let open = 0;
  for (const ch of line) {
    if (ch === "(" || ch === "[") open++;
    else if (ch === ")" || ch === "]") open--;
  }
  return open;
}

/** A multi-line header (`def f(\n    a,\n):`) is read this far at most before giving up on finding its end. */
const MAX_HEADER_LINES = 50;

/**
 * The anchor's block: the 0-based line after the anchor's header and the line that ends the block, i.e. the next
 * non-blank line indented at or above the anchor line (at column 0, the next top-level line; a closing brace at the
 * anchor's level too). A header whose brackets stay open (a wrapped signature) continues to the line closing them.
 */
export function anchorBlock(file: TextFile, anchor: number): Window {
  const lines = file.lines;
  const level = columns(lines[anchor] ?? "");
  let header = anchor;
  let open = openBrackets(lines[anchor] ?? "");
  while (open > 0 && header + 1 < lines.length && header - anchor < MAX_HEADER_LINES) {
    header++;
    open += openBrackets(lines[header]!);
  }
  if (open > 0) header = anchor;
  let end = header + 1;
  while (end < lines.length && (isBlank(lines[end]!) || columns(lines[end]!) > level)) end++;
  return { start: header + 1, end };
}

/** The candidates inside the block of any way the anchors resolve (where an anchor can pick one). */
export function candidatesInAnchorBlocks(
  file: TextFile,
  candidates: readonly Window[],
  anchors: readonly string[],
): Window[] {
  if (!anchors.some((a) => !isBlank(a))) return [];
  const inside = new Set<Window>();
  const resolved = resolveAnchors(file, anchors);
  for (const anchor of resolved) {
    const block = anchorBlock(file, anchor);
    const within = candidates.filter((c) => c.start >= anchor && c.start < block.end);
    for (const c of within) inside.add(c);
    // An anchor the file has more than once is also read as the patch format reads it, the first candidate after
    // it: the model may have named the line before its place rather than the block around it.
    if (resolved.length > 1 && within.length === 0) {
      const next = candidates
        .filter((c) => c.start > anchor)
        .reduce<Window | undefined>(
          (first, c) => (first === undefined || c.start < first.start ? c : first),
          undefined,
        );
      if (next !== undefined) inside.add(next);
    }
  }
  return candidates.filter((c) => inside.has(c));
}

/**
 * The one candidate the hints select, or undefined. `line` selects the candidate starting exactly there; anchors
 * select the candidates starting inside the innermost anchor's block, for every way the chain resolves (at the
 * anchor line itself, since a SEARCH may begin with it, or after it and before the block's end): a candidate past
 * the block is in another function. Two candidates inside the block stay ambiguous, even when they read the same:
 * the patch format's own reading takes the first after the anchor, but a model that gave one line of context for
 * the second (two `});` in one test function) would then see its line added in the wrong place. An anchor line the
 * file has more than once, with no candidate in its block, selects the first candidate after it, as that reading
 * would: the chain then names two places.
 * `atEndOfFile` selects the candidate ending at the last line. The hints given are intersected.
 */
export function selectByHints(
  file: TextFile,
  candidates: readonly Window[],
  { hint, lineOffset }: HintContext,
): Window | undefined {
  if (!hasHint(hint)) return undefined;
  let selected = [...candidates];
  if (hint.line !== undefined) {
    const start = hint.line - 1 + lineOffset;
    selected = selected.filter((c) => c.start === start);
  }
  if (hint.anchors?.some((a) => !isBlank(a))) {
    const inside = new Set(candidatesInAnchorBlocks(file, candidates, hint.anchors));
    selected = selected.filter((c) => inside.has(c));
  }
  if (hint.atEndOfFile === true) selected = selected.filter((c) => c.end === file.lines.length);
  return selected.length === 1 ? selected[0] : undefined;
}

/**
 * The windows of the unicode rung a hint may choose among: not those whose quotes the model's typographic quotes
 * contradict (normalize.ts contradictsQuoteKinds), unless every window is. They stay candidates (the edit is still
 * ambiguous between them); only a hint cannot pick one against the evidence.
 */
export function quoteConsistent(
  file: TextFile,
  old: readonly { readonly text: string }[],
  windows: readonly Window[],
): readonly Window[] {
  const consistent = windows.filter(
    (w) => !old.some((o, k) => contradictsQuoteKinds(o.text, file.lines[w.start + k]!)),
  );
  return consistent.length === 0 ? windows : consistent;
}
