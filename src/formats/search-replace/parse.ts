/**
 * SEARCH/REPLACE blocks (`editblock`):
 *
 *     path/to/file.py
 *     ```python
 *     <<<<<<< SEARCH
 *     old lines
 *     =======
 *     new lines
 *     >>>>>>> REPLACE
 *     ```
 *
 * The block's text is taken verbatim (fences inside it are content). A block without a path line inherits the
 * previous block's path when it sits right after it. Empty SEARCH creates a file; otherwise the ops come from a line diff of the two sides.
 */
import type { ParsedItem } from "../../core/edit.js";
import { editItem, joinContent, lastLine, problemItem } from "../shared/items.js";
import { parseFenceLine } from "../shared/fences.js";
import { pathAboveHead } from "../shared/locate-path.js";
import type { BlockParse, Dialect, OpenFence, ScanContext } from "../types.js";
import {
  endMarkerFor,
  isDashSeparator,
  isDividerOf,
  isEnd,
  isEndLine,
  isHead,
  startLineOf,
  strayMarker,
} from "./markers.js";
import { withoutLineNumbers } from "./line-numbers.js";
import { deriveOps } from "./ops.js";
import { SEARCH_REPLACE_PROMPT } from "./prompt.js";

const FORMAT = "editblock";

const MISSING_PATH = "missing filename: put the file path alone on the line before the opening fence";
const REPLACE_ELISION =
  "an elision in REPLACE without the same elision in SEARCH would delete the lines it stands for; quote those lines or keep '...' at the same place in both";
const SEARCH_ELISION =
  "an elision in SEARCH without the same elision in REPLACE would delete the lines it stands for; quote the lines to remove, or keep '...' at the same place in both";

interface Block {
  readonly head: number;
  readonly startLine: number | undefined;
  /** Index of the first SEARCH line. */
  readonly searchAt: number;
  readonly search: string[];
  /** Index of the first REPLACE line. */
  readonly replaceAt: number;
  readonly replace: string[];
}

type Scan = { readonly ok: true; readonly block: Block; readonly next: number } | BlockParse;

function truncated(ctx: ScanContext, head: number, at: number, path: string | undefined, expected: string): BlockParse {
  const where =
    at >= ctx.lines.length ? `the reply ends at line ${lastLine(ctx.lines)}` : `line ${at + 1} starts another block`;
  const message = `the SEARCH/REPLACE block starting at line ${head + 1} is not complete: ${where} before '${expected}'; resend the whole block`;
  return { items: [problemItem(FORMAT, head, path, message)], next: at };
}

/**
 * Two divider lines make the split a guess: a heading underline (`=====`) in the text looks the same as the
 * divider, and taking either one as the divider would apply the wrong edit.
 */
function ambiguous(head: number, first: number, second: number, path: string | undefined, next: number): BlockParse {
  const message = `the SEARCH/REPLACE block starting at line ${head + 1} contains two '=======' lines (lines ${first + 1} and ${second + 1}), so SEARCH and REPLACE cannot be told apart; for text that contains such lines (a heading underline), send a unified diff instead`;
  return { items: [problemItem(FORMAT, head, path, message)], next };
}

function scanBlock(ctx: ScanContext, head: number, path: string | undefined): Scan {
  const { lines } = ctx;
  const isDivider = (line: string): boolean => isDividerOf(lines[head]!, line);
  let j = head + 1;
  let startLine: number | undefined;
  let positioned = false;
  let separator: number | undefined;
  // Roo's optional position lines sit between the head and the SEARCH text.
  for (let seen = 0; seen < 3 && j < lines.length; seen++) {
    const line = lines[j]!;
    const n = startLineOf(line);
    if (n !== undefined) startLine = n;
    else if (!isEndLine(line) && !isDashSeparator(line)) break;
    if (isDashSeparator(line)) {
      separator = j++;
      break;
    }
    positioned = true;
    j++;
  }
  const textAt = j;
  while (j < lines.length && !isDivider(lines[j]!)) {
    if (isHead(lines[j]!)) return truncated(ctx, head, j, path, "=======");
    j++;
  }
  if (j >= lines.length) return truncated(ctx, head, j, path, "=======");
  const divider = j;
  const replaceAt = ++j;
  let second: number | undefined;
  while (j < lines.length && !isEnd(lines[j]!)) {
    if (isHead(lines[j]!)) return truncated(ctx, head, j, path, endMarkerFor(lines[head]!));
    if (second === undefined && isDivider(lines[j]!)) second = j;
    j++;
  }
  if (j >= lines.length) return truncated(ctx, head, j, path, endMarkerFor(lines[head]!));
  if (second !== undefined) return ambiguous(head, divider, second, path, j + 1);
  const replace = lines.slice(replaceAt, j);
  // A dash line with no position line before it, which the REPLACE starts with too, is the text's own (a heading
  // underline that both sides keep), not Roo's separator: taken as one, it turned into an added line.
  const own = separator !== undefined && !positioned && replace[0] === lines[separator];
  const searchAt = own ? separator! : textAt;
  const search = lines.slice(searchAt, divider);
  return { ok: true, block: { head, startLine, searchAt, search, replaceAt, replace }, next: j + 1 };
}

