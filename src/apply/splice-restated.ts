/**
 * Lines an edit only restates. Within a run of removed and added lines, an added line that is a removed line with
 * other trailing whitespace (a model that pads the lines it quotes, or trims them), taken in order, changes nothing
 * but that whitespace. Where the file's line differs from the model's copy beyond trailing whitespace (a
 * loose match: the file moved on since the model read it, or the model misquoted it), writing the copy would put
 * the model's stale text in the file, so the splice writes the file's line instead, as it does for context.
 */
import type { LineOp } from "../core/edit.js";
import { stripCarriageReturn } from "../matcher/normalize.js";
import type { Alignment } from "../matcher/types.js";

const trimmedEnd = (line: string): string => stripCarriageReturn(line).trimEnd();

/** Per added op (its index) that restates a removed line whose file line differs from it: that file line. */
export function restatedLines(
  ops: readonly LineOp[],
  alignment: readonly Alignment[],
  lineAt: (i: number) => string,
): Map<number, number> {
  const restated = new Map<number, number>();
  let removed: { text: string; line: number | undefined }[] = [];
  let added: number[] = [];
  // In order: each removed line with the first added line after the last one taken that restates it.
  const pair = (): void => {
    // Per text, the positions (in `added`) of the added lines holding it, ascending, and the first not yet passed:
    // a rewrite of thousands of lines stays linear.
    const positions = new Map<string, { readonly at: number[]; next: number }>();
    added.forEach((add, i) => {
      const copy = trimmedEnd(ops[add]!.text);
      const known = positions.get(copy);
      if (known === undefined) positions.set(copy, { at: [i], next: 0 });
      else known.at.push(i);
    });
    let after = 0;
    for (const { text, line } of removed) {
      const copy = trimmedEnd(text);
      const holding = positions.get(copy);
      if (holding === undefined) continue;
      while (holding.next < holding.at.length && holding.at[holding.next]! < after) holding.next++;
      const at = holding.at[holding.next++];
      if (at === undefined) continue;
      after = at + 1;
      if (line !== undefined && trimmedEnd(lineAt(line)) !== copy) restated.set(added[at]!, line);
    }
  };
  const flush = (): void => {
    if (removed.length > 0 && added.length > 0) pair();
    removed = [];
    added = [];
  };
  let k = 0;
  ops.forEach((op, index) => {
    if (op.op === "add") {
      added.push(index);
      return;
    }
    const a = alignment[k++]!;
    if (op.op === "remove") removed.push({ text: op.text, line: a.end - a.start === 1 ? a.start : undefined });
    else flush();
  });
  flush();
  return restated;
}

/** The file's line with the trailing whitespace of the model's restated copy. */
export function restatedText(fileLine: string, modelLine: string): string {
  const model = stripCarriageReturn(modelLine);
  return trimmedEnd(fileLine) + model.slice(model.trimEnd().length);
}
