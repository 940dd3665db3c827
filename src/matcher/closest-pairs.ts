/**
 * The closest order-keeping pairing of two runs of lines: the pairs (only of lines close enough to be one line
 * drifted) whose summed similarity is greatest. Equal sums are common (a repeated `}`, a run of equal lines), and
 * three tie-breakers, each worth one millionth of a pair, decide among them without ever outweighing a real
 * difference in similarity:
 * - a pair that is the same byte for byte, indentation included, counts one unit more (the model's own
 *   indentation tells two `}` apart);
 * - every line of `b` skipped between the first and the last pair costs one unit (a reading that has the model
 *   leave out a line in the middle is less likely than one that does not);
 * - with `any`, lines that are not close may pair for one unit (a line mistyped past recognition still stands for
 *   one line), which only fills slack and never displaces a close pair.
 * What remains tied goes to the earlier lines of `b`, or to the later ones with `late`: the caller compares both.
 */

/** Pair scores in millionths, so that equal sums compare equal and ties are seen as ties. */
const UNIT = 1_000_000;

export interface ClosestOptions {
  /** Whether a[r] and b[c] are the same byte for byte (the keys compared may be normalised). */
  readonly exact?: (r: number, c: number) => boolean;
  readonly any?: boolean;
  readonly late?: boolean;
}

/**
 * For each of `rows` lines of `a`, the index of its partner among the `cols` lines of `b`, or -1. `score(r, c)` is
 * the similarity of a[r] and b[c] in [0, 1], 0 when they may not pair.
 */
export function closestPairs(
  rows: number,
  cols: number,
  score: (r: number, c: number) => number,
  options: ClosestOptions = {},
): number[] {
  const partner = new Array<number>(rows).fill(-1);
  if (rows === 0 || cols === 0) return partner;
  const late = options.late === true;
  // A chain of pairs is worth the sum of (pair + 1) minus the columns it spans, so each skipped column costs one.
  // value[k]: the best chain ending with pair k = (r, c), counted as sum(pair + 1) + its first column; best[k]: the
  // best value of a chain ending at or before (r, c) in both directions, and at[k] the pair it ends with.
  const cells = rows * cols;
  const value = new Float64Array(cells).fill(-Infinity);
  const previous = new Int32Array(cells).fill(-1);
  const best = new Float64Array(cells).fill(-Infinity);
  const at = new Int32Array(cells).fill(-1);
  // Whether pair k beats pair j at an equal value, by the tie direction (column first, then row).
  const preferred = (k: number, j: number): boolean => {
    if (j < 0) return true;
    const ck = k % cols;
    const cj = j % cols;
    if (ck !== cj) return late ? ck > cj : ck < cj;
    return late ? k > j : k < j;
  };
  const take = (k: number, v: number, from: number): void => {
    if (v > best[k]! || (v === best[k]! && preferred(at[from]!, at[k]!))) {
      best[k] = v;
      at[k] = at[from]!;
    }
  };
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const k = r * cols + c;
      let p = Math.round(score(r, c) * UNIT);
      if (p > 0 && options.exact?.(r, c) === true) p += 1;
      if (p === 0 && options.any === true) p = 1;
      if (p > 0) {
        const before = r > 0 && c > 0 ? (r - 1) * cols + (c - 1) : -1;
        const chained = before >= 0 ? best[before]! : -Infinity;
        // A new chain starts here when nothing before is worth more than starting (ties extend the chain).
        if (chained >= c) {
          value[k] = p + 1 + chained;
          previous[k] = at[before]!;
        } else value[k] = p + 1 + c;
        best[k] = value[k]!;
        at[k] = k;
      }
      if (r > 0) take(k, best[k - cols]!, k - cols);
      if (c > 0) take(k, best[k - 1]!, k - 1);
    }
  }
  let end = -1;
  let endValue = -Infinity;
  for (let k = 0; k < cells; k++) {
    if (value[k] === -Infinity) continue;
    const v = value[k]! - (k % cols) - 1;
    if (v > endValue || (v === endValue && preferred(k, end))) {
      end = k;
      endValue = v;
    }
  }
  for (let k = end; k >= 0; k = previous[k]!) partner[Math.floor(k / cols)] = k % cols;
  return partner;
}
