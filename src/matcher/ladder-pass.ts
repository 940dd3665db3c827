/**
 * One pass of the ladder (ladder.ts): the old side it looks for (with or without the blank context lines at its
 * edges), what it is told about the edit and the file, and what a rung's outcome may be.
 */
import type { EditHint, LineOp } from "../core/edit.js";
import type { IndentStyle } from "../core/indent.js";
import type { TextFile } from "../core/text.js";
import { bracketContinued } from "./bracket-continuation.js";
import type { FuzzyOptions } from "./fuzzy.js";
import type { OldLine } from "./old-side.js";
import type { Match, Rung } from "./types.js";

/** What one pass looks for, and what it knows of the edit and the file. */
export interface Pass {
  readonly file: TextFile;
  readonly path: string | undefined;
  /** The whole edit: added lines are placed by the old lines beside them. */
  readonly ops: readonly LineOp[];
  readonly old: readonly OldLine[];
  readonly hint: EditHint;
  /** Added to hint.line to compare it with this pass's first old line in the current file. */
  readonly lineOffset: number;
  readonly modelStyle: IndentStyle | undefined;
  readonly fuzzy: FuzzyOptions;
}

/** A decided outcome: it ends the ladder. */
export type Settled =
  | { readonly kind: "found"; readonly match: Match }
  | {
      readonly kind: "ambiguous";
      readonly strategy: Match["strategy"];
      readonly lines: readonly number[];
      readonly note?: string;
    };

export type PassResult = Settled | { readonly kind: "not-found"; readonly notes: readonly string[] };

/** The rungs on which the lines are in the file byte for byte, line endings aside. */
export const BYTE_EXACT: ReadonlySet<Rung> = new Set(["exact", "line-endings"]);
/** The rungs that match lines whose indentation differs from the file's. */
export const REINDENTING: ReadonlySet<Rung> = new Set(["indentation", "unicode"]);

export const rungOf = (r: Settled): Rung => (r.kind === "found" ? r.match.strategy : r.strategy);

/** The lines of the window [start, end) that continue a bracket (bracket-continuation.ts). */
export const continuedIn = (pass: Pass, start: number, end: number): ReadonlySet<number> =>
  bracketContinued((i) => pass.file.lines[i]!, start, end, pass.path);
