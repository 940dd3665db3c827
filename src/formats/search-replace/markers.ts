/** SEARCH/REPLACE markers, tolerant of the lengths (5-9) and the stray `>` models produce. */

export const isHead = (line: string): boolean => /^\s*<{5,9} ?SEARCH>?\s*$/.test(line);
export const isDivider = (line: string): boolean => /^\s*={5,9}\s*$/.test(line);
export const isEnd = (line: string): boolean => /^\s*>{5,9} ?REPLACE\s*$/.test(line);

/** Roo-style position line right after the head: `:start_line:42`. */
export function startLineOf(line: string): number | undefined {
  const m = /^\s*:start_line:\s*(\d{1,9})\s*$/.exec(line);
  if (!m) return undefined;
  const n = Number(m[1]);
  return n >= 1 ? n : undefined;
}

export const isEndLine = (line: string): boolean => /^\s*:end_line:\s*\d{1,9}\s*$/.test(line);

/** Roo's `-------` separator between the position lines and the SEARCH text. */
export const isDashSeparator = (line: string): boolean => /^\s*-{5,9}\s*$/.test(line);
