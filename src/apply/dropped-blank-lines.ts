/**
 * A SEARCH that lacks a blank line the file has between two of its lines, where the REPLACE adds lines set off by
 * a blank line: models drop blank lines when they quote a block, and keep the one around what they add. Such an
 * edit is found nowhere as written, and the fuzzy rung cannot place it (which side of the file's blank line the
 * added lines go is the question it refuses on). Read with that blank line as one the file already has, the edit
 * says the same new text, and its old side is the file's lines as they are: whichever of the added run's blank
 * lines is the file's, the result is the REPLACE as written.
 */
import type { LineOp, ReplaceEdit } from "../core/edit.js";
import { isBlank } from "../matcher/normalize.js";

/**
 * The edit with the first blank line of each run of added lines between two old lines taken as a line of the file
 * (or its last, when the run does not start with one); undefined when no run has a blank line at an end. Only
 * runs between two quoted lines count: at the edge of the SEARCH, or beside an elision, the blank line could be
 * the file's on either side.
 */
export function withDroppedBlankLines(edit: ReplaceEdit): ReplaceEdit | undefined {
  const ops: LineOp[] = [...edit.ops];
  const old = (op: LineOp | undefined): boolean => op?.op === "context" || op?.op === "remove";
  let changed = false;
  for (let a = 0; a < ops.length; a++) {
    if (ops[a]!.op !== "add") continue;
    let b = a;
    while (b + 1 < ops.length && ops[b + 1]!.op === "add") b++;
    if (old(ops[a - 1]) && old(ops[b + 1])) {
      const blank = isBlank(ops[a]!.text) ? a : isBlank(ops[b]!.text) ? b : -1;
      if (blank >= 0) {
        ops[blank] = { op: "context", text: ops[blank]!.text };
        changed = true;
      }
    }
    a = b;
  }
  return changed ? { ...edit, ops } : undefined;
}
