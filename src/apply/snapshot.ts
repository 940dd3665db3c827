/**
 * What the planner knows about each file an edit names, read before planning (pure types and helpers).
 * The filesystem adapter produces these; the library form (`applyEdits`) builds them from a reader function.
 */
import { dominantEolOfText } from "../core/text.js";

export type FileState =
  /** `executable`: the file's mode has the execute bit (undefined when the reader does not say). */
  | { readonly kind: "text"; readonly content: string; readonly executable?: boolean }
  | { readonly kind: "missing" }
  | { readonly kind: "binary" }
  /** Exists but cannot be read as a file: a directory, a special file, a permission error. */
  | { readonly kind: "unreadable"; readonly message: string }
  /** Reaching it would leave the root (a symlink pointing outside, or a path the confinement check refused). */
  | { readonly kind: "unsafe"; readonly message: string }
  /** The caller protects this path (EngineOptions.protect): the message says why. Never read. */
  | { readonly kind: "protected"; readonly message: string };

export type FileSnapshot = ReadonlyMap<string, FileState>;

/**
 * The line ending new files should use: the one most text files in the snapshot use (by each file's dominant
 * ending), LF when none shows a preference. Only files with at least one line ending vote.
 */
export function projectEol(snapshot: FileSnapshot): "\n" | "\r\n" {
  let crlf = 0;
  let lf = 0;
  for (const state of snapshot.values()) {
    if (state.kind !== "text" || !state.content.includes("\n")) continue;
    if (dominantEolOfText(state.content) === "\r\n") crlf++;
    else lf++;
  }
  return crlf > lf ? "\r\n" : "\n";
}

/** Re-expresses text the model wrote with `\n` endings in the given style; lone `\r\n` are kept as they are. */
export const withEol = (text: string, eol: "\n" | "\r\n"): string =>
  eol === "\n" ? text : text.replace(/\r?\n/g, "\r\n");
