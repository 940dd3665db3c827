import type { Edit } from "./edit.js";
import type { Reason } from "./reasons.js";

/** Which ladder rung located an edit, or how a non-replace edit was applied. */
export type Strategy =
  | "exact"
  | "line-endings"
  | "trailing-whitespace"
  | "indentation"
  | "unicode"
  | "elision"
  | "fuzzy"
  | "create"
  | "delete"
  | "rename"
  | "copy"
  | "mode"
  | "rewrite";

export interface AppliedEdit {
  readonly ok: true;
  readonly path: string;
  readonly edit: Edit;
  /** The whole file before this edit ("" when created). */
  readonly before: string;
  /** The whole file after this edit ("" when deleted). */
  readonly after: string;
  readonly strategy: Strategy;
  /** 1-based first and last line of the region that changed in `after` (replace edits). */
  readonly lines?: { readonly start: number; readonly end: number };
  /** 1-based first and last line of `before` where the edit's old lines were found (replace edits). */
  readonly found?: { readonly start: number; readonly end: number };
  /**
   * The reply line of an earlier edit of the same reply that this one repeats word for word (same file, same lines,
   * same hints): that one was applied, so this one changes nothing (`before` equals `after`).
   */
  readonly repeatOf?: number;
  /**
   * The edit says its lines stay as they are (its old and new sides are the same): it changed nothing, wherever
   * those lines are. `at`: the 1-based first lines of the places they were found, one or several.
   */
  readonly changesNothing?: { readonly at: readonly number[] };
}

export interface FailedEdit {
  readonly ok: false;
  readonly path: string;
  /** Undefined only for an unparseable block that yielded no edit. */
  readonly edit: Edit | undefined;
  readonly reason: Reason;
  /** Written for the model's next prompt: the path, the problem, what to do. */
  readonly message: string;
  /** 1-based first and last line of the file's lines nearest to the edit's old lines, which `message` quotes. */
  readonly near?: { readonly start: number; readonly end: number };
}

export type EditResult = AppliedEdit | FailedEdit;
