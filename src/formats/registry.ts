/**
 * The reply parser: one pass over the reply's lines, asking the dialects in detection order whether a block starts
 * at each line. Fenced blocks are examined for a dialect's block inside first (SEARCH/REPLACE markers, a patch, a
 * diff); a fence with none of them is a whole file when it names a path, and prose otherwise.
 */
import type { FormatName, ParsedItem } from "../core/edit.js";
import { applyPatch } from "./apply-patch/parse.js";
import { searchReplace } from "./search-replace/parse.js";
import { closesFence, dedentFences, parseFenceLine, scanFence } from "./shared/fences.js";
import { pathOfFence } from "./shared/locate-path.js";
import type { Dialect, OpenFence, PathLookup, ScanContext } from "./types.js";
import { unifiedDiff } from "./unified-diff/parse.js";
import { isCommentNamed, parseWholeFile, wholeFilePath } from "./whole-file/parse.js";
import { WHOLE_FILE_PROMPT } from "./whole-file/prompt.js";

export type FormatChoice = "auto" | FormatName;

export interface ParseOptions {
  readonly format?: FormatChoice;
  readonly knownPaths?: PathLookup;
}

/**
 * The line dialects in detection order (apply_patch before udiff: its chunks use `@@` too). Whole files are not
 * among them: any fenced block with a path could be one, so the scan tries them last, on fences no dialect claimed.
 */
export const DIALECTS: readonly Dialect[] = [searchReplace, applyPatch, unifiedDiff];

const PROMPTS: Readonly<Record<FormatName, string>> = {
  editblock: searchReplace.prompt,
  patch: applyPatch.prompt,
  udiff: unifiedDiff.prompt,
  whole: WHOLE_FILE_PROMPT,
};

/** The text that teaches a model the given dialect. */
export const promptFor = (format: FormatName): string => PROMPTS[format];

/** Reply line endings are transport: `\r` is dropped from every line; indented fences are de-indented. */
function splitReply(reply: string): string[] {
  const lines = reply.split("\n");
  // One search of the reply spares a check per line when it has no `\r` (the usual case).
  if (reply.includes("\r")) {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.endsWith("\r")) lines[i] = line.slice(0, -1);
    }
  }
  dedentFences(lines);
  return lines;
}

/** Parses a model's reply into edits and parse problems, in reply order. Pure; never throws. */
export function parseReply(reply: string, options: ParseOptions = {}): ParsedItem[] {
  const format = options.format ?? "auto";
  const lines = splitReply(reply);
  const ctx: ScanContext = {
    lines,
    knownPaths: options.knownPaths,
    state: { lastSearchReplacePath: undefined, lastSearchReplaceFence: undefined, lastSearchReplaceEnd: undefined },
  };
  const active = DIALECTS.filter((d) => format === "auto" || d.name === format);
  const wholeAllowed = format === "auto" || format === "whole";
  const items: ParsedItem[] = [];
  const startingAt = (i: number, fence: OpenFence | undefined): Dialect | undefined =>
    active.find((d) => d.startsAt(ctx, i, fence));

  // The fence the scan is inside, entered because its body holds a dialect's block.
  let container: OpenFence | undefined;
  let i = 0;
  while (i < lines.length) {
    const dialect = startingAt(i, container);
    if (dialect !== undefined) {
      const parsed = dialect.parseAt(ctx, i, container);
      for (const item of parsed.items) items.push(item);
      i = Math.max(parsed.next, i + 1);
      continue;
    }
    const fence = parseFenceLine(lines[i]!);
    if (fence === undefined) {
      for (const d of active) {
        const stray = d.strayAt?.(ctx, i);
        if (stray !== undefined) items.push(stray);
      }
      i++;
      continue;
    }
    if (container !== undefined && closesFence(container.fence, fence)) {
      container = undefined;
      i++;
      continue;
    }
    const open: OpenFence = { fence, line: i, path: pathOfFence(ctx, i, fence.info) };
    // A fence that names a file looks for blocks only at its own level: nested fences are part of the file. One
    // without a path looks everywhere, so blocks after an example fence that was never closed are still found.
    const wholeCandidate = wholeAllowed && wholeFilePath(ctx, i, fence) !== undefined;
    const scan = scanFence(lines, i, fence, (j) => startingAt(j, open) !== undefined, !wholeCandidate);
    if (scan.stop !== undefined) {
      // Lines between the opener and the first block hold no block: jump there and parse inside the fence.
      container = open;
      i = scan.stop;
      continue;
    }
    if (wholeAllowed) for (const item of parseWholeFile(ctx, i, fence, scan.end)) items.push(item);
    i = scan.end === undefined ? lines.length : scan.end + 1;
  }
  // A block whose only path is a bare comment on its first line is a whole file when the reply says nothing else;
  // beside other edits it is an example of their use.
  return items.every(isCommentNamed) ? items : items.filter((item) => !isCommentNamed(item));
}
