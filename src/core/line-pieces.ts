/**
 * The mutable list of pieces behind a LineDoc (line-doc.ts): each piece is lines [from, to) of one array pair,
 * either the origin's or a run an edit wrote. Replacing a range of lines touches O(pieces) entries and allocates
 * only the pieces it cuts, so fifty edits of one large file neither copy the file nor each other's lists.
 */
import type { Eol } from "./text.js";

export interface Piece {
  readonly lines: readonly string[];
  readonly eols: readonly Eol[];
  readonly from: number;
  readonly to: number;
  /** The lines are the origin's, so its index and text apply. */
  readonly origin: boolean;
}

const size = (piece: Piece): number => piece.to - piece.from;

export class PieceList {
  /** Where each piece starts, in lines. */
  private readonly starts: number[] = [];
  private total = 0;

  constructor(private readonly list: Piece[]) {
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
    return new PieceList([...this.list]);
  }

  /** The index of the piece holding `line` (0 <= line < length). */
  at(line: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= line) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The piece holding lines [start, end) whole, or undefined when they span pieces. */
  within(start: number, end: number): { readonly piece: Piece; readonly offset: number } | undefined {
    const p = this.at(start);
    const piece = this.list[p]!;
    const offset = piece.from - this.starts[p]!;
    return end + offset <= piece.to ? { piece, offset } : undefined;
  }

  line(i: number): string {
    const p = this.at(i);
    const piece = this.list[p]!;
    return piece.lines[piece.from + i - this.starts[p]!]!;
  }

  eol(i: number): Eol {
    const p = this.at(i);
    const piece = this.list[p]!;
    return piece.eols[piece.from + i - this.starts[p]!]!;
  }

  /** Replaces lines [start, end) by the pieces `insert`; returns the pieces that held the replaced lines. */
  replace(start: number, end: number, insert: readonly Piece[]): Piece[] {
    const first = this.cutAt(start);
    const last = this.cutAt(end);
    const removed = this.list.splice(first, last - first, ...insert);
    this.restart(first);
    return removed;
  }

  /** Makes a piece start exactly at `line` (splitting the one across it) and returns its index. */
  private cutAt(line: number): number {
    if (line >= this.total) return this.list.length;
    const p = this.at(line);
    const offset = line - this.starts[p]!;
    if (offset === 0) return p;
    const { lines, eols, from, to, origin } = this.list[p]!;
    const cut = from + offset;
    this.list.splice(p, 1, { lines, eols, from, to: cut, origin }, { lines, eols, from: cut, to, origin });
    this.starts.splice(p + 1, 0, line);
    return p + 1;
  }

  /** Recomputes the starts of the pieces from index `p` on. */
  private restart(p: number): void {
    this.starts.length = p;
    let at = p === 0 ? 0 : this.starts[p - 1]! + size(this.list[p - 1]!);
    for (let k = p; k < this.list.length; k++) {
      this.starts.push(at);
      at += size(this.list[k]!);
    }
    this.total = at;
  }
}
