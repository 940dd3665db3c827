/**
 * A file's lines while one reply edits it: pieces of the version the reply started from (the origin) and runs of
 * lines the edits wrote. A splice replaces a range of lines in O(pieces) instead of copying the file, and every
 * version stays readable (results show the file before and after each edit) because versions share their arrays
 * and never change them. The origin's text is kept, so an untouched stretch is serialised as one slice of it, and
 * the origin's lines are indexed once (line-index.ts), so finding a line costs a bucket, not a scan.
 */
import { LineIndex, scanPositions } from "./line-index.js";
import { parseText, serializeText, type Eol, type TextFile } from "./text.js";

const BOM = "\uFEFF";

/** Lines [from, to) of one array pair: the origin's, or a run an edit wrote. */
interface Piece {
  readonly lines: readonly string[];
  readonly eols: readonly Eol[];
  readonly from: number;
  readonly to: number;
  /** The lines are the origin's, so its index and text apply. */
  readonly origin: boolean;
}

interface EolCounts {
  readonly crlf: number;
  readonly lf: number;
}

function countEols(eols: readonly Eol[], from: number, to: number): EolCounts {
  let crlf = 0;
  let lf = 0;
  for (let i = from; i < to; i++) {
    if (eols[i] === "\r\n") crlf++;
    else if (eols[i] === "\n") lf++;
  }
  return { crlf, lf };
}

class Origin {
  private index: LineIndex | undefined;
  private lookups = 0;
  private counts: EolCounts | undefined;
  /** The text has no CR: every line but a last one without ending ends with one LF. */
  private readonly lfOnly: boolean;

  constructor(
    readonly file: TextFile,
    private readonly text: string | undefined,
  ) {
    this.lfOnly = text !== undefined && !text.includes("\r");
  }

