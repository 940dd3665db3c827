/**
 * A text read as lines without splitting it: where each line's newline is, found once by the engine's native
 * search. A line's text is sliced out only when somebody reads it, so a reply that edits fifty places of a
 * 10,000-line file allocates fifty windows' worth of strings, not ten thousand, and untouched stretches are
 * written out as slices of the text itself.
 *
 * Lines and endings mean what parseText (text.ts) makes of the same text: a BOM is not part of the first line, a
 * CR right before a newline belongs to the ending, a final newline ends the last line (no empty line after it),
 * and a last line without a newline keeps every character, a trailing CR included.
 */
import { sameAt } from "./index.js";
import type { ProbeSet } from "./probes.js";
import type { Eol } from "../text.js";

const BOM = "\uFEFF";

export class LineTable {
  /** Where each line's newline is; for a last line without one, the end of the text. */
  private readonly ends: Int32Array<ArrayBuffer>;
  /** Where the first line starts (after a BOM). */
  private readonly first: number;
  readonly length: number;
  /** The text has no CR: every line ends at its newline and every ending but a missing last one is LF. */
  readonly lfOnly: boolean;
  /** The last line ends with a newline (or there is no line). */
  private readonly lastTerminated: boolean;

  /** `probes`, if given, are offered every line on the way (one pass finds the breaks and the announced lines). */
  constructor(
    readonly text: string,
    probes?: ProbeSet,
  ) {
    this.first = text.startsWith(BOM) ? BOM.length : 0;
    const lfOnly = !text.includes("\r");
    this.lfOnly = lfOnly;
    let ends = new Int32Array(Math.max(16, text.length >> 5));
    let n = 0;
    let at = this.first;
    for (;;) {
      const newline = text.indexOf("\n", at);
      if (newline < 0) break;
      if (n === ends.length) ends = grow(ends);
      ends[n] = newline;
      if (probes !== undefined) {
        const end = lfOnly || newline === at || text.charCodeAt(newline - 1) !== 13 ? newline : newline - 1;
        const length = end - at;
        if (length <= probes.longest && probes.lengths[length] !== 0) probes.offer(text, at, length, n);
      }
      n++;
      at = newline + 1;
    }
    this.lastTerminated = at === text.length;
    if (!this.lastTerminated) {
      if (n === ends.length) ends = grow(ends);
      ends[n] = text.length;
      // A last line without a newline keeps every character, a trailing CR included.
      const length = text.length - at;
      if (probes !== undefined && length <= probes.longest && probes.lengths[length] !== 0) {
        probes.offer(text, at, length, n);
      }
      n++;
    }
    this.ends = ends;
    this.length = n;
  }

  /** Where line `i` starts (0 <= i <= length; `length` gives the end of the text). */
  start(i: number): number {
    if (i === 0) return this.first;
    return i === this.length ? this.text.length : this.ends[i - 1]! + 1;
  }

  /** Where line `i`'s text ends: before its CR and newline, if it has them. */
  end(i: number): number {
    const end = this.ends[i]!;
    if (this.lfOnly || !this.terminated(i)) return end;
    return end > this.start(i) && this.text.charCodeAt(end - 1) === 13 ? end - 1 : end;
  }

  private terminated(i: number): boolean {
    return i < this.length - 1 || this.lastTerminated;
  }

  line(i: number): string {
    return this.text.slice(this.start(i), this.end(i));
  }

  eol(i: number): Eol {
    if (!this.terminated(i)) return "";
    return this.lfOnly || this.end(i) === this.ends[i] ? "\n" : "\r\n";
  }

  /** Whether line `i`'s text equals `text` (a line of another length is never sliced out). */
  equals(i: number, text: string): boolean {
    const start = this.start(i);
    return this.end(i) - start === text.length && sameAt(this.text, start, text);
  }

  /** Line endings of lines [from, to). */
  eolCounts(from: number, to: number): { crlf: number; lf: number } {
    if (this.lfOnly) {
      const unterminated = to === this.length && to > from && !this.lastTerminated ? 1 : 0;
      return { crlf: 0, lf: to - from - unterminated };
    }
    let crlf = 0;
    let lf = 0;
    for (let i = from; i < to; i++) {
      const eol = this.eol(i);
      if (eol === "\r\n") crlf++;
      else if (eol === "\n") lf++;
    }
    return { crlf, lf };
  }
}

function grow(ends: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(ends.length * 2);
  bigger.set(ends);
  return bigger;
}
