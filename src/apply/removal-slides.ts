/**
 * A SEARCH/REPLACE block does not say which of two equal lines it removes: SEARCH `#`, `#` made REPLACE `#` removes
 * either, and the op list derived from the two texts takes one of them. Where the file's copies are neighbours the
 * choice changes nothing; where the match pairs them with lines that are not (a line the SEARCH left out stands
 * between them, or the copies differ in the file), it decides the result, and the text cannot tell which one the
 * model meant. A diff marks its removed line itself (`-#` then ` #`), which settles copies that differ; but where
 * the match puts lines the diff left out between them, its two neighbours are not the file's, and which copy it
 * meant is no more in the text than in a block's.
 */
import type { LineOp, ReplaceEdit } from "../core/edit.js";
import type { Match } from "../matcher/types.js";

/** An op list with one removal slid, and the two ops whose kinds it swapped (upper first; the run between). */
export interface Slide {
  readonly ops: LineOp[];
  readonly swapped: readonly [number, number];
}

/**
 * The op lists that say the same as `ops` with one run of removed lines slid by one line over an equal unchanged
 * line beside it (up: the line above the run equals its last line; down: the line below it equals its first).
 * Every list has the same ops in the same places but for the kinds of two of them, so a match's alignment holds for
 * each.
 */
export function slidRemovals(ops: readonly LineOp[]): Slide[] {
  const slid: Slide[] = [];
  const swapKinds = (removedAt: number, keptAt: number): void => {
    const next = [...ops];
    next[removedAt] = { op: "context", text: ops[removedAt]!.text };
    next[keptAt] = { op: "remove", text: ops[keptAt]!.text };
    slid.push({ ops: next, swapped: [Math.min(removedAt, keptAt), Math.max(removedAt, keptAt)] });
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

/** What a splice writes, as far as a slide can change it. */
interface Written {
  readonly start: number;
  readonly end: number;
  readonly lines: readonly string[];
}

/**
 * Whether the match pairs the ops from the kept line through the removed run with one file line each, one after
 * the other (a line the edit left out joins the span of the op beside it).
 */
function sideBySide(match: Match, [upper, lower]: readonly [number, number]): boolean {
  let next: number | undefined;
  for (let op = upper; op <= lower; op++) {
    const at = match.alignment.find((a) => a.op === op);
    if (at === undefined || at.end - at.start !== 1 || (next !== undefined && at.start !== next)) return false;
    next = at.end;
  }
  return true;
}

/**
 * The 1-based file lines of the equal copies in doubt, when some slid removal (`render` writes it at the same
 * match) writes other lines than `written`, the edit's own. A diff's marked removal is in doubt only where the
 * match puts lines between the copies.
 */
export function copiesInDoubt(
  edit: ReplaceEdit,
  match: Match,
  written: Written,
  render: (edit: ReplaceEdit) => Written,
): number[] | undefined {
  for (const { ops, swapped } of slidRemovals(edit.ops)) {
    if (edit.explicitOps && sideBySide(match, swapped)) continue;
    const other = render({ ...edit, ops });
    const same =
      other.start === written.start &&
      other.end === written.end &&
      other.lines.length === written.lines.length &&
      other.lines.every((line, i) => line === written.lines[i]);
    if (same) continue;
    // The lines the match pairs with the ops one list removes and the other keeps.
    const lines: number[] = [];
    for (const a of match.alignment) {
      if (edit.ops[a.op]!.op !== ops[a.op]!.op) for (let line = a.start; line < a.end; line++) lines.push(line + 1);
    }
    return lines.sort((x, y) => x - y);
  }
  return undefined;
}
