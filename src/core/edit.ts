/**
 * The edit IR: every dialect parser emits these, the matcher and planner consume them.
 * Pure data, serialisable, no behaviour.
 */

/** Which dialect a block was written in. */
/** The edit dialects, by the names the CLI, the repo config and the operator's model table use. */
export const FORMAT_NAMES = ["editblock", "udiff", "patch", "whole"] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

export const isFormatName = (name: string): name is FormatName => (FORMAT_NAMES as readonly string[]).includes(name);

/** Where in the model's reply an edit came from (1-based line), for messages. */
export interface EditOrigin {
  readonly format: FormatName;
  readonly line: number;
  /**
   * For the hunks of one diff of one file (a unified diff's `---`/`+++` section, an apply_patch update): the reply
   * line of its header. Such hunks are made against the file as it was, not against each other's results.
   */
  readonly section?: number;
}

/**
 * One line of a change, in order. `context` lines must be present and are kept with the file's own bytes,
 * `remove` lines must be present and are dropped, `add` lines are inserted. `elision` stands for "any run of
 * existing lines, kept as they are" (`...` or `// ... existing code ...` at the same place in SEARCH and REPLACE).
 */
export type LineOp =
  | { readonly op: "context"; readonly text: string }
  | { readonly op: "remove"; readonly text: string }
  | { readonly op: "add"; readonly text: string }
  | {
      readonly op: "elision";
      readonly text: string;
      /**
       * REPLACE's own line at the elision's place, when it reads otherwise than SEARCH's: a comment that only looks
       * like an elision (`# the same as decode() or not...`) and that the edit changes, when the SEARCH is found
       * with it as a line of the file.
       */
      readonly becomes?: string;
    };

/** Position hints: they rank or disambiguate candidates, never justify text that does not match. */
export interface EditHint {
  /** 1-based line where the old text is claimed to start (udiff `-a,b`, `:start_line:`), in the ORIGINAL file. */
  readonly line?: number;
  /** apply_patch `@@ anchor` lines, outermost first: the change sits after these lines, in this order. */
  readonly anchors?: readonly string[];
  /**
   * apply_patch `*** End of File`, or udiff `\ No newline at end of file` after the old side: the old lines end the
   * file.
   */
  readonly atEndOfFile?: boolean;
}

/** Change some lines of an existing file. */
export interface ReplaceEdit {
  readonly kind: "replace";
  readonly path: string;
  readonly ops: readonly LineOp[];
  readonly hint: EditHint;
  /** True for diff dialects, where each op was marked by the model; false when ops were derived from SEARCH/REPLACE. */
  readonly explicitOps: boolean;
  /**
   * udiff `\ No newline at end of file` after the old / new side, when stated. Undefined means "keep the file's state".
   */
  readonly oldEndsWithoutNewline?: boolean;
  readonly newEndsWithoutNewline?: boolean;
  readonly origin: EditOrigin;
}

/** Create a file that must not exist. `content` uses `\n` line ends; the planner picks the project's style. */
export interface CreateEdit {
  readonly kind: "create";
  readonly path: string;
  readonly content: string;
  /** The file is made executable (git's `new file mode 100755`). */
  readonly executable?: boolean;
  readonly origin: EditOrigin;
}

/** Delete a file that must exist. */
export interface DeleteEdit {
  readonly kind: "delete";
  readonly path: string;
  readonly origin: EditOrigin;
}

/** Move a file; the destination must not exist. */
export interface RenameEdit {
  readonly kind: "rename";
  readonly path: string;
  readonly to: string;
  readonly origin: EditOrigin;
}

/** Copy a file (git's `copy from` / `copy to`); the destination must not exist. The copy keeps the mode. */
export interface CopyEdit {
  readonly kind: "copy";
  readonly path: string;
  readonly to: string;
  readonly origin: EditOrigin;
}

/**
 * Make an existing file executable or not (git's `old mode 100644` / `new mode 100755`); its content stays. A
 * rename carries the mode along, as git does.
 */
export interface ModeEdit {
  readonly kind: "mode";
  readonly path: string;
  readonly executable: boolean;
  readonly origin: EditOrigin;
}

/** Replace a file's whole content (or create it when missing). */
export interface RewriteEdit {
  readonly kind: "rewrite";
  readonly path: string;
  readonly content: string;
  readonly origin: EditOrigin;
  /**
   * 0-based indices of content lines that look like elisions (`// ... existing code ...`). The parser cannot see
   * the file: the planner refuses the rewrite unless each such line occurs verbatim (trimmed) in the existing file.
   */
  readonly suspectedElisions?: readonly number[];
  /**
   * The content's first line is a comment naming the path without a label (`// lib/x.js`), the only path the reply
   * gave: the model's header, unless the file starts with that very line. The planner, which sees the file,
   * decides; it also refuses such content when it is shorter than half the file (a usage example, not the file).
   */
  readonly pathComment?: true;
}

export type Edit = ReplaceEdit | CreateEdit | DeleteEdit | RenameEdit | CopyEdit | ModeEdit | RewriteEdit;

/** A block that could not be parsed into an edit. Becomes an `invalid-format` result. */
export interface ParseProblem {
  readonly path: string | undefined;
  readonly format: FormatName;
  /** 1-based line in the reply. */
  readonly line: number;
  readonly message: string;
}

/** Parser output: edits and problems in reply order (`index` orders them against each other). */
export type ParsedItem =
  { readonly type: "edit"; readonly edit: Edit } | { readonly type: "problem"; readonly problem: ParseProblem };

/** Old side (context + remove) and new side (context + add) of a replace edit; elisions are kept on both sides. */
export const oldLines = (ops: readonly LineOp[]): string[] => ops.filter((o) => o.op !== "add").map((o) => o.text);
export const newLines = (ops: readonly LineOp[]): string[] => ops.filter((o) => o.op !== "remove").map((o) => o.text);
