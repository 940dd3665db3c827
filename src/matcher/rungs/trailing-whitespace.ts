/** Rung 3, trailing whitespace: spaces, tabs and `\r` at the end of a line are ignored. */
import { lineKeys } from "../../core/file-memo.js";
import { trimLineEnd } from "../normalize.js";
import type { LineRung } from "./line-rung.js";

export const trailingWhitespaceRung: LineRung = {
  name: "trailing-whitespace",
  modelKey: trimLineEnd,
  fileKeys: (file) => lineKeys(file, "key:trailing-whitespace", (f, i) => trimLineEnd(f.lines[i]!)),
  checksNesting: false,
};
