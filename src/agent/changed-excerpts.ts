/**
 * What the model is shown of a file it changed, after the tests ran (pure): the whole file when it is small enough,
 * else the lines around each change. The conversation keeps every prompt, so a 4,000-line file sent whole after
 * every attempt costs its tokens again on every later call; the first prompt's context shows such a file as an
 * excerpt too (context/select.ts).
 */
import { structuredPatch } from "diff";

/** A changed file up to this size is shown whole (about 10,000 tokens). */
export const WHOLE_CHANGED_FILE_CHARS = 40_000;
/** Lines shown on each side of a change, as the first prompt's excerpts show around the lines that matter. */
const MARGIN = 40;

export interface Excerpt {
  /** 1-based, inclusive. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * "whole" when `after` is short enough to show whole or new (`before` null), else its excerpts around its changes
 * from `before`, merged where they touch (none when it did not change), lines counted as an editor numbers them.
 */
export function changedExcerpts(before: string | null, after: string): "whole" | Excerpt[] {
  if (after.length <= WHOLE_CHANGED_FILE_CHARS || before === null) return "whole";
  const lines = after.replace(/\n$/, "").split("\n");
  const patch = structuredPatch("before", "after", before, after, "", "", { context: 0 });
  const ranges: { start: number; end: number }[] = [];
  for (const hunk of patch.hunks) {
    // A pure removal has no lines of its own after the change: the lines around where they were.
    const start = Math.max(1, hunk.newStart - MARGIN);
    const end = Math.min(lines.length, hunk.newStart + Math.max(hunk.newLines, 1) - 1 + MARGIN);
    const last = ranges[ranges.length - 1];
    if (last !== undefined && start <= last.end + 1) last.end = Math.max(last.end, end);
    else ranges.push({ start, end });
  }
  return ranges.map(({ start, end }) => ({ start, end, text: lines.slice(start - 1, end).join("\n") }));
}