function toItem(numbered: Block, path: string): ParsedItem {
  const origin = { format: FORMAT, line: numbered.head + 1 } as const;
  const { search, replace, firstLine } = withoutLineNumbers(numbered.search, numbered.replace);
  const block: Block = { ...numbered, search, replace, startLine: numbered.startLine ?? firstLine };
  const derived = deriveOps(block.search, block.replace, path);
  if (!derived.ok) {
    const at = derived.side === "search" ? block.searchAt + derived.offset : block.replaceAt + derived.offset;
    return problemItem(FORMAT, at, path, derived.side === "search" ? SEARCH_ELISION : REPLACE_ELISION);
  }
  if (block.search.every((l) => l.trim() === "")) {
    return editItem({ kind: "create", path, content: joinContent(block.replace), origin });
  }
  const hint = block.startLine === undefined ? {} : { line: block.startLine };
  return editItem({ kind: "replace", path, ops: derived.ops, hint, explicitOps: false, origin });
}

/**
 * The block's path: the line above it; else the path named above its fence, for the first block in that fence;
 * else the previous block's path, but only for a block next to it (same fence, or only blank and fence lines
 * between): past prose, a block that names no file may be about another one, and guessing would edit the wrong file.
 */
function resolvePath(ctx: ScanContext, head: number, fence: OpenFence | undefined): string | undefined {
  const named = pathAboveHead(ctx, head);
  if (named !== undefined) return named;
  const { state } = ctx;
  if (fence?.path !== undefined && fence.line !== state.lastSearchReplaceFence) return fence.path;
  return followsLastBlock(ctx, head, fence) ? state.lastSearchReplacePath : undefined;
}

function followsLastBlock(ctx: ScanContext, head: number, fence: OpenFence | undefined): boolean {
  const { state, lines } = ctx;
  if (state.lastSearchReplaceEnd === undefined) return false;
  if (fence !== undefined && fence.line === state.lastSearchReplaceFence) return true;
  for (let k = state.lastSearchReplaceEnd; k < head; k++) {
    const line = lines[k]!;
    if (line.trim() !== "" && parseFenceLine(line) === undefined) return false;
  }
  return true;
}

function parseAt(ctx: ScanContext, head: number, fence: OpenFence | undefined): BlockParse {
  const path = resolvePath(ctx, head, fence);
  const scan = scanBlock(ctx, head, path);
  if (!("ok" in scan)) return scan;
  if (path === undefined) return { items: [problemItem(FORMAT, head, undefined, MISSING_PATH)], next: scan.next };
  ctx.state.lastSearchReplacePath = path;
  ctx.state.lastSearchReplaceFence = fence?.line;
  ctx.state.lastSearchReplaceEnd = scan.next;
  return { items: [toItem(scan.block, path)], next: scan.next };
}

export const searchReplace: Dialect = {
  name: FORMAT,
  prompt: SEARCH_REPLACE_PROMPT,
  startsAt: (ctx, index) => isHead(ctx.lines[index]!),
  parseAt,
  strayAt: (ctx, index) => {
    const wrong = strayMarker(ctx.lines[index]!);
    return wrong === undefined ? undefined : problemItem(FORMAT, index, undefined, `line ${index + 1} ${wrong}`);
  },
};
