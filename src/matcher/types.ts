/**
 * The matcher's contract. `locate` finds where a replace edit's old lines sit in a file by walking the ladder;
 * `renderReplacement` (apply/splice.ts) turns a match into the new file.
 */
import type { EditHint, LineOp } from "../core/edit.js";

/** The ladder rungs, in order. */
export type Rung = "exact" | "line-endings" | "trailing-whitespace" | "indentation" | "unicode" | "elision" | "fuzzy";

/** Which file lines (0-based, end exclusive) one non-`add` op of the edit covers. Context/remove: one line. */
export interface Alignment {
  readonly op: number;
  readonly start: number;
  readonly end: number;
}

export interface Match {
  /** 0-based first line of the matched region and the line after it (start === end for a pure insertion). */
  readonly start: number;
  readonly end: number;
  readonly strategy: Rung;
  /** One entry per non-`add` op, in op order. */
  readonly alignment: readonly Alignment[];
  /** Fuzzy only: similarity of the chosen window (0..1). */
  readonly similarity?: number;
}

/** Real lines to quote when nothing (or nothing unique) matched. */
export interface NearestLines {
  /** 1-based number of the first quoted line. */
  readonly startLine: number;
  readonly lines: readonly string[];
  /**
   * How the region was chosen: the best-scoring similar window, shared identifiers, the lines around a line number
   * the edit gave, or just the file's start.
   */
  readonly why: "similar" | "shared-words" | "hint-line" | "file-start";
  readonly similarity?: number;
  /** Total lines in the file, so the model can ask for a range. */
  readonly fileLines: number;
}

export type LocateResult =
  | { readonly kind: "found"; readonly match: Match }
  | {
      readonly kind: "ambiguous";
      readonly strategy: Rung;
      /** 1-based first line of every candidate on that rung. */
      readonly lines: readonly number[];
      /** Why one window is still no sure place, when that is the doubt (said instead of counting windows). */
      readonly note?: string;
    }
  | {
      readonly kind: "not-found";
      readonly nearest: NearestLines;
      /** Why the loosest rungs gave up, in words (e.g. "best window 83 % similar, needs 90 %"). */
      readonly note?: string;
    };

export interface LocateOptions {
  /** Minimum similarity for the fuzzy rung (default FUZZY_THRESHOLD). */
  readonly fuzzyThreshold?: number;
  /** Required lead of the best fuzzy window over the best non-overlapping runner-up (default FUZZY_MARGIN). */
  readonly fuzzyMargin?: number;
  /** Maximum characters compared by Levenshtein in one lookup (default FUZZY_BUDGET). */
  readonly fuzzyBudget?: number;
  /**
   * Lines added minus lines removed by earlier edits of the same file in this reply, so that a hint line written
   * against the original file can be compared with the current content.
   */
  readonly hintOffset?: number;
  /** The caller found that the old side has no window on the exact and line-endings rungs (exact-doc.ts). */
  readonly noExactWindow?: boolean;
}

export interface LocateInput {
  readonly ops: readonly LineOp[];
  readonly hint: EditHint;
  /** The file's path: what its language's brackets and strings look like (bracket-continuation.ts). */
  readonly path?: string;
}
