/**
 * Rung 1, exact: the line's raw text, including the `\r` of a CRLF line, against what the model wrote. Model text
 * usually arrives without `\r`, so a CRLF file is normally found one rung later, with the same result.
 *
 * Line endings are invisible in a reply, so they must not make a window look unique: in a CRLF file, LF model text
 * matches exactly only the last line (it has no ending) or the LF lines of a mixed file, and the same text on CRLF
 * lines would be passed over. The exact rung therefore decides only when no other window has the same texts once
 * endings are ignored (`hidesByEndings`); otherwise the line-endings rung sees every window and decides.
 */
import type { TextFile } from "../../core/text.js";
import { lineKeys } from "../../core/file-memo.js";
import { findWindows, holdsOthers } from "../windows.js";
import type { LineRung } from "./line-rung.js";

/** A line's text with the `\r` of a CRLF ending, as the exact rung compares it. */
const exactKey = (file: TextFile, i: number): string =>
  file.eols[i] === "\r\n" ? `${file.lines[i]!}\r` : file.lines[i]!;

export const exactRung: LineRung = {
  name: "exact",
  modelKey: (text) => text,
  fileKeys: (file) => lineKeys(file, "key:exact", exactKey),
  checksNesting: false,
};

/** A model line as a line's text without its ending: one `\r` at its end is the residue of a CRLF ending. */
export const endingFreeKey = (text: string): string =>
  text.length > 0 && text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text;

/**
 * Whether a window other than the exact rung's `starts` holds the model's lines once endings are ignored (each
 * line's text, without its ending, equal to the model's line without a CRLF residue).
 */
export function hidesByEndings(file: TextFile, want: readonly string[], starts: readonly number[]): boolean {
  return holdsOthers(findWindows(file.lines, want.map(endingFreeKey)), starts);
}