  /** Ascending origin lines equal to `line`. The first lookup scans; an index pays off from the second on. */
  positions(line: string): number[] {
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

export class LineDoc {
  private fileMemo: TextFile | undefined;
  private textMemo: string | undefined;
  /** Where each piece starts, in lines of this version. */
  private readonly starts: readonly number[];
  readonly length: number;

  private constructor(
    private readonly origin: Origin,
    private readonly pieces: readonly Piece[],
    readonly bom: boolean,
    /** Line endings added minus removed since the origin. */
    private readonly eolDelta: EolCounts,
  ) {
    const starts: number[] = [];
    let at = 0;
    for (const piece of pieces) {
      starts.push(at);
      at += piece.to - piece.from;
    }
    this.starts = starts;
    this.length = at;
  }

  private static of(file: TextFile, text: string | undefined): LineDoc {
    const whole: Piece[] =
      file.lines.length === 0
        ? []
        : [{ lines: file.lines, eols: file.eols, from: 0, to: file.lines.length, origin: true }];
    const doc = new LineDoc(new Origin(file, text), whole, file.bom, { crlf: 0, lf: 0 });
    doc.fileMemo = file;
    if (text !== undefined) doc.textMemo = text;
    return doc;
  }

  static fromText(text: string): LineDoc {
    return LineDoc.of(parseText(text), text);
  }

  static fromFile(file: TextFile): LineDoc {
    return LineDoc.of(file, undefined);
  }

  /** The version the reply started from, as parsed. */
  get originFile(): TextFile {
    return this.origin.file;
  }

  private pieceAt(line: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= line) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The text of 0-based line `i` (0 <= i < length), without its ending. */
  line(i: number): string {
    const k = this.pieceAt(i);
    const piece = this.pieces[k]!;
    return piece.lines[piece.from + i - this.starts[k]!]!;
  }

  eol(i: number): Eol {
    const k = this.pieceAt(i);
    const piece = this.pieces[k]!;
    return piece.eols[piece.from + i - this.starts[k]!]!;
  }

  /** Same rule as dominantEol (text.ts): the ending most lines use, ties to the first line's, LF when none. */
  dominantEol(): "\n" | "\r\n" {
    const base = this.origin.eolCounts();
    const crlf = base.crlf + this.eolDelta.crlf;
    const lf = base.lf + this.eolDelta.lf;
    if (crlf === lf) return this.length > 0 && this.eol(0) === "\r\n" ? "\r\n" : "\n";
    return crlf > lf ? "\r\n" : "\n";
  }

  hasFinalNewline(): boolean {
    return this.length === 0 || this.eol(this.length - 1) !== "";
  }

  /** Ascending line numbers whose text (ending excluded) equals `text`. */
  occurrences(text: string): number[] {
    const found: number[] = [];
    let fromOrigin: number[] | undefined;
    let k = 0;
    for (const [p, piece] of this.pieces.entries()) {
      const start = this.starts[p]! - piece.from;
      if (piece.origin) {
        // Origin pieces keep the origin's order, so one ascending walk over its positions serves them all.
        fromOrigin ??= this.origin.positions(text);
        while (k < fromOrigin.length && fromOrigin[k]! < piece.from) k++;
        for (; k < fromOrigin.length && fromOrigin[k]! < piece.to; k++) found.push(start + fromOrigin[k]!);
      } else {
        for (let i = piece.from; i < piece.to; i++) if (piece.lines[i] === text) found.push(start + i);
      }
    }
    return found;
  }

  /** A new version with lines [start, end) replaced by `lines` (with their `eols`); this one is unchanged. */
  splice(start: number, end: number, lines: readonly string[], eols: readonly Eol[]): LineDoc {
    const out: Piece[] = [];
    // Pieces wholly outside [start, end) are shared as they are; the one or two it cuts keep their outer parts.
    const keep = (piece: Piece, at: number, from: number, to: number): void => {
      const size = piece.to - piece.from;
      if (from === at && to === at + size) out.push(piece);
      else if (to > from) out.push({ ...piece, from: piece.from + from - at, to: piece.from + to - at });
    };
    for (let p = 0; p < this.pieces.length && this.starts[p]! < start; p++) {
      const at = this.starts[p]!;
      keep(this.pieces[p]!, at, at, Math.min(start, at + this.pieces[p]!.to - this.pieces[p]!.from));
    }
    if (lines.length > 0) out.push({ lines, eols, from: 0, to: lines.length, origin: false });
    for (let p = this.pieceAt(Math.max(0, end - 1)); p < this.pieces.length; p++) {
      const at = this.starts[p]!;
      const stop = at + this.pieces[p]!.to - this.pieces[p]!.from;
      if (stop > end) keep(this.pieces[p]!, at, Math.max(at, end), stop);
    }
    const removed = this.countRange(start, end);
    const added = countEols(eols, 0, eols.length);
    const delta = {
      crlf: this.eolDelta.crlf + added.crlf - removed.crlf,
      lf: this.eolDelta.lf + added.lf - removed.lf,
    };
    return new LineDoc(this.origin, out, this.bom, delta);
  }

  private countRange(start: number, end: number): EolCounts {
    let crlf = 0;
    let lf = 0;
    for (let i = start; i < end; i++) {
      const eol = this.eol(i);
      if (eol === "\r\n") crlf++;
      else if (eol === "\n") lf++;
    }
    return { crlf, lf };
  }

  /** This version as a parsed file (built once, on first use). */
  get file(): TextFile {
    if (this.fileMemo !== undefined) return this.fileMemo;
    const lines: string[] = [];
    const eols: Eol[] = [];
    for (const piece of this.pieces) {
      for (let i = piece.from; i < piece.to; i++) {
        lines.push(piece.lines[i]!);
        eols.push(piece.eols[i]!);
      }
    }
    return (this.fileMemo = { bom: this.bom, lines, eols });
  }

  /** This version's text (built once, on first use). */
  get text(): string {
    if (this.textMemo !== undefined) return this.textMemo;
    const boundaries = this.pieces.flatMap((p) => (p.origin ? [p.from, p.to] : []));
    const offsets = this.origin.offsets(boundaries);
    // Concatenation builds a rope in O(pieces); the engine flattens it once, when the text is compared or written.
    let text = this.bom ? BOM : "";
    let k = 0;
    for (const piece of this.pieces) {
      if (piece.origin && offsets !== undefined) {
        text += this.origin.slice(offsets[k]!, offsets[k + 1]!);
        k += 2;
      } else {
        text += serializeRange(piece);
      }
    }
    return (this.textMemo = text);
  }
}

function serializeRange({ lines, eols, from, to }: Piece): string {
  const whole = from === 0 && to === lines.length;
  return serializeText({
    bom: false,
    lines: whole ? lines : lines.slice(from, to),
    eols: whole ? eols : eols.slice(from, to),
  });
}
