/**
 * The version of a file a reply started from, as a LineDoc (line-doc.ts) sees it: its parsed lines, its text (so
 * untouched stretches serialise as slices), its line-ending counts and, from the second lookup on, a line index.
 */
import { LineIndex, batchPositions, scanPositions } from "./line-index.js";
import type { Eol, TextFile } from "./text.js";

const BOM = "\uFEFF";

export interface EolCounts {
  readonly crlf: number;
  readonly lf: number;
}

export function countEols(eols: readonly Eol[], from: number, to: number): EolCounts {
  let crlf = 0;
  let lf = 0;
  for (let i = from; i < to; i++) {
    if (eols[i] === "\r\n") crlf++;
    else if (eols[i] === "\n") lf++;
  }
  return { crlf, lf };
}

export class LineOrigin {
  private index: LineIndex | undefined;
  private lookups = 0;
  /** Lines the caller said it will look for, found together on the first lookup of any of them. */
  private expected: ReadonlySet<string> | undefined;
  private batch: Map<string, number[]> | undefined;
  private counts: EolCounts | undefined;
  private trailingCr: boolean | undefined;
  /** The text has no CR: every line but a last one without ending ends with one LF. */
  private readonly lfOnly: boolean;

  constructor(
    readonly file: TextFile,
    private readonly text: string | undefined,
  ) {
    this.lfOnly = text !== undefined && !text.includes("\r");
  }

  /** Whether a line's text may end with a CR (`\r\r\n`, or a last line ending in `\r`); unknown counts as yes. */
  mayHoldTrailingCr(): boolean {
    return (this.trailingCr ??= this.text === undefined || this.text.includes("\r\r") || this.text.endsWith("\r"));
  }

  /** Announces the lines that will be looked for (see batchPositions); others are still found, more slowly. */
  expect(lines: Iterable<string>): void {
    this.expected = new Set([...(this.expected ?? []), ...lines]);
    this.batch = undefined;
  }

  /**
   * Ascending origin lines equal to `line`. Expected lines come from one batch pass; for the others, the first
   * lookup scans and an index pays off from the second on.
   */
  positions(line: string): readonly number[] {
    if (this.expected?.has(line) === true) {
      this.batch ??= batchPositions(this.file.lines, this.expected);
      return this.batch.get(line)!;
    }
    if (this.index === undefined && this.lookups++ === 0) return scanPositions(this.file.lines, line);
    return (this.index ??= new LineIndex(this.file.lines)).positions(line);
  }

  eolCounts(): EolCounts {
    if (this.counts !== undefined) return this.counts;
    const { lines, eols } = this.file;
    const missing = eols.length > 0 && eols[eols.length - 1] === "" ? 1 : 0;
    return (this.counts = this.lfOnly ? { crlf: 0, lf: lines.length - missing } : countEols(eols, 0, eols.length));
  }

  /**
   * The text offsets of the given ascending origin lines (a line's offset is where it starts; `lines.length` is
   * the end), or undefined when only the parsed form is known. One pass up to the last one asked for.
   */
  offsets(boundaries: readonly number[]): number[] | undefined {
    if (this.text === undefined) return undefined;
    const { bom, lines, eols } = this.file;
    const found: number[] = [];
    let at = bom ? BOM.length : 0;
    let line = 0;
    for (const boundary of boundaries) {
      if (boundary === lines.length) {
        found.push(this.text.length);
        continue;
      }
      if (this.lfOnly) for (; line < boundary; line++) at += lines[line]!.length + 1;
      else for (; line < boundary; line++) at += lines[line]!.length + eols[line]!.length;
      found.push(at);
    }
    return found;
  }

  slice(start: number, end: number): string {
    return this.text!.slice(start, end);
  }
}
