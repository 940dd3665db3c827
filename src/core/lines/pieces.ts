/**
 * The mutable list of pieces behind a LineDoc (doc.ts): each piece is lines [from, to) of one array pair,
 * either the origin's or a run an edit wrote. Replacing a range of lines touches O(pieces) entries and allocates
 * only the pieces it cuts, so fifty edits of one large file neither copy the file nor each other's lists.
 *
 * Finding a line must not walk every piece either: origin lines are mapped to the pieces that still hold them by
 * a binary search (origin pieces keep the origin's order), and the lines edits wrote are counted by text, so a
 * lookup visits the runs only when one of them holds the line.
 */
import type { Eol } from "../text.js";

/** Where origin pieces read their lines (origin.ts). */
export interface LineSource {
  line(i: number): string;
  eol(i: number): Eol;
}

/** Lines [from, to) of the origin, read through its source. */
export interface OriginPiece {
  readonly origin: true;
  readonly from: number;
  readonly to: number;
}

/** Lines [from, to) of a run of lines an edit wrote. */
export interface RunPiece {
  readonly origin: false;
  readonly from: number;
  readonly to: number;
  readonly lines: readonly string[];
  readonly eols: readonly Eol[];
}

export type Piece = OriginPiece | RunPiece;

const size = (piece: Piece): number => piece.to - piece.from;

/** A piece cut in two at `cut` (written out: a spread would give the halves a shape of their own). */
function halves(piece: Piece, cut: number): [Piece, Piece] {
  const { from, to } = piece;
  if (piece.origin)
    return [
      { origin: true, from, to: cut },
      { origin: true, from: cut, to },
    ];
  const { lines, eols } = piece;
  return [
    { origin: false, from, to: cut, lines, eols },
    { origin: false, from: cut, to, lines, eols },
  ];
}

export class PieceList {
  /** Where each piece starts, in lines. */
  private readonly starts: number[] = [];
  /** Indexes of the origin pieces, in order (their `from` ascends). */
  private readonly originPieces: number[] = [];
  /** How many times each text occurs in the run pieces. */
  private readonly runLines: Map<string, number>;
  private total = 0;
  /** The piece `at` found last. */
  private lastAt = 0;

  constructor(
    private readonly source: LineSource,
    private readonly list: Piece[],
    runLines?: ReadonlyMap<string, number>,
  ) {
    if (runLines === undefined) {
      this.runLines = new Map();
      for (const piece of list) if (!piece.origin) this.count(piece, 1);
    } else {
      this.runLines = new Map(runLines);
    }
    this.restart(0);
  }

  get length(): number {
    return this.total;
  }

  get pieces(): readonly Piece[] {
    return this.list;
  }

  startOf(p: number): number {
    return this.starts[p]!;
  }

  copy(): PieceList {
    return new PieceList(this.source, [...this.list], this.runLines);
  }

  /** The index of the piece holding `line` (0 <= line < length). */
  at(line: number): number {
    // Lines are mostly read in runs (a window, then its neighbours): try the piece of the last answer first.
    const last = this.lastAt;
    if (last < this.starts.length && this.starts[last]! <= line && line < this.starts[last]! + size(this.list[last]!))
      return last;
    return (this.lastAt = this.search(line));
  }

  private search(line: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= line) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  line(i: number): string {
    const p = this.at(i);
    const piece = this.list[p]!;
    const k = piece.from + i - this.starts[p]!;
    return piece.origin ? this.source.line(k) : piece.lines[k]!;
  }

  eol(i: number): Eol {
    const p = this.at(i);
    const piece = this.list[p]!;
    const k = piece.from + i - this.starts[p]!;
    return piece.origin ? this.source.eol(k) : piece.eols[k]!;
  }

  /**
   * Ascending line numbers whose text equals `text`, given the ascending origin lines that do (`inOrigin`): each
   * is kept where an origin piece still holds it, and the runs are searched only when they hold the text.
   */
  occurrences(text: string, inOrigin: readonly number[]): number[] {
    return this.linesWhere(inOrigin, this.runLines.has(text) ? (line) => line === text : undefined);
  }

  /**
   * Ascending line numbers of the origin lines `inOrigin` (ascending) that an origin piece still holds, and of the
   * lines of runs that pass `inRuns` (none without it).
   */
  linesWhere(inOrigin: readonly number[], inRuns?: (line: string) => boolean): number[] {
    const found: number[] = [];
    for (const line of inOrigin) {
      const p = this.originPieceOf(line);
      if (p !== undefined) found.push(this.starts[p]! + line - this.list[p]!.from);
    }
    if (inRuns !== undefined) {
      const before = found.length;
      for (let p = 0; p < this.list.length; p++) {
        const piece = this.list[p]!;
        if (piece.origin) continue;
        for (let i = piece.from; i < piece.to; i++)
          if (inRuns(piece.lines[i]!)) found.push(this.starts[p]! + i - piece.from);
      }
      if (found.length > before) found.sort((a, b) => a - b);
    }
    return found;
  }

  /** The index of the origin piece holding origin line `line`, undefined when an edit replaced it. */
  private originPieceOf(line: number): number | undefined {
    let lo = 0;
    let hi = this.originPieces.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const p = this.originPieces[mid]!;
      const piece = this.list[p]!;
      if (line < piece.from) hi = mid - 1;
      else if (line >= piece.to) lo = mid + 1;
      else return p;
    }
    return undefined;
  }

  /** Replaces lines [start, end) by the pieces `insert`; returns the pieces that held the replaced lines. */
  replace(start: number, end: number, insert: readonly Piece[]): Piece[] {
    const first = this.cutAt(start);
    const last = this.cutAt(end);
    const removed = this.list.splice(first, last - first, ...insert);
    for (const piece of removed) if (!piece.origin) this.count(piece, -1);
    for (const piece of insert) if (!piece.origin) this.count(piece, 1);
    this.restart(first);
    return removed;
  }

  private count(piece: RunPiece, by: 1 | -1): void {
    for (let i = piece.from; i < piece.to; i++) {
      const text = piece.lines[i]!;
      const n = (this.runLines.get(text) ?? 0) + by;
      if (n === 0) this.runLines.delete(text);
      else this.runLines.set(text, n);
    }
  }

  /** Makes a piece start exactly at `line` (splitting the one across it) and returns its index. */
  private cutAt(line: number): number {
    if (line >= this.total) return this.list.length;
    const p = this.at(line);
    const offset = line - this.starts[p]!;
    if (offset === 0) return p;
    const piece = this.list[p]!;
    const cut = piece.from + offset;
    this.list.splice(p, 1, ...halves(piece, cut));
    this.starts.splice(p + 1, 0, line);
    return p + 1;
  }

  /** Recomputes the starts of the pieces from index `p` on, and the origin pieces from there. */
  private restart(p: number): void {
    this.starts.length = p;
    let at = p === 0 ? 0 : this.starts[p - 1]! + size(this.list[p - 1]!);
    for (let k = p; k < this.list.length; k++) {
      this.starts.push(at);
      at += size(this.list[k]!);
    }
    this.total = at;
    // Origin pieces before `p` keep their indexes; the rest are listed again.
    let keep = this.originPieces.length;
    while (keep > 0 && this.originPieces[keep - 1]! >= p) keep--;
    this.originPieces.length = keep;
    for (let k = p; k < this.list.length; k++) if (this.list[k]!.origin) this.originPieces.push(k);
  }
}
