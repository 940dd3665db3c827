/**
 * Where models put the path of a block: on the line above it (blank lines allowed), in the opening fence's info
 * string, or in a fence of its own just above (a habit of some models: ```` ``` ```` / path / ```` ``` ````).
 */
import type { ScanContext } from "../types.js";
import { parseFenceLine } from "./fences.js";
import { pathFromInfo, pathFromLine } from "./paths.js";

/** Blank lines tolerated between a path line and its block. */
const MAX_BLANKS = 2;

function previousNonBlank(lines: readonly string[], from: number): number {
  let k = from;
  let blanks = 0;
  while (k >= 0 && lines[k]!.trim() === "") {
    if (++blanks > MAX_BLANKS) return -1;
    k--;
  }
  return k;
}

/**
 * The path named just above line `index` (exclusive): a path line, or a fence that holds only a path. `prose`
 * also accepts a sentence ending with a backticked path (see `pathFromLine`).
 */
export function pathAbove(ctx: ScanContext, index: number, prose: boolean): string | undefined {
  const { lines, knownPaths } = ctx;
  const k = previousNonBlank(lines, index - 1);
  if (k < 0) return undefined;
  const fence = parseFenceLine(lines[k]!);
  if (fence === undefined) return pathFromLine(lines[k]!, knownPaths, prose);
  // A bare fence directly above may close a fence that holds nothing but the path.
  if (fence.info !== "" || k < 2) return undefined;
  const opener = parseFenceLine(lines[k - 2]!);
  if (opener === undefined || opener.char !== fence.char) return undefined;
  return pathFromLine(lines[k - 1]!, knownPaths, prose);
}

/** The path of the fenced block opened at `open`: its info string first, then the line(s) above it. */
export function pathOfFence(ctx: ScanContext, open: number, info: string, prose = true): string | undefined {
  return pathFromInfo(info, ctx.knownPaths) ?? pathAbove(ctx, open, prose);
}

/**
 * The path of a SEARCH/REPLACE block whose head is at `head`: the nearest non-blank line above it, or, when that
 * line opens a fence, the fence's info string or the line above the fence.
 */
export function pathAboveHead(ctx: ScanContext, head: number): string | undefined {
  const k = previousNonBlank(ctx.lines, head - 1);
  if (k < 0) return undefined;
  const fence = parseFenceLine(ctx.lines[k]!);
  if (fence === undefined) return pathFromLine(ctx.lines[k]!, ctx.knownPaths);
  return pathOfFence(ctx, k, fence.info);
}
