/**
 * A file's lines while one reply edits it: pieces of the version the reply started from (the origin) and runs of
 * lines the edits wrote (pieces.ts). A splice replaces a range of lines in O(pieces) instead of copying the
 * file; the origin is its text with a table of line breaks (origin.ts), so an untouched stretch serialises as
 * one slice of it, its lines are sliced out only when read, and the lines the edits look for are found in one pass.
 *
 * Every version stays readable (results show the file before and after each edit) without each keeping its own
 * piece list, which would make fifty edits allocate and retain fifty lists: the newest version owns the list, and
 * a spliced version keeps only the way back from its successor (the lines it had where the successor has new
 * ones). An old version rebuilds its list from its successor when it is read, which the planner never does.
 */
import { deriveFile } from "../file-memo.js";
import type { IndentStyle } from "../indent.js";
import { LineOrigin, countEols, type EolCounts } from "./origin.js";
import { PieceList, type Piece } from "./pieces.js";
import type { Eol, TextFile } from "../text.js";

const BOM = "\uFEFF";

/** How a version's parsed file follows from its predecessor's: lines [start, start + removed) became `lines`. */
interface Derivation {
  readonly parent: LineDoc;
  readonly start: number;
  readonly removed: number;
  readonly lines: readonly string[];
  readonly eols: readonly Eol[];
}

/** How to get a version back from its successor: its lines [start, start + count) were `removed`. */
interface WayBack {
  readonly next: LineDoc;
  readonly start: number;
  readonly count: number;
  readonly removed: readonly Piece[];
}

export class LineDoc {
  private fileMemo: TextFile | undefined;
  private textMemo: string | undefined;
  /** The piece list, while this version owns one (the newest version, or an old one that was read). */
  private owned: PieceList | undefined;
  private back: WayBack | undefined;
  private derivation: Derivation | undefined;

  private constructor(
    private readonly origin: LineOrigin,
    pieces: PieceList,
    readonly bom: boolean,
    /** Line endings added minus removed since the origin. */
    private readonly eolDelta: EolCounts,
  ) {
    this.owned = pieces;
    this.length = pieces.length;
  }

  readonly length: number;

  /** `expected`: lines `occurrences` will be asked for, found while the text's lines are read (see expect). */
  static fromText(text: string, expected?: Iterable<string>): LineDoc {
    const origin = new LineOrigin(text, expected);
    const whole: Piece[] = origin.length === 0 ? [] : [{ origin: true, from: 0, to: origin.length }];
    const doc = new LineDoc(origin, new PieceList(origin, whole), origin.bom, { crlf: 0, lf: 0 });
    doc.textMemo = text;
    return doc;
  }

  /**
   * The first `count` lines of the version the reply started from, as a file of their own (the same object on
   * every call; the whole parsed file when it is no longer).
   */
  originHead(count: number): TextFile {
    return this.origin.head(count);
  }

  /** `detectIndentKind(originHead(count).lines)`, without reading more lines than it must. */
  originIndentKind(count: number): IndentStyle["kind"] | undefined {
    return this.origin.indentKind(count);
  }

  /** This version's pieces, rebuilt from the newest version's if a later one took them over. */
  private get pieces(): PieceList {
    if (this.owned !== undefined) return this.owned;
    // Walk forward to the version that owns a list, then undo the splices back to this one on a copy.
    const path: WayBack[] = [this.back!];
    let doc = this.back!.next;
    while (doc.owned === undefined) {
      path.push(doc.back!);
      doc = doc.back!.next;
    }
    const list = doc.owned.copy();
    for (let k = path.length - 1; k >= 0; k--) {
      const back = path[k]!;
      list.replace(back.start, back.start + back.count, back.removed);
    }
    return (this.owned = list);
  }

  /**
   * Announces lines of the origin that `occurrences` will be asked for (the planner knows each edit's probe line
   * before it plans any): they are then all found in one pass over the origin.
   */
  expect(lines: Iterable<string>): void {
    this.origin.expect(lines);
  }

  /** The text of 0-based line `i` (0 <= i < length), without its ending. */
  line(i: number): string {
    return this.pieces.line(i);
  }

  eol(i: number): Eol {
    return this.pieces.eol(i);
  }

  /** Same rule as dominantEol (text.ts): the ending most lines use, ties to the first line's, LF when none. */
  dominantEol(): "\n" | "\r\n" {
    const base = this.origin.eolCounts();
    const crlf = base.crlf + this.eolDelta.crlf;
    const lf = base.lf + this.eolDelta.lf;
    if (crlf === lf) return this.length > 0 && this.eol(0) === "\r\n" ? "\r\n" : "\n";
    return crlf > lf ? "\r\n" : "\n";
  }

  /** Some line of this version ends with CRLF. */
  hasCrlf(): boolean {
    return this.origin.eolCounts().crlf + this.eolDelta.crlf > 0;
  }

  /**
   * Some line's text may end with a CR of its own (`\r\r\n`, or a last line ending in `\r`). Only origin lines can:
   * edits write their lines without a trailing CR.
   */
  mayHoldTrailingCr(): boolean {
    return this.origin.mayHoldTrailingCr();
  }

