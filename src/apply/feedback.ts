/**
 * Failure text written for the model's next prompt (pure): each message names the path, the problem and what to
 * do, and quotes the file's real lines (capped) when the model's text did not match.
 */
import { plural } from "../core/plural.js";
import type { Edit, FormatName, ParseProblem } from "../core/edit.js";
import type { EditResult } from "../core/result.js";
import type { NearestLines, Rung } from "../matcher/types.js";

/** At most this many lines are quoted in one message, each cut at MAX_QUOTED_CHARS. */
/** Places named in an ambiguity message: enough to tell them apart, never a wall of numbers for a prompt. */
export const MAX_LISTED_PLACES = 20;

function listed(lines: readonly number[]): string {
  if (lines.length <= MAX_LISTED_PLACES) return lines.join(", ");
  return `${lines.slice(0, MAX_LISTED_PLACES).join(", ")} and ${String(lines.length - MAX_LISTED_PLACES)} more`;
}

export const MAX_QUOTED_LINES = 15;
export const MAX_QUOTED_CHARS = 200;

const cut = (line: string): string =>
  line.length > MAX_QUOTED_CHARS ? `${line.slice(0, MAX_QUOTED_CHARS)}… (line cut)` : line;

/** Lines with their 1-based numbers, right-aligned: "  41 | text". */
export function numberLines(lines: readonly string[], firstLine: number, maxLines = MAX_QUOTED_LINES): string {
  const shown = lines.slice(0, maxLines);
  const width = String(firstLine + Math.max(shown.length - 1, 0)).length;
  const body = shown.map((line, i) => `${String(firstLine + i).padStart(width)} | ${cut(line)}`);
  if (lines.length > shown.length) body.push(`${" ".repeat(width)} | … (${lines.length - shown.length} more lines)`);
  return body.join("\n");
}

/** "src/a.ts (edit at reply line 12)" — the reply line lets the model find which of its blocks failed. */
const subject = (path: string, edit: Edit | undefined): string =>
  edit ? `${path} (edit at reply line ${edit.origin.line})` : path;

/** Blank lines at the start and end of an edit's old side (the ones a file may lack where the rest matches). */
function blankEdges(edit: Edit): { leading: number; trailing: number } {
  if (edit.kind !== "replace") return { leading: 0, trailing: 0 };
  const old = edit.ops.filter((op) => op.op === "context" || op.op === "remove").map((op) => op.text.trim() === "");
  const leading = old.findIndex((blank) => !blank);
  if (leading === -1) return { leading: 0, trailing: 0 };
  return { leading, trailing: old.length - 1 - old.findLastIndex((blank) => !blank) };
}

function blankEdgeWords({ leading, trailing }: { leading: number; trailing: number }): string {
  const where = [
    ...(leading > 0
      ? [leading === 1 ? "its first line is blank" : `its first ${String(leading)} lines are blank`]
      : []),
    ...(trailing > 0
      ? [trailing === 1 ? "its last line is blank" : `its last ${String(trailing)} lines are blank`]
      : []),
  ];
  return `${where.join(" and ")}, and no such blank line stands`;
}

const oldSideName = (format: FormatName): string =>
  format === "udiff" || format === "patch" ? "the hunk's context and removed lines" : "the SEARCH text";

const lineHintAdvice = (format: FormatName): string =>
  format === "udiff"
    ? "or put the right starting line number in the hunk header (@@ -LINE,COUNT +LINE,COUNT @@)"
    : format === "patch"
      ? "or add an @@ line naming the enclosing function or class"
      : "or put `:start_line:N` (the first SEARCH line's number) on the line after `<<<<<<< SEARCH`";

/** What an edit of each kind does to its file, where it is not "edited". */
const DONE_TO: Partial<Record<Edit["kind"], string>> = { delete: "deleted", rename: "moved", copy: "copied" };

