/**
 * SEARCH/REPLACE markers, tolerant of the lengths (5-9) and the stray `>` models produce, in Aider's form
 * (`<<<<<<< SEARCH` … `>>>>>>> REPLACE`) and Cline's (`------- SEARCH` … `+++++++ REPLACE`, three dashes or pluses
 * at least, then one space, as Cline's own parser reads them).
 */

// Hoisted: the registry asks `isHead` about every line of a reply, the parser the others about every block line.
const HEAD = /^\s*(?:<{5,9} ?SEARCH>?|-{3,} SEARCH>?)\s*$/;
const DIVIDER = /^\s*={5,9}\s*$/;
/** Cline's divider, as its parser reads it: three or more, nothing else on the line. */
const CLINE_DIVIDER = /^={3,}$/;
const END = /^\s*(?:>{5,9} ?REPLACE|\+{3,} REPLACE>?)\s*$/;
const CLINE_HEAD = /^\s*-/;
/** Lines that look like a marker and are not one: runs of marker characters before SEARCH or REPLACE. */
const NEAR_HEAD = /^\s*[<>=+-]{2,}\s*SEARCH\b/;
const NEAR_END = /^\s*[<>=+-]{2,}\s*REPLACE\b/;
const START_LINE = /^\s*:start_line:\s*(\d{1,9})\s*$/;
const END_LINE = /^\s*:end_line:\s*\d{1,9}\s*$/;
const DASH_SEPARATOR = /^\s*-{5,9}\s*$/;

export const isHead = (line: string): boolean => HEAD.test(line);
/** A divider of the block that `head` opens: each form by its own dialect's rule. */
export const isDividerOf = (head: string, line: string): boolean =>
  CLINE_HEAD.test(head) ? CLINE_DIVIDER.test(line) : DIVIDER.test(line);
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

/** The end marker of the block a head opens, as the model's own dialect writes it (for messages). */
export const endMarkerFor = (head: string): string => (CLINE_HEAD.test(head) ? "+++++++ REPLACE" : ">>>>>>> REPLACE");

/**
 * What is wrong with a line that looks like a SEARCH or REPLACE marker but is none (`-- SEARCH`, `-------SEARCH`,
 * `<<-- SEARCH`), or with a valid end marker that no head opened: such a reply meant a block, and reading past it
 * would silently drop the edit. Undefined for any other line.
 */
export function strayMarker(line: string): string | undefined {
  if (isHead(line)) return undefined;
  if (NEAR_HEAD.test(line)) {
    return "looks like a SEARCH marker but is not one: write '<<<<<<< SEARCH' (or '------- SEARCH') alone on the line";
  }
  if (isEnd(line)) return "ends a SEARCH/REPLACE block that no SEARCH marker opened";
  if (NEAR_END.test(line)) {
    return "looks like a REPLACE marker but is not one: write '>>>>>>> REPLACE' (or '+++++++ REPLACE') alone on the line";
  }
  return undefined;
}
