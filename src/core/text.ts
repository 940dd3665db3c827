/**
 * A file as lines with their own line endings, so that every edit can keep the file's conventions byte for byte:
 * per-line CRLF/LF, the BOM, and whether the last line ends with a newline.
 */

export type Eol = "\n" | "\r\n" | "";

export interface TextFile {
  /** The file started with U+FEFF. The BOM is metadata: it is never part of line 1's text. */
  readonly bom: boolean;
  /** Line contents without their ending. An empty file has no lines. */
  readonly lines: readonly string[];
  /** The ending of each line; only the last may be "" (no final newline). Same length as `lines`. */
  readonly eols: readonly Eol[];
}

const BOM = "\uFEFF";

/** Splits on `\n` only: a lone `\r` inside a line is content, as git and jsdiff treat it. */
export function parseText(content: string): TextFile {
  const bom = content.startsWith(BOM);
  const body = bom ? content.slice(1) : content;
  if (body === "") return { bom, lines: [], eols: [] };
  // The engine's split is native and much faster than a hand-written scan on 100,000-line files.
  const lines = body.split("\n");
  const last = lines.length - 1;
  const eols = new Array<Eol>(lines.length).fill("\n");
  // Most files have no CR at all: then every ending is LF and no line needs looking at.
  if (body.includes("\r")) {
    for (let i = 0; i < last; i++) {
      const line = lines[i]!;
      if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) {
        lines[i] = line.slice(0, -1);
        eols[i] = "\r\n";
      }
    }
  }
  // Text ending with "\n" splits into a final empty piece: that is the final newline, not a line.
  if (lines[last] === "") {
    lines.pop();
    eols.pop();
  } else {
    eols[last] = "";
  }
  return { bom, lines, eols };
}

export function serializeText(file: TextFile): string {
  const { lines, eols } = file;
  const n = lines.length;
  if (n === 0) return file.bom ? BOM : "";
  // Fast path: one ending style for every line but the last; a native join is far cheaper than concatenation.
  const sep = eols[0]!;
  let uniform = sep !== "";
  for (let i = 1; uniform && i < n - 1; i++) uniform = eols[i] === sep;
  if (uniform) return (file.bom ? BOM : "") + lines.join(sep) + eols[n - 1]!;
  const parts = new Array<string>(2 * n + 1);
  parts[0] = file.bom ? BOM : "";
  for (let i = 0; i < n; i++) {
    parts[2 * i + 1] = lines[i]!;
    parts[2 * i + 2] = eols[i]!;
  }
  return parts.join("");
}

/** The ending most lines use; ties go to the first line's ending; LF for files without any. */
export function dominantEol(file: TextFile): "\n" | "\r\n" {
  let crlf = 0;
  let lf = 0;
  for (const eol of file.eols) {
    if (eol === "\r\n") crlf++;
    else if (eol === "\n") lf++;
  }
  if (crlf === lf) return file.eols[0] === "\r\n" ? "\r\n" : "\n";
  return crlf > lf ? "\r\n" : "\n";
}

/** dominantEol of a text without parsing it into lines (counts CRLF and bare LF endings in one scan). */
export function dominantEolOfText(content: string): "\n" | "\r\n" {
  let crlf = 0;
  let lf = 0;
  let first: "\n" | "\r\n" | undefined;
  for (let at = content.indexOf("\n"); at !== -1; at = content.indexOf("\n", at + 1)) {
    const ending = at > 0 && content.charCodeAt(at - 1) === 13 ? "\r\n" : "\n";
    first ??= ending;
    if (ending === "\r\n") crlf++;
    else lf++;
  }
  if (crlf === lf) return first === "\r\n" ? "\r\n" : "\n";
  return crlf > lf ? "\r\n" : "\n";
}

export function hasFinalNewline(file: TextFile): boolean {
  const last = file.eols[file.eols.length - 1];
  return last === undefined || last !== "";
}

/** Splits text the model wrote (a block's content) into lines, dropping `\r` and the final newline. */
export function splitModelLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** A heuristic but cheap binary test: NUL bytes or invalid UTF-8 (U+FFFD after decoding) mean "not text". */
export function looksBinary(bytes: Uint8Array): boolean {
  const probe = bytes.subarray(0, Math.min(bytes.length, 8000));
  if (probe.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}
