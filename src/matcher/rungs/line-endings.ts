/** Rung 2, line endings: `\r` at the end of a line is ignored on both sides (CRLF file, LF model text). */
import { cached } from "../file-cache.js";
import { stripCarriageReturn } from "../normalize.js";
import type { LineRung } from "./line-rung.js";

export const lineEndingsRung: LineRung = {
  name: "line-endings",
  modelKey: stripCarriageReturn,
  fileKeys: (file) => cached(file, "key:line-endings", () => file.lines.map(stripCarriageReturn)),
  checksNesting: false,
};
