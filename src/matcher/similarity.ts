/** The similarity of two texts that the fuzzy rung compares (Levenshtein over the longer length). */
import { distance } from "fastest-levenshtein";

export interface Similarity {
  readonly similarity: number;
  /** Character comparisons spent: the edit-distance matrix left after the common prefix and suffix. */
  readonly cost: number;
}

/**
 * 1 − levenshtein / max length. The common prefix and suffix are set aside first (the distance does not change),
 * which makes a near-identical window nearly free. Returns undefined, spending nothing, when the comparison would
 * cost more than `budget`.
 */
export function similarity(a: string, b: string, budget: number): Similarity | undefined {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return { similarity: 1, cost: 0 };
  let head = 0;
  const shortest = Math.min(a.length, b.length);
  while (head < shortest && a.charCodeAt(head) === b.charCodeAt(head)) head++;
  let tail = 0;
  while (tail < shortest - head && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail++;
  const restA = a.slice(head, a.length - tail);
  const restB = b.slice(head, b.length - tail);
  const cost = restA.length * restB.length;
  if (cost > budget) return undefined;
  const d = restA.length === 0 || restB.length === 0 ? Math.max(restA.length, restB.length) : distance(restA, restB);
  return { similarity: 1 - d / longest, cost };
}
