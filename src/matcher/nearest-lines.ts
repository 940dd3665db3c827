/**
 * What to quote when an edit's old text was not found: real lines of the file, with their numbers, so that the
 * model can copy them on its retry. Tried in order, each bounded on a 100,000-line file:
 * 1. the most similar window of the wanted text's size (the same linear filters as the fuzzy rung, then
 *    Levenshtein on a few dozen windows);
 * 2. the line sharing the most identifiers with the wanted text, rare identifiers weighing more;
 * 3. the file's first lines.
 */
import type { TextFile } from "../core/text.js";
import { cached } from "../core/file-memo.js";
import { isBlank } from "./normalize.js";
import { looseKey, looseKeys } from "./rungs/unicode.js";
import type { NearestLines } from "./types.js";
import { similarity } from "./similarity.js";
import { looseWindowsSharing } from "./window-filter.js";

/** Below this a window is not worth calling similar (Aider's did-you-mean floor is 0.6 on line lists). */
const MIN_SIMILARITY = 0.5;
const MAX_WINDOWS = 32;
const WINDOW_BUDGET = 20_000_000;
const MAX_QUOTED = 60;
const SIMILAR_CONTEXT = 2;
const WORD_CONTEXT = 5;
const FILE_START_LINES = 10;
const MAX_TOKENS = 6;
/** A token on more lines than this says nothing about where the text belongs. */
const MAX_TOKEN_HITS = 5_000;
/** Occurrences inside longer words count too: scanning a 100,000-line file for a common fragment stops here. */
const MAX_TOKEN_OCCURRENCES = 20_000;
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
const WORD_CHAR = /[\w$]/;

export function quote(
  file: TextFile,
  first: number,
  last: number,
  why: NearestLines["why"],
  sim?: number,
): NearestLines {
  const start = Math.max(0, first);
  const end = Math.min(file.lines.length, last, start + MAX_QUOTED);
  return {
    startLine: start + 1,
    lines: file.lines.slice(start, end),
    why,
    ...(sim === undefined ? {} : { similarity: sim }),
    fileLines: file.lines.length,
  };
}

function mostSimilarWindow(file: TextFile, want: readonly string[]): { start: number; similarity: number } | undefined {
  const keys = looseKeys(file);
  const size = Math.min(want.length, keys.length);
  const { starts, shared } = looseWindowsSharing(file, want.slice(0, size), [size], 1);
  const most = shared.reduce((a, b) => Math.max(a, b), 0);
  if (most === 0) return undefined;
  const picked: number[] = [];
  for (let floor = most; floor >= Math.max(1, most - 1); floor--) {
    for (let i = 0; i < starts.length && picked.length < MAX_WINDOWS; i++) {
      if (shared[i] === floor) picked.push(starts[i]!);
    }
  }
  // Scored against the whole wanted text: a SEARCH longer than the file must not look 100 % similar to all of it.
  const wantText = want.join("\n");
  let budget = WINDOW_BUDGET;
  let best: { start: number; similarity: number } | undefined;
  for (const start of picked) {
    const scored = similarity(wantText, keys.slice(start, start + size).join("\n"), budget);
    if (scored === undefined) break;
    budget -= scored.cost;
    if (best === undefined || scored.similarity > best.similarity) best = { start, similarity: scored.similarity };
  }
  return best;
}

interface JoinedText {
  readonly text: string;
  readonly offsets: Int32Array;
}

const joinedText = (file: TextFile): JoinedText =>
  cached(file, "joined-text", () => {
    const offsets = new Int32Array(file.lines.length);
    let at = 0;
    file.lines.forEach((line, i) => {
      offsets[i] = at;
      at += line.length + 1;
    });
    return { text: file.lines.join("\n"), offsets };
  });

function lineOf(offsets: Int32Array, offset: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Lines holding `token` as a whole identifier, or undefined when it is too common to be useful. */
function linesWithToken({ text, offsets }: JoinedText, token: string): Set<number> | undefined {
  const lines = new Set<number>();
  let hits = 0;
  let occurrences = 0;
  for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + token.length)) {
    if (++occurrences > MAX_TOKEN_OCCURRENCES) return undefined;
    const before = at > 0 ? text[at - 1]! : " ";
    const after = text[at + token.length] ?? " ";
    if (WORD_CHAR.test(before) || WORD_CHAR.test(after)) continue;
    if (++hits > MAX_TOKEN_HITS) return undefined;
    lines.add(lineOf(offsets, at));
  }
  return lines;
}

function mostSharedWordsLine(file: TextFile, wanted: readonly string[]): number | undefined {
  const tokens = [...new Set(wanted.flatMap((l) => l.match(IDENTIFIER) ?? []))]
    .filter((t) => t.length >= 2)
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .slice(0, MAX_TOKENS);
  const joined = joinedText(file);
  const scores = new Map<number, number>();
  for (const token of tokens) {
    const lines = linesWithToken(joined, token);
    if (lines === undefined || lines.size === 0) continue;
    const weight = Math.log(1 + file.lines.length / lines.size);
    for (const line of lines) scores.set(line, (scores.get(line) ?? 0) + weight);
  }
  let best: number | undefined;
  for (const [line, score] of scores) {
    const top = best === undefined ? -1 : scores.get(best)!;
    if (score > top || (score === top && line < best!)) best = line;
  }
  return best;
}

export function findNearestLines(file: TextFile, wanted: readonly string[]): NearestLines {
  const total = file.lines.length;
  if (total === 0) return { startLine: 1, lines: [], why: "file-start", fileLines: 0 };
  const real = wanted.filter((l) => !isBlank(l));
  if (real.length > 0) {
    const want = wanted.map(looseKey);
    let first = 0;
    while (want[first] === "") first++;
    let last = want.length;
    while (want[last - 1] === "") last--;
    const window = mostSimilarWindow(file, want.slice(first, last));
    if (window !== undefined && window.similarity >= MIN_SIMILARITY) {
      const size = Math.min(last - first, total);
      const from = window.start - SIMILAR_CONTEXT;
      return quote(file, from, window.start + size + SIMILAR_CONTEXT, "similar", window.similarity);
    }
    const line = mostSharedWordsLine(file, real);
    if (line !== undefined) return quote(file, line - WORD_CONTEXT, line + WORD_CONTEXT + 1, "shared-words");
  }
  return quote(file, 0, FILE_START_LINES, "file-start");
}
