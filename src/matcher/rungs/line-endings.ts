/** Rung 2, line endings: `\r` at the end of a line is ignored on both sides (CRLF file, LF model text). */
import { lineKeys } from "../../core/file-memo.js";
import { stripCarriageReturn } from "../normalize.js";
import type { LineRung } from "./line-rung.js";

export const lineEndingsRung: LineRung = {
  name: "line-endings",
  modelKey: stripCarriageReturn,
  fileKeys: (file) => lineKeys(file, "key:line-endings", (f, i) => stripCarriageReturn(f.lines[i]!)),
  checksNesting: false,
};
