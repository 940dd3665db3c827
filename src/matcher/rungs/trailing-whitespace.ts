/** Rung 3, trailing whitespace: spaces, tabs and `\r` at the end of a line are ignored. */
import { cached } from "../file-cache.js";
import { trimLineEnd } from "../normalize.js";
import type { LineRung } from "./line-rung.js";

export const trailingWhitespaceRung: LineRung = {
  name: "trailing-whitespace",
  modelKey: trimLineEnd,
  fileKeys: (file) => cached(file, "key:trailing-whitespace", () => file.lines.map(trimLineEnd)),
  checksNesting: false,
};
