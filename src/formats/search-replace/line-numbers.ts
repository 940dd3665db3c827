/**
 * Line-number prefixes (`12 | code`): how Roo Code shows files to its model and how patchsmith's own messages
 * quote real lines, so models copy them into SEARCH. They are stripped only when every line of the side carries
 * one and, in SEARCH, the numbers run one by one: then they are a quotation's margin, not the file's text. The
 * first SEARCH number is where the lines were quoted from (a position hint).
 */
const PREFIX = /^\s*(\d{1,9}) \|(?: |$)/;

export interface Unnumbered {
  readonly lines: string[];
  /** The first line's number. */
  readonly firstLine: number;
}

function strip(lines: readonly string[], consecutive: boolean): Unnumbered | undefined {
  if (lines.length === 0) return undefined;
  const numbers: number[] = [];
  const texts: string[] = [];
  for (const line of lines) {
    const match = PREFIX.exec(line);
    if (match === null) return undefined;
    numbers.push(Number(match[1]));
    texts.push(line.slice(match[0].length));
  }
  if (consecutive && numbers.some((n, i) => i > 0 && n !== numbers[i - 1]! + 1)) return undefined;
  return { lines: texts, firstLine: numbers[0]! };
}

/** SEARCH and REPLACE without their margins: SEARCH's when numbered in order, REPLACE's when SEARCH had one. */
export function withoutLineNumbers(
  search: readonly string[],
  replace: readonly string[],
): { readonly search: string[]; readonly replace: string[]; readonly firstLine?: number } {
  const numbered = strip(search, true);
  if (numbered === undefined) return { search: [...search], replace: [...replace] };
  const replaced = strip(replace, false);
  return { search: numbered.lines, replace: replaced?.lines ?? [...replace], firstLine: numbered.firstLine };
}
