/**
 * The version of a file a reply started from, as a LineDoc (doc.ts) sees it: its text, read as lines in
 * place (table.ts), its line-ending counts and, from the second unannounced lookup on, a line index. The
 * parsed form (arrays of lines and endings) is built only if somebody asks for the whole file.
 */
import { detectIndentKind, spaceIndentKind, type IndentStyle } from "../indent.js";
import { LineIndex, scanPositions } from "./index.js";
import { ProbeSet, batchPositions } from "./probes.js";
import { LineTable } from "./table.js";
import { parseText, type Eol, type TextFile } from "../text.js";

/** How many recently read lines are kept (a power of two). */
const RECENT_LINES = 64;

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
  private readonly table: LineTable;
  private index: LineIndex | undefined;
  private lookups = 0;
  /** Where the lines the caller said it will look for are, found in one pass. */
  private readonly expected: Map<string, number[]>;
  private counts: EolCounts | undefined;
  private trailingCr: boolean | undefined;
  private spaced: readonly number[] | undefined;
  private fileMemo: TextFile | undefined;
  private headMemo: TextFile | undefined;
  /** Lines read lately, by line number modulo RECENT_LINES (-1: none). */
  private readonly recentAt = new Int32Array(RECENT_LINES).fill(-1);
  private readonly recent = new Array<string>(RECENT_LINES);
  private kindMemo: { readonly count: number; readonly kind: IndentStyle["kind"] | undefined } | undefined;

  /** `expected`: lines that will be looked for, found by the pass that reads the text's line breaks. */
  constructor(
    readonly text: string,
    expected: Iterable<string> = [],
  ) {
    const probes = new ProbeSet(expected);
    this.table = new LineTable(text, probes.found.size > 0 ? probes : undefined);
    this.expected = probes.found;
  }

  get length(): number {
    return this.table.length;
  }

  get bom(): boolean {
    return this.table.start(0) > 0;
  }

  line(i: number): string {
    if (this.fileMemo !== undefined) return this.fileMemo.lines[i]!;
    // A window's lines are read several times (matched, paired, copied, compared): the recent ones are kept, so
    // each is sliced once and compares with its copies by identity.
    const slot = i & (RECENT_LINES - 1);
    if (this.recentAt[slot] === i) return this.recent[slot]!;
    const line = this.table.line(i);
    this.recentAt[slot] = i;
    this.recent[slot] = line;
    return line;
  }

  eol(i: number): Eol {
    return this.table.eol(i);
  }

  /** The parsed file if it was built, without building it. */
  get parsed(): TextFile | undefined {
    return this.fileMemo;
  }

  /** The whole file, parsed (built once, on first use). */
  get file(): TextFile {
    return (this.fileMemo ??= parseText(this.text));
  }

  /**
   * Its first `count` lines as a file of their own (the same object on every call): what reads only the start of a
   * file, such as the detection of its indentation style, need not parse the rest.
   */
  head(count: number): TextFile {
    if (this.length <= count) return this.file;
    if (this.headMemo?.lines.length !== count) {
      const lines: string[] = [];
      const eols: Eol[] = [];
      for (let i = 0; i < count; i++) {
        lines.push(this.line(i));
        eols.push(this.eol(i));
      }
      this.headMemo = { bom: this.bom, lines, eols };
    }
    return this.headMemo;
  }

  /**
   * `detectIndentKind(head(count).lines)`, reading no more than it must: when no line of the head starts with a
   * tab (one search of its text), the first space-indented line of code decides.
   */
  indentKind(count: number): IndentStyle["kind"] | undefined {
    if (this.kindMemo?.count !== count) {
      const end = Math.min(count, this.length);
      const kind = this.tabStartsLine(this.table.start(end))
        ? detectIndentKind(this.head(count).lines)
        : spaceIndentKind(this.lines(end));
      this.kindMemo = { count, kind };
    }
    return this.kindMemo.kind;
  }

  /** Whether a line starting before `limit` starts with a tab (tabs are rare in other files: few are looked at). */
  private tabStartsLine(limit: number): boolean {
    const first = this.table.start(0);
    for (let tab = this.text.indexOf("\t", first); tab >= 0 && tab < limit; tab = this.text.indexOf("\t", tab + 1)) {
      if (tab === first || this.text.charCodeAt(tab - 1) === 10) return true;
    }
    return false;
  }

  private *lines(end: number): Generator<string> {
    for (let i = 0; i < end; i++) yield this.line(i);
  }

  /** Whether a line's text may end with a CR (`\r\r\n`, or a last line ending in `\r`). */
  mayHoldTrailingCr(): boolean {
    return (this.trailingCr ??= this.text.includes("\r\r") || this.text.endsWith("\r"));
  }

  /** Ascending lines whose text ends with whitespace (`isTrailingSpace` says which: what trimEnd removes). */
  spacedLines(isTrailingSpace: (line: string) => boolean): readonly number[] {
    if (this.spaced === undefined) {
      const spaced: number[] = [];
      // The last character of each line, read in place: most lines end otherwise, and only the others are sliced.
      for (let i = 0; i < this.length; i++) {
        const end = this.table.end(i);
        if (end === this.table.start(i)) continue;
        const c = this.text.charCodeAt(end - 1);
        if ((c === 32 || c === 9 || c === 13 || c >= 128 || c === 11 || c === 12) && isTrailingSpace(this.line(i))) {
          spaced.push(i);
        }
      }
      this.spaced = spaced;
    }
    return this.spaced;
  }

  /** Announces more lines that will be looked for (found in one more pass); others are still found, more slowly. */
  expect(lines: Iterable<string>): void {
    const fresh = [...new Set(lines)].filter((line) => !this.expected.has(line));
    if (fresh.length === 0) return;
    for (const [line, found] of batchPositions(this.table, fresh)) this.expected.set(line, found);
  }

  /**
   * Ascending origin lines equal to `line`. Expected lines were found in advance; for the others, the first
   * lookup scans and an index pays off from the second on.
   */
  positions(line: string): readonly number[] {
    const found = this.expected.get(line);
    if (found !== undefined) return found;
    if (this.index === undefined && this.lookups++ === 0) return scanPositions(this.table, line);
    return (this.index ??= new LineIndex(this.table)).positions(line);
  }

  /** Line endings of the whole file. */
  eolCounts(): EolCounts {
    return (this.counts ??= this.table.eolCounts(0, this.length));
  }

  /** Line endings of lines [from, to). */
  eolCountsIn(from: number, to: number): EolCounts {
    return this.table.eolCounts(from, to);
  }

  /** The text of lines [from, to), endings included. */
  slice(from: number, to: number): string {
    return this.text.slice(this.table.start(from), this.table.start(to));
  }
}
