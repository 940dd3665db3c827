/**
 * The exact rung on a document being edited (core/line-doc.ts) instead of a parsed file: the same windows as
 * `findWindows(exactRung.fileKeys(file), want)`, found through the document's line index rather than by a scan,
 * so that each of a reply's hunks costs its own size and not the file's. The planner tries this first; anything
 * but a single window goes to the full ladder, which repeats this rung and decides as always.
 */
import type { LineDoc } from "../core/line-doc.js";

/** The exact rung's key of a line: its text, plus the `\r` of a CRLF ending (see rungs/exact.ts). */
function keyEquals(doc: LineDoc, i: number, want: string): boolean {
  const line = doc.line(i);
  if (doc.eol(i) !== "\r\n") return line === want;
  return want.length === line.length + 1 && want.charCodeAt(line.length) === 13 && want.startsWith(line);
}

/** 0-based starts of every window whose exact keys equal `want`, in document order. */
export function exactWindows(doc: LineDoc, want: readonly string[]): number[] {
  const n = want.length;
  if (n === 0 || doc.length < n) return [];
  // The longest wanted line is usually the rarest: only windows holding it at its place are checked.
  let probe = 0;
  for (let j = 1; j < n; j++) if (want[j]!.length > want[probe]!.length) probe = j;
  const key = want[probe]!;
  // A key ending in `\r` is also the key of the same line without it on a CRLF line.
  const hits = doc.occurrences(key);
  if (key.endsWith("\r")) {
    hits.push(...doc.occurrences(key.slice(0, -1)));
    hits.sort((a, b) => a - b);
  }
  const starts: number[] = [];
  for (const hit of hits) {
    const start = hit - probe;
    if (start < 0 || start + n > doc.length) continue;
    let j = 0;
    while (j < n && keyEquals(doc, start + j, want[j]!)) j++;
    if (j === n) starts.push(start);
  }
  return starts;
}
