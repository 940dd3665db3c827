/**
 * Rung 4, indentation: leading whitespace is ignored too, so an outdented or re-indented SEARCH still finds its
 * block. Trimmed equality alone would also accept a flattened copy of code whose nesting differs (in Python that
 * changes meaning), so the window's nesting must agree with the model's (indent-structure.ts). The replacement is
 * re-indented to the file's real indentation when it is written (apply/splice-indent.ts).
 */
import { lineKeys } from "../../core/file-memo.js";
import { trimLine } from "../normalize.js";
import type { LineRung } from "./line-rung.js";

export const indentationRung: LineRung = {
  name: "indentation",
  modelKey: trimLine,
  fileKeys: (file) => lineKeys(file, "key:indentation", (f, i) => trimLine(f.lines[i]!)),
  checksNesting: true,
};
