/**
 * Rung 1, exact: the line's raw text, including the `\r` of a CRLF line, against what the model wrote. Model text
 * usually arrives without `\r`, so a CRLF file is normally found one rung later, with the same result.
 */
import type { TextFile } from "../../core/text.js";
import { cached } from "../file-cache.js";
import type { LineRung } from "./line-rung.js";

function exactKeys(file: TextFile): readonly string[] {
  if (!file.eols.includes("\r\n")) return file.lines;
  return file.lines.map((line, i) => (file.eols[i] === "\r\n" ? `${line}\r` : line));
}

export const exactRung: LineRung = {
  name: "exact",
  modelKey: (text) => text,
  fileKeys: (file) => cached(file, "key:exact", () => exactKeys(file)),
  checksNesting: false,
};
