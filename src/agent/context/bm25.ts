/**
 * The lexical ranking of files against a request (pure): BM25 over the files' contents (term counts from
 * `git grep`, lengths from the blobs' sizes), plus the path (a term in a file or folder name weighs more than one
 * in the text) and the definitions (a file that defines a named identifier). A fine first stage, and cheap: it
 * reads no file itself.
 */
import { pathTokens } from "./terms.js";

export interface RankInput {
  readonly paths: readonly string[];
  readonly terms: readonly string[];
  /** Occurrences of each term per file (files without any are absent). */
  readonly counts: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Bytes per file. */
  readonly sizes: ReadonlyMap<string, number>;
  /** Identifiers each scanned file defines, lower-cased. */
  readonly definitions: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * How many files `counts` was taken over (every tracked file, documents too), when more than `paths`: the
   * collection a term's rarity is measured in. Measured in `paths` alone, a term in more files than that would
   * weigh less than nothing.
   */
  readonly collection?: number;
}

export interface Ranked {
  readonly path: string;
  readonly score: number;
  /** The terms that matched, for "why this file" in the report. */
  readonly matched: readonly string[];
}

const K1 = 1.2;
/** Less length normalisation than text retrieval's 0.75: the big files of a code base are often its central ones. */
const B = 0.4;
const PATH_WEIGHT = 2;
const DEFINITION_WEIGHT = 2;

export function rankFiles(input: RankInput): Ranked[] {
  const n = Math.max(1, input.paths.length, input.collection ?? 0);
  const df = new Map<string, number>();
  for (const counts of input.counts.values()) for (const term of counts.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = (term: string): number => {
    const d = df.get(term) ?? 0;
    return Math.log(1 + (n - d + 0.5) / (d + 0.5));
  };
  let total = 0;
  for (const path of input.paths) total += input.sizes.get(path) ?? 0;
  const average = Math.max(1, total / Math.max(1, input.paths.length));
  const ranked: Ranked[] = [];
  for (const path of input.paths) {
    const counts = input.counts.get(path);
    const tokens = pathTokens(path);
    const defined = input.definitions.get(path);
    let score = 0;
    const matched: string[] = [];
    for (const term of input.terms) {
      const weight = idf(term);
      const tf = counts?.get(term) ?? 0;
      let part = 0;
      if (tf > 0) {
        const length = (input.sizes.get(path) ?? average) / average;
        part += (weight * tf * (K1 + 1)) / (tf + K1 * (1 - B + B * length));
      }
      if (tokens.has(term) || [...tokens].some((token) => term.length >= 4 && token.startsWith(term))) {
        part += weight * PATH_WEIGHT;
      }
      if (defined?.has(term) === true) part += weight * DEFINITION_WEIGHT;
      if (part > 0) {
        score += part;
        matched.push(term);
      }
    }
    if (score > 0) ranked.push({ path, score, matched });
  }
  return ranked.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
}
