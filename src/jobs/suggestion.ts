/**
 * Turns a tested change into a GitHub suggestion block for the commented lines (pure). A suggestion replaces exactly
 * the lines a review comment covers, so it can express a change only when everything outside those lines is
 * untouched and no other file changed; otherwise the caller answers with a patch instead.
 */
import type { ChangedFile } from "../agent/types.js";
import { MARKER, fence } from "../github/markdown.js";

export interface Focus {
  readonly path: string;
  /** 1-based, inclusive, in the file before the change. */
  readonly startLine: number;
  readonly endLine: number;
}

export type SuggestionResult =
  | { readonly ok: true; readonly lines: readonly string[] }
  | {
      readonly ok: false;
      readonly reason: "no-change" | "other-files" | "outside-lines" | "file-created-or-deleted";
      readonly message: string;
    };

function splitLines(text: string): string[] {
  return text.split("\n").map((line) => line.replace(/\r$/, ""));
}

/** The new content of the focus lines, when the change stays inside them. */
export function suggestionLines(changes: readonly ChangedFile[], focus: Focus): SuggestionResult {
  const real = changes.filter((c) => c.before !== c.after);
  if (real.length === 0) return { ok: false, reason: "no-change", message: "The fix changed nothing." };
  const others = real.filter((c) => c.path !== focus.path);
  if (others.length > 0) {
    return {
      ok: false,
      reason: "other-files",
      message: `The fix also changes ${others.map((c) => c.path).join(", ")}, which a suggestion cannot express.`,
    };
  }
  const file = real[0]!;
  if (file.before === null || file.after === null) {
    return { ok: false, reason: "file-created-or-deleted", message: `The fix creates or deletes ${file.path}.` };
  }
  const before = splitLines(file.before);
  const after = splitLines(file.after);
  const prefix = focus.startLine - 1;
  const suffix = before.length - focus.endLine;
  const outside =
    suffix < 0 ||
    after.length < prefix + suffix ||
    before.slice(0, prefix).some((line, i) => line !== after[i]) ||
    before.slice(before.length - suffix).some((line, i) => line !== after[after.length - suffix + i]);
  if (outside) {
    return {
      ok: false,
      reason: "outside-lines",
      message: `The fix changes lines of ${file.path} outside ${focus.startLine}-${focus.endLine}, the lines this comment covers.`,
    };
  }
  return { ok: true, lines: after.slice(prefix, after.length - suffix) };
}

/** A review-thread reply with a committable suggestion block. */
export function renderSuggestion(lines: readonly string[], testsLine: string): string {
  const content = lines.length === 0 ? "" : `${lines.join("\n")}\n`;
  const block = content === "" ? "```suggestion\n```" : fence(content, "suggestion");
  return [MARKER, block, "", `Applied and tested in a clone of the branch first. ${testsLine}`].join("\n");
}