export const describe = {
  invalidFormat(problem: ParseProblem): string {
    const where = problem.path === undefined ? "a block" : problem.path;
    return `${where} (reply line ${problem.line}): ${problem.message}. Nothing from this block was applied; resend it in a valid format.`;
  },

  unsafePath(path: string, why: string, edit: Edit | undefined): string {
    return `${subject(path, edit)}: ${why}. Edits may only touch files inside the repository.`;
  },

  fileExists(path: string, edit: Edit): string {
    const verb =
      edit.kind === "rename" || edit.kind === "copy"
        ? `cannot be ${edit.kind === "rename" ? "moved" : "copied"} onto ${path}`
        : "cannot be created";
    const subjectPath = edit.kind === "rename" || edit.kind === "copy" ? `${edit.path} → ${path}` : path;
    return (
      `${subject(subjectPath, edit)}: ${path} already exists, so it ${verb}; creation never overwrites. ` +
      `To change it, send an edit (SEARCH/REPLACE or a diff) against its current content instead.`
    );
  },

  missingOriginal(path: string, edit: Edit): string {
    const action = DONE_TO[edit.kind] ?? "edited";
    return (
      `${subject(path, edit)}: ${path} does not exist, so it cannot be ${action}. Check the path (it is relative ` +
      `to the repository root); to make a new file, send its whole content as a new file instead.`
    );
  },

  binaryFile(path: string, edit: Edit): string {
    return `${subject(path, edit)}: ${path} is a binary file (not UTF-8 text); edits to it are not supported. Leave it unchanged.`;
  },

  forbiddenPath(path: string, why: string, edit: Edit): string {
    return `${subject(path, edit)}: ${path} may not be changed (${why}). Leave it unchanged and make the change elsewhere.`;
  },

  unreadableFile(path: string, why: string, edit: Edit): string {
    return `${subject(path, edit)}: ${why}. Edits can only change regular text files; choose another path.`;
  },

  excerpt(path: string, edit: Edit, oldCount: number, newCount: number): string {
    return (
      `${subject(path, edit)}: this looks like an excerpt, not the whole file: ${path} has ${oldCount} lines but ` +
      `the new content has ${newCount}, mostly copied from the file. Writing it would delete the rest. Send the ` +
      `complete file, or send only the change as a SEARCH/REPLACE edit.`
    );
  },

  shortFile(path: string, edit: Edit, oldCount: number, newCount: number): string {
    return (
      `${subject(path, edit)}: this block names ${path} only in the comment on its first line, and its ` +
      `${newCount} lines cannot be the whole file (${path} has ${oldCount}): it reads as an excerpt or an example. ` +
      `Send the change as a SEARCH/REPLACE edit under the file's path, or the complete file under its path.`
    );
  },

  removesWritten(path: string, edit: Edit, line: number): string {
    return (
      `${subject(path, edit)}: its old lines were found only where line ${line} of ${path}, which it removes, was ` +
      `written by an earlier hunk of this reply; a diff's hunks are made against the file as it was, so this one ` +
      `does not fit there, and nothing was changed. Check its lines against the current file (they may be gone ` +
      `already).`
    );
  },

  equalLinesRemoved(path: string, edit: Edit, lines: readonly number[]): string {
    const hunk = edit.kind === "replace" && edit.explicitOps;
    const what = hunk
      ? "the hunk removes a line and keeps an equal one beside it"
      : "the SEARCH repeats a line that the REPLACE keeps fewer times";
    const quoted = hunk ? "hunk" : "SEARCH";
    return (
      `${subject(path, edit)}: ${what}, and in ${path} its copies (within lines ${lines[0]}-` +
      `${lines[lines.length - 1]}) are not side by side as in the ${quoted}, so which ` +
      `one goes decides the result; nothing was changed because it is not clear which one is meant. Quote the ` +
      `lines between them as they are in the file.`
    );
  },

  alreadyInserted(path: string, edit: Edit, lines: { readonly start: number; readonly end: number }): string {
    const where = lines.start === lines.end ? `line ${lines.start}` : `lines ${lines.start}-${lines.end}`;
    return (
      `${subject(path, edit)}: the lines it adds are already in ${path} (${where}), next to the lines it quotes: ` +
      `this change looks made already, and nothing was changed. If so, do not resend it; to add the lines once ` +
      `more, quote the copy already there as well.`
    );
  },

  ambiguous(path: string, edit: Edit, lines: readonly number[], strategy: Rung, note?: string): string {
    if (note !== undefined) {
      return `${subject(path, edit)}: ${note}; nothing was changed because it is not clear where the lines go.`;
    }
    const how = strategy === "exact" ? "" : ` (when ${strategyWords[strategy]})`;
    const distinct = [...new Set(lines)];
    // An elided SEARCH whose later part fits in several places is read several ways from one starting line.
    // "The SEARCH text occurs", "the hunk's context and removed lines occur".
    const s = edit.origin.format === "udiff" || edit.origin.format === "patch" ? "" : "s";
    const where =
      distinct.length === lines.length
        ? `occur${s} ${plural(lines.length, "time")} in ${path}${how}, starting at lines ${listed(lines)}`
        : `fit${s} ${path} in ${plural(lines.length, "way")}${how}, starting at line${distinct.length === 1 ? "" : "s"} ${listed(distinct)}`;
    // A line number settles a fuzzy tie only where the text itself prefers the place it names, an elision tie never.
    const advice =
      strategy === "elision" || strategy === "fuzzy"
        ? "Include more surrounding lines (quoted exactly, without elisions between them) so that only one place matches."
        : `Include more surrounding lines so that only one place matches, ${lineHintAdvice(edit.origin.format)}.`;
    return (
      `${subject(path, edit)}: ${oldSideName(edit.origin.format)} ${where}; nothing was changed because it is not ` +
      `clear which one is meant. ${advice}`
    );
  },

  /** The old lines fit the file as it was before the model's earlier edits, which are still in it. */
  changedEarlier(
    path: string,
    edit: Edit,
    found: {
      earlier: { start: number; end: number };
      current: { start: number; lines: readonly string[] };
      fileLines: number;
      alreadyMade: boolean;
    },
  ): string {
    const { earlier, current } = found;
    const last = current.start + Math.min(current.lines.length, MAX_QUOTED_LINES) - 1;
    const where = `lines ${current.start}-${last} of ${found.fileLines}`;
    const quoted = numberLines(current.lines, current.start);
    const head =
      `${subject(path, edit)}: ${oldSideName(edit.origin.format)} stood at lines ${earlier.start}-${earlier.end} of ` +
      `${path} before your earlier edits, which changed those lines and are still in the file (not undone).`;
    return found.alreadyMade
      ? `${head} They already read as this edit would leave them (${where}):\n${quoted}\n` +
          "This change is made: do not send it again."
      : `${head} Those lines now read (${where}):\n${quoted}\n` +
          "Write the edit's old lines as they read now (copied exactly, without the line numbers) and send it again.";
  },

  notFound(
    path: string,
    edit: Edit,
    found: { nearest: NearestLines; note?: string | undefined; alreadyApplied: boolean; mismatch: boolean },
  ): string {
    const { nearest } = found;
    const edges = blankEdges(edit);
    // Everything but blank edge lines matched: "even ignoring whitespace" beside "100 % similar" would contradict
    // itself; the blank line is what is missing, so say that.
    const onlyBlankEdge = (edges.leading > 0 || edges.trailing > 0) && (nearest.similarity ?? 0) >= 0.995;
    const insertion = edit.kind === "replace" && edit.ops.every((op) => op.op === "add");
    const what = insertion
      ? `the edit only adds lines and has no unchanged line to place them by`
      : onlyBlankEdge
        ? `${oldSideName(edit.origin.format)} was not found in ${path} as written: ${blankEdgeWords(edges)} in ${path} where the other lines are`
        : found.mismatch
          ? `${oldSideName(edit.origin.format)} do not occur in ${path}`
          : `${oldSideName(edit.origin.format)} was not found in ${path}, even ignoring whitespace`;
    const parts = [`${subject(path, edit)}: ${what}.`];
    if (found.alreadyApplied) {
      parts.push(`The REPLACE lines are already in ${path}: this change may already be made; if so, do not resend it.`);
    }
    if (nearest.lines.length === 0) {
      parts.push(`${path} is empty.`);
    } else {
      const last = nearest.startLine + Math.min(nearest.lines.length, MAX_QUOTED_LINES) - 1;
      const label =
        nearest.why === "file-start"
          ? `Nothing similar was found; ${path} has ${plural(nearest.fileLines, "line")}. Its first lines`
          : nearest.why === "hint-line"
            ? `The lines around the line number it gives, lines ${nearest.startLine}-${last} of ${nearest.fileLines}`
            : `The most similar real lines (approximate${
                nearest.similarity === undefined || onlyBlankEdge
                  ? ""
                  : `, ${Math.min(99, Math.round(nearest.similarity * 100))} % similar`
              }), lines ${nearest.startLine}-${last} of ${nearest.fileLines}`;
      parts.push(`${label}:\n${numberLines(nearest.lines, nearest.startLine)}`);
    }
    if (found.note !== undefined && found.note !== "") parts.push(`Note: ${found.note}.`);
    parts.push(
      insertion
        ? "Send the edit again with the unchanged lines around the insertion point."
        : onlyBlankEdge
          ? "Remove that blank line from the old lines (or quote the file's real line there) and send the edit again."
          : "Copy the old lines exactly from the file's current content (without the line numbers) and send the edit again.",
    );
    return parts.join("\n");
  },

  notApplied(path: string, edit: Edit | undefined): string {
    return (
      `${subject(path, edit)}: this edit was fine but was not written because another edit in the reply failed ` +
      `(a reply is applied all or nothing); resend it together with the fixed one.`
    );
  },

  writeFailed(path: string, edit: Edit | undefined, why: string): string {
    return `${subject(path, edit)}: the edit was fine but the files could not be written (${why}); nothing was changed.`;
  },
};

const strategyWords: Record<Rung, string> = {
  exact: "compared exactly",
  "line-endings": "ignoring line endings",
  "trailing-whitespace": "ignoring trailing whitespace",
  indentation: "ignoring indentation",
  unicode: "folding quotes, dashes and spaces",
  elision: "skipping the elided lines",
  fuzzy: "compared loosely",
};

/** One line for the whole reply: what happened to the transaction. */
export function summarize(results: readonly EditResult[], partial: boolean): string {
  const total = results.length;
  if (total === 0) return "the reply contains no edits: nothing was changed";
  const failed = results.filter((r) => !r.ok).length;
  const applied = total - failed;
  if (failed === 0) return `${plural(applied, "edit")} applied`;
  if (!partial) {
    const broken = results.filter((r) => !r.ok && r.reason !== "not-applied").length;
    return `nothing was written because ${broken} of ${plural(total, "edit")} failed`;
  }
  if (applied === 0) return `all ${plural(total, "edit")} failed: nothing was changed`;
  return `${failed} of ${plural(total, "edit")} failed; the other ${plural(applied, "edit")} ${applied === 1 ? "was" : "were"} applied; resend only the failed ones`;
}
