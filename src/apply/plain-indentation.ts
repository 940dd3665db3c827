/**
 * Indentation a model wrote with spaces outside ASCII: a no-break space (U+00A0) or one of its kin, as chat
 * interfaces and copies of rendered HTML keep the indentation of code. No language reads them as indentation
 * (Python refuses them), and neither do the ladder's nesting checks, so a reply indented with them was refused as
 * "nested differently" although its lines were all there. Where the file itself indents with none of them, they
 * stand for plain spaces: the model's lines are read, and its added lines written, that way. A file that does
 * indent with them (rare: some Markdown) keeps the model's lines as written.
 */
import type { ReplaceEdit } from "../core/edit.js";

/** NBSP, Ogham space, the U+2000 spaces, narrow NBSP, medium mathematical space, ideographic space. */
const ODD_SPACES = "\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000";
const ODD_INDENTATION = new RegExp(`^[ \\t${ODD_SPACES}]*[${ODD_SPACES}]`);
const LEADING_RUN = new RegExp(`^[ \\t${ODD_SPACES}]+`);
const ODD_SPACE = new RegExp(`[${ODD_SPACES}]`, "g");

/** Whether the line's indentation holds a space outside ASCII. */
export const hasOddIndentation = (line: string): boolean => ODD_INDENTATION.test(line);

/** The line with each space outside ASCII in its indentation made a plain space (one column each). */
export const plainIndented = (line: string): string =>
  hasOddIndentation(line) ? line.replace(LEADING_RUN, (run) => run.replace(ODD_SPACE, " ")) : line;

/**
 * The model's lines with plain indentation, unless the file (`count` lines, read by `lineAt`) indents a line with a
 * space outside ASCII itself; `undefined` when the lines need no change.
 */
export function plainIndentedLines(
  lines: readonly string[],
  count: number,
  lineAt: (i: number) => string,
): string[] | undefined {
  if (!lines.some(hasOddIndentation)) return undefined;
  for (let i = 0; i < count; i++) if (hasOddIndentation(lineAt(i))) return undefined;
  return lines.map(plainIndented);
}

/** `plainIndentedLines` on a replace edit's lines (every op: the old side to find, the new side to write). */
export function plainIndentedEdit(edit: ReplaceEdit, count: number, lineAt: (i: number) => string): ReplaceEdit {
  const lines = plainIndentedLines(
    edit.ops.map((op) => op.text),
    count,
    lineAt,
  );
  if (lines === undefined) return edit;
  return { ...edit, ops: edit.ops.map((op, i) => ({ ...op, text: lines[i]! })) };
}
