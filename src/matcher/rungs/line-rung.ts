/**
 * A line rung of the ladder: one key function, applied to the file's lines and to the lines the model wrote. Two
 * lines are equal on a rung when their keys are equal; a window matches when every line does.
 */
import type { TextFile } from "../../core/text.js";
import type { Rung } from "../types.js";

export interface LineRung {
  readonly name: Exclude<Rung, "elision" | "fuzzy">;
  /** The key of a line as the model wrote it. */
  readonly modelKey: (text: string) => string;
  /** The keys of all the file's lines, memoised per file (see core/file-memo.ts). */
  readonly fileKeys: (file: TextFile) => readonly string[];
  /** Indentation-insensitive rungs also require the nesting of the lines to agree (indent-structure.ts). */
  readonly checksNesting: boolean;
}