  /**
   * Ascending numbers of the lines whose text ends with whitespace (`endsWithWhitespace` decides for a line: the
   * matcher's rule, passed in so that the document stays free of it).
   */
  spacedLines(endsWithWhitespace: (line: string) => boolean): number[] {
    return this.pieces.linesWhere(this.origin.spacedLines(endsWithWhitespace), endsWithWhitespace);
  }

  hasFinalNewline(): boolean {
    return this.length === 0 || this.eol(this.length - 1) !== "";
  }

  /** Ascending line numbers whose text (ending excluded) equals `text`. */
  occurrences(text: string): number[] {
    return this.pieces.occurrences(text, this.origin.positions(text));
  }

  /**
   * The version with lines [start, end) replaced by `lines` (with their `eols`). This version stays readable, but
   * hands its piece list to the new one: read it again and it rebuilds its own.
   */
  splice(start: number, end: number, lines: readonly string[], eols: readonly Eol[]): LineDoc {
    const list = this.pieces;
    // Lines an edit rewrites as they were (a hunk's context) keep their pieces: the run holds only what changed,
    // so untouched lines still serialise as slices of the origin and are found through its index.
    let head = 0;
    const most = Math.min(end - start, lines.length);
    while (head < most && list.line(start + head) === lines[head] && list.eol(start + head) === eols[head]) head++;
    let tail = 0;
    while (
      tail < most - head &&
      list.line(end - 1 - tail) === lines[lines.length - 1 - tail] &&
      list.eol(end - 1 - tail) === eols[lines.length - 1 - tail]
    )
      tail++;
    const from = head;
    const to = lines.length - tail;
    const run: Piece[] = from < to ? [{ origin: false, from, to, lines, eols }] : [];
    const removed = list.replace(start + head, end - tail, run);
    // The removed pieces hold exactly the replaced lines: their endings leave the counts.
    const added = countEols(eols, from, to);
    let crlf = this.eolDelta.crlf + added.crlf;
    let lf = this.eolDelta.lf + added.lf;
    for (const piece of removed) {
      const gone = piece.origin
        ? this.origin.eolCountsIn(piece.from, piece.to)
        : countEols(piece.eols, piece.from, piece.to);
      crlf -= gone.crlf;
      lf -= gone.lf;
    }
    const next = new LineDoc(this.origin, list, this.bom, { crlf, lf });
    if (this.fileMemo !== undefined) {
      const first = start + head;
      next.derivation = {
        parent: this,
        start: first,
        removed: end - tail - first,
        lines: lines.slice(from, to),
        eols: eols.slice(from, to),
      };
    }
    this.owned = undefined;
    this.back = { next, start: start + head, count: to - from, removed };
    return next;
  }

  /** This version as a parsed file (built once, on first use). */
  get file(): TextFile {
    if (this.fileMemo !== undefined) return this.fileMemo;
    const derived = this.derivation;
    const parentFile = derived?.parent.fileMemo;
    if (derived !== undefined && parentFile !== undefined) {
      // The predecessor's parsed file and its line keys, with the edit spliced in; the predecessor lets go of its
      // own (the planner does not read an old version again), so fifty edits do not keep fifty copies.
      // The origin's parsed file is the origin's too (it reads its lines from it): that one is copied.
      const reuse = parentFile !== this.origin.parsed;
      this.fileMemo = deriveFile(parentFile, derived.start, derived.removed, derived.lines, derived.eols, reuse);
      derived.parent.fileMemo = undefined;
      this.derivation = undefined;
      return this.fileMemo;
    }
    this.derivation = undefined;
    const pieces = this.pieces.pieces;
    // The version the reply started from is the origin's own parsed file.
    if (pieces.length === 1 && pieces[0]!.origin && this.length === this.origin.length) {
      return (this.fileMemo = this.origin.file);
    }
    if (pieces.length === 0 && this.origin.length === 0) return (this.fileMemo = this.origin.file);
    const lines: string[] = [];
    const eols: Eol[] = [];
    for (const piece of pieces) {
      for (let i = piece.from; i < piece.to; i++) {
        lines.push(piece.origin ? this.origin.line(i) : piece.lines[i]!);
        eols.push(piece.origin ? this.origin.eol(i) : piece.eols[i]!);
      }
    }
    return (this.fileMemo = { bom: this.bom, lines, eols });
  }

  /** This version's text (built once, on first use). */
  get text(): string {
    if (this.textMemo !== undefined) return this.textMemo;
    // Untouched stretches are slices of the origin's text, written lines go in as they are (text, then ending):
    // one join copies everything once into a flat string.
    const parts: string[] = [this.bom ? BOM : ""];
    for (const piece of this.pieces.pieces) {
      if (piece.origin) {
        parts.push(this.origin.slice(piece.from, piece.to));
        continue;
      }
      for (let i = piece.from; i < piece.to; i++) parts.push(piece.lines[i]!, piece.eols[i]!);
    }
    return (this.textMemo = parts.join(""));
  }
}
