/** Small constructors for parser output, so every dialect builds items the same way. */
import type { Edit, FormatName, ParsedItem } from "../../core/edit.js";

export const editItem = (edit: Edit): ParsedItem => ({ type: "edit", edit });

/** `index` is 0-based; problems carry the 1-based reply line. */
export const problemItem = (
  format: FormatName,
  index: number,
  path: string | undefined,
  message: string,
): ParsedItem => ({ type: "problem", problem: { path, format, line: index + 1, message } });

/** A reply line quoted in a message, shortened so a megabyte line cannot flood the model's next prompt. */
export function quoteLine(line: string): string {
  const short = line.length > 120 ? `${line.slice(0, 117)}...` : line;
  return `'${short}'`;
}

/** Content of a created or rewritten file from its lines: `\n` ends, a final newline unless told otherwise. */
export function joinContent(lines: readonly string[], finalNewline = true): string {
  if (lines.length === 0) return "";
  return lines.join("\n") + (finalNewline ? "\n" : "");
}

/** The 1-based number of the reply's last line (a final newline does not start another line). */
export const lastLine = (lines: readonly string[]): number =>
  lines.length > 1 && lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
