/**
 * Rung 3, trailing whitespace: spaces, tabs and `\r` at the end of a line are ignored.
 *
 * Models strip trailing whitespace as a matter of course, so a window that differs from the SEARCH only there is
 * as likely meant as one that matches byte for byte: the stricter rungs decide only when this rung sees no other
 * window (`hidesByTrailingWhitespace`), and otherwise leave the decision to it.
 */
import { lineKeys } from "../../core/file-memo.js";
import type { TextFile } from "../../core/text.js";
import { trimLineEnd } from "../normalize.js";
import { findWindows, holdsOthers } from "../windows.js";
import type { LineRung } from "./line-rung.js";

export const trailingWhitespaceRung: LineRung = {
  name: "trailing-whitespace",
  modelKey: trimLineEnd,
  fileKeys: (file) => lineKeys(file, "key:trailing-whitespace", (f, i) => trimLineEnd(f.lines[i]!)),
  checksNesting: false,
};

/** Whether a window other than a stricter rung's `starts` holds the model's lines once trailing whitespace goes. */
export function hidesByTrailingWhitespace(file: TextFile, want: readonly string[], starts: readonly number[]): boolean {
  return holdsOthers(findWindows(trailingWhitespaceRung.fileKeys(file), want.map(trimLineEnd)), starts);
}

/** Whether `line` ends with whitespace that `trimLineEnd` removes. */
export function endsWithWhitespace(line: string): boolean {
  if (line.length === 0) return false;
  const c = line.charCodeAt(line.length - 1);
  return c === 32 || (c >= 9 && c <= 13) || (c >= 128 && /\s/.test(line[line.length - 1]!));
}
