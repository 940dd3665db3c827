/**
 * A SEARCH that lacks a blank line the file has between two of its lines, where the REPLACE adds lines set off by
 * blank lines on both sides: models drop blank lines when they quote a block, and keep those around what they add.
 * Such an edit is found nowhere as written, and the fuzzy rung cannot place it (which side of the file's blank line
 * the added lines go is the question it refuses on). Read with that blank line as one the file already has, the edit
 * says the same new text, and its old side is the file's lines as they are: whichever of the added run's blank
 * lines is the file's, the result is the REPLACE as written.
 */
import type { LineOp, ReplaceEdit } from "../core/edit.js";
import { isBlank } from "../matcher/normalize.js";

/**
 * The edit with the first blank line of each run of added lines that starts and ends with one, between two quoted
 * lines, taken as a line of the file; undefined when no run qualifies. Blank lines at both ends make every reading
 * agree: whichever of them is the file's, the result is the REPLACE as written. With one at one end only, the model
 * may as well have dropped the file's blank line from the REPLACE too, and the lines then belong on its other side.
 * At the edge of the SEARCH, or beside an elision, the blank line could be the file's on either side.
 */
export function withDroppedBlankLines(edit: ReplaceEdit): ReplaceEdit | undefined {
  const ops: LineOp[] = [...edit.ops];
  const old = (op: LineOp | undefined): boolean => op?.op === "context" || op?.op === "remove";
  let changed = false;
  for (let a = 0; a < ops.length; a++) {
    if (ops[a]!.op !== "add") continue;
    let b = a;
    while (b + 1 < ops.length && ops[b + 1]!.op === "add") b++;
    if (old(ops[a - 1]) && old(ops[b + 1]) && b > a && isBlank(ops[a]!.text) && isBlank(ops[b]!.text)) {
      ops[a] = { op: "context", text: ops[a]!.text };
      changed = true;
    }
    a = b;
  }
  return changed ? { ...edit, ops } : undefined;
}
