/**
 * A SEARCH/REPLACE block does not say which of two equal lines it removes: SEARCH `#`, `#` made REPLACE `#` removes
 * either, and the op list derived from the two texts takes one of them. Where the file's copies are neighbours the
 * choice changes nothing; where the match pairs them with lines that are not (a line the SEARCH left out stands
 * between them, or the copies differ in the file), it decides the result, and the text cannot tell which one the
 * model meant. A diff marks its removed lines itself, so only derived ops are read this way.
 */
import type { LineOp } from "../core/edit.js";

/**
 * The op lists that say the same as `ops` with one run of removed lines slid by one line over an equal unchanged
 * line beside it (up: the line above the run equals its last line; down: the line below it equals its first).
 * Every list has the same ops in the same places but for the kinds of two of them, so a match's alignment holds for
 * each.
 */
export function slidRemovals(ops: readonly LineOp[]): LineOp[][] {
  const slid: LineOp[][] = [];
  const swapKinds = (removedAt: number, keptAt: number): void => {
    const next = [...ops];
    next[removedAt] = { op: "context", text: ops[removedAt]!.text };
    next[keptAt] = { op: "remove", text: ops[keptAt]!.text };
    slid.push(next);
  };
  for (let start = 0; start < ops.length; start++) {
    if (ops[start]!.op !== "remove" || ops[start - 1]?.op === "remove") continue;
    let end = start;
    while (ops[end + 1]?.op === "remove") end++;
    const above = ops[start - 1];
    if (above?.op === "context" && above.text === ops[end]!.text) swapKinds(end, start - 1);
    const below = ops[end + 1];
    if (below?.op === "context" && below.text === ops[start]!.text) swapKinds(start, end + 1);
  }
  return slid;
}
