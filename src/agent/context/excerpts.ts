/**
 * The parts of a file too big to show whole that the first prompt shows (pure): around the lines asked for (the
 * reviewed lines, a traced line), or where the request's rarest words sit.
 */

/** Lines shown on each side of the line a part is around. */
const MARGIN = 60;

/**
 * How many parts of a file too big to show whole are shown at most, and in how many characters: the request's words
 * often sit in several places of a large module (a definition, its callers, the option it reads), and one window
 * around the likeliest line missed the lines the fix changed in half the bench's cases of its largest files.
 */
export const MAX_EXCERPTS = 4;
const EXCERPTS_CHARS = 24_000;
/** A further part is shown only when its line scores at least this share of the best line's score. */
const EXCERPT_RELATIVE_SCORE = 0.5;
/** How many lines around a line count towards its score, at half weight. */
const NEAR = 5;

export interface Excerpt {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/**
 * The lines to show of a file too big to show whole: around `range`; or around the lines where the request's
 * words weigh most, a word counting more the fewer lines of the file hold it (one that names a function beats one
 * on every other line), in up to `most` parts, the part around the best line first.
 */
export function excerpts(
  content: string,
  terms: readonly string[],
  range?: { readonly start: number; readonly end: number },
  most = MAX_EXCERPTS,
): Excerpt[] {
  const lines = content.split("\n");
  const n = lines.length;
  const slice = (from: number, to: number): Excerpt => ({
    text: lines.slice(from - 1, to).join("\n"),
    start: from,
    end: to,
  });
  const around = (first: number, last: number): Excerpt =>
    slice(Math.max(1, first - MARGIN), Math.min(n, last + MARGIN));
  if (range !== undefined) return [around(range.start, range.end)];
  const lower = lines.map((line) => line.toLowerCase());
  // Per term, how many lines up to each one hold it (prefix counts), and its weight.
  const prefix = terms.map((term) => {
    const counts = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) counts[i + 1] = counts[i]! + Number(lower[i]!.includes(term));
    return counts;
  });
  const weights = prefix.map((counts) => (counts[n] === 0 ? 0 : Math.log(1 + n / counts[n]!)));
  const held = (t: number, from: number, to: number): boolean => prefix[t]![to]! > prefix[t]![from - 1]!;
  // A line's score: the weights of the terms it holds, and half those of the others held a few lines around it (a
  // definition's line beside the words of its body outranks a list that only names it).
  const score = (line: number): number => {
    const from = Math.max(1, line - NEAR);
    const to = Math.min(n, line + NEAR);
    let sum = 0;
    for (let t = 0; t < terms.length; t++) {
      if (held(t, line, line)) sum += weights[t]!;
      else if (held(t, from, to)) sum += weights[t]! / 2;
    }
    return sum;
  };
  const candidates: number[] = [];
  for (let line = 1; line <= n; line++)
    if (terms.some((_, t) => weights[t]! > 0 && held(t, line, line))) candidates.push(line);
  // No word anywhere: the file's start.
  if (candidates.length === 0) return [around(1, 1)];
  const ranked = candidates
    .map((line) => ({ line, score: score(line) }))
    .sort((x, y) => y.score - x.score || x.line - y.line);
  const best = ranked[0]!.score;
  const chosen: Excerpt[] = [];
  let chars = 0;
  for (const { line, score: lineScore } of ranked) {
    if (chosen.length === most || lineScore < best * EXCERPT_RELATIVE_SCORE) break;
    if (chosen.some((c) => c.start <= line && line <= c.end)) continue;
    // Around the line, up to the parts already chosen (each shown once, the first one whole).
    let from = Math.max(1, line - MARGIN);
    let to = Math.min(n, line + MARGIN);
    for (const c of chosen) {
      if (c.end < line) from = Math.max(from, c.end + 1);
      else to = Math.min(to, c.start - 1);
    }
    const next = slice(from, to);
    if (chosen.length > 0 && chars + next.text.length > EXCERPTS_CHARS) break;
    chosen.push(next);
    chars += next.text.length;
  }
  return chosen;
}
