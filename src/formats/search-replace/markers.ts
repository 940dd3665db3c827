/** SEARCH/REPLACE markers, tolerant of the lengths (5-9) and the stray `>` models produce. */

// Hoisted: the registry asks `isHead` about every line of a reply, the parser the others about every block line.
const HEAD = /^\s*<{5,9} ?SEARCH>?\s*$/;
const DIVIDER = /^\s*={5,9}\s*$/;
const END = /^\s*>{5,9} ?REPLACE\s*$/;
const START_LINE = /^\s*:start_line:\s*(\d{1,9})\s*$/;
const END_LINE = /^\s*:end_line:\s*\d{1,9}\s*$/;
const DASH_SEPARATOR = /^\s*-{5,9}\s*$/;

export const isHead = (line: string): boolean => HEAD.test(line);
export const isDivider = (line: string): boolean => DIVIDER.test(line);
export const isEnd = (line: string): boolean => END.test(line);

/** Roo-style position line right after the head: `:start_line:42`. */
export function startLineOf(line: string): number | undefined {
  const m = START_LINE.exec(line);
  if (!m) return undefined;
  const n = Number(m[1]);
  return n >= 1 ? n : undefined;
}

export const isEndLine = (line: string): boolean => END_LINE.test(line);

/** Roo's `-------` separator between the position lines and the SEARCH text. */
export const isDashSeparator = (line: string): boolean => DASH_SEPARATOR.test(line);
