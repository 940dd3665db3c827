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
  const lines: string[] = [];
  const eols: Eol[] = [];
  let start = 0;
  while (start < body.length) {
    const nl = body.indexOf("\n", start);
    if (nl === -1) {
      lines.push(body.slice(start));
      eols.push("");
      break;
    }
    const crlf = nl > start && body.charCodeAt(nl - 1) === 13;
    lines.push(body.slice(start, crlf ? nl - 1 : nl));
    eols.push(crlf ? "\r\n" : "\n");
    start = nl + 1;
  }
  return { bom, lines, eols };
}

export function serializeText(file: TextFile): string {
  let out = file.bom ? BOM : "";
  for (let i = 0; i < file.lines.length; i++) out += file.lines[i]! + file.eols[i]!;
  return out;
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
