/**
 * Whole files (`whole`): a fenced block whose path is in the info string or on the line above, holding the
 * file's entire new content. The registry calls this only for fences whose body holds no other dialect. A fence
 * without a path is prose (an example, a command) and yields nothing.
 */
import { isHead, strayMarker } from "../search-replace/markers.js";
import { knownPathComment, labelledPathComment } from "../shared/paths.js";
import type { ParsedItem, RewriteEdit } from "../../core/edit.js";
import { isSuspectedElision } from "../shared/elision.js";
import { FenceNesting, isDiffInfo, isShellInfo, parseFenceLine, type FenceLine } from "../shared/fences.js";
import { editItem, joinContent, lastLine, problemItem } from "../shared/items.js";
import { pathOfFence } from "../shared/locate-path.js";
import type { ScanContext } from "../types.js";

const FORMAT = "whole";

const SHELL_FILE = /\.(?:sh|bash|zsh|fish|ksh|ps1|psm1|cmd|bat)$/i;
const DIFF_FILE = /\.(?:diff|patch)$/i;

/** Markers of other dialects, which a whole file may not hold when the format is forced to `whole`. */
const FOREIGN = /^diff --git |^\*\*\* Begin Patch\s*$/;
// A marker that does not parse (`<<< SEARCH`) still says the block is an edit, not a file to write whole.
const isForeign = (line: string): boolean => isHead(line) || strayMarker(line) !== undefined || FOREIGN.test(line);

/**
 * Where a whole file's path was named: above or on the fence, or by a comment as the block's first line, with a
 * label (`inside`: a header, not written) or, with `commented`, without one (the planner decides: `pathComment`).
 */
interface FilePath {
  readonly path: string;
  readonly inside: boolean;
  readonly commented?: true;
}

function locateWholeFilePath(
  ctx: ScanContext,
  open: number,
  fence: FenceLine,
  commented = false,
): FilePath | undefined {
  const above = pathOfFence(ctx, open, fence.info, false);
  const first = above === undefined ? ctx.lines[open + 1] : undefined;
  const labelled = first === undefined ? undefined : labelledPathComment(first, ctx.knownPaths);
  const bare =
    first === undefined || labelled !== undefined || !commented ? undefined : knownPathComment(first, ctx.knownPaths);
  const found: FilePath | undefined =
    above !== undefined
      ? { path: above, inside: false }
      : labelled !== undefined
        ? { path: labelled, inside: true }
        : bare !== undefined
          ? { path: bare, inside: false, commented: true }
          : undefined;
  if (found === undefined) return undefined;
  // A shell block under a path line is usually a command to run, unless the path names a script.
  if (isShellInfo(fence.info) && !SHELL_FILE.test(found.path)) return undefined;
  return found;
}

/** The path of the fenced block at `open`, or undefined when it is not a whole-file block (prose). */
export const wholeFilePath = (ctx: ScanContext, open: number, fence: FenceLine): string | undefined =>
  locateWholeFilePath(ctx, open, fence)?.path;

/**
 * Parses the fenced block opened at `open` and closed at `end` (undefined: the reply ended first). Returns no
 * items when the block has no path. A block named only by an unlabelled comment on its first line counts only when
 * the reply holds nothing else (`isCommentNamed`; the registry drops it otherwise).
 */
export function parseWholeFile(
  ctx: ScanContext,
  open: number,
  fence: FenceLine,
  end: number | undefined,
): ParsedItem[] {
  const located = locateWholeFilePath(ctx, open, fence, true);
  if (located === undefined) return [];
  const { path } = located;
  const { lines } = ctx;
  if (end === undefined) {
    const message = `the fenced block for ${path} opened at line ${open + 1} is not closed: the reply ends at line ${lastLine(lines)} (truncated?); resend the whole file`;
    return [problemItem(FORMAT, open, path, message)];
  }
  // A labelled path comment on the first line is the model's header, not the file's first line.
  const start = open + (located.inside ? 2 : 1);
  const body = lines.slice(start, end);
  if (isDiffInfo(fence.info) && !DIFF_FILE.test(path)) {
    const message = `the diff block for ${path} at line ${open + 1} has no file headers or hunks; write '--- a/${path}', '+++ b/${path}' and '@@ ... @@' hunks`;
    return [problemItem(FORMAT, open, path, message)];
  }
  // Markers and elisions count only at the file's own level: inside a nested fence they are documentation.
  // Elisions are only suspected here (a real comment may start with "..."): the planner checks them against the file.
  const nesting = new FenceNesting(fence);
  const suspected: number[] = [];
  for (let k = 0; k < body.length; k++) {
    const line = body[k]!;
    const inside = nesting.nested;
    if (nesting.step(parseFenceLine(line)) !== "content" || inside) continue;
    // A marker that does not parse (`<<< SEARCH`) still says the block is an edit, not a file to write whole.
    const stray = strayMarker(line);
    if (stray !== undefined) return [problemItem(FORMAT, start + k, path, `line ${start + k + 1} ${stray}`)];
    if (isForeign(line)) {
      const message = `the block for ${path} at line ${open + 1} holds edit markers at line ${start + k + 1}, not a whole file; only whole files are accepted in this format`;
      return [problemItem(FORMAT, start + k, path, message)];
    }
    if (isSuspectedElision(line, path)) suspected.push(k);
  }
  const content = joinContent(body);
  const origin = { format: FORMAT, line: open + 1 } as const;
  // Only the planner sees the file: a suspected line it holds verbatim is content, any other is refused there.
  const edit: RewriteEdit = {
    kind: "rewrite",
    path,
    content,
    origin,
    ...(suspected.length > 0 ? { suspectedElisions: suspected } : {}),
    ...(located.commented === true ? { pathComment: true } : {}),
  };
  return [editItem(edit)];
}

/** Whether an item is a whole file named only by an unlabelled comment on its first line. */
export const isCommentNamed = (item: ParsedItem): boolean =>
  item.type === "edit" && item.edit.kind === "rewrite" && item.edit.pathComment === true;
