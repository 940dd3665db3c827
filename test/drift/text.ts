/**
 * Text helpers of the harness, written independently of src/core so that the oracle does not share the engine's
 * mistakes: a file as lines plus conventions, indentation units, and whole-line window search.
 */

export interface FileText {
  readonly bom: boolean;
  /** Lines without their ending. */
  readonly lines: readonly string[];
  readonly eol: "\n" | "\r\n";
  readonly finalNewline: boolean;
}

/** Splits a file whose line endings are uniform (the harness only makes such files). */
export function splitFile(content: string): FileText {
  const bom = content.startsWith("\uFEFF");
  const body = bom ? content.slice(1) : content;
  const eol = body.includes("\r\n") ? "\r\n" : "\n";
  const parts = body.split(eol);
  const finalNewline = parts[parts.length - 1] === "";
  if (finalNewline) parts.pop();
  return { bom, lines: parts, eol, finalNewline };
}

export function joinFile(file: FileText, lines: readonly string[]): string {
  const body = lines.join(file.eol) + (file.finalNewline && lines.length > 0 ? file.eol : "");
  return (file.bom ? "\uFEFF" : "") + body;
}

export const leadingWs = (line: string): string => /^[ \t]*/.exec(line)![0];
export const isBlankLine = (line: string): boolean => line.trim() === "";

export type Unit = { readonly kind: "tabs" } | { readonly kind: "spaces"; readonly width: number };

/** Tabs when most indented lines start with one; else the most common step between space indents (default 4). */
export function detectUnit(lines: readonly string[]): Unit {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  for (const line of lines) {
    if (isBlankLine(line)) continue;
    const ws = leadingWs(line);
    if (ws.startsWith("\t")) tabs++;
    else if (ws.length > 0) spaces++;
    if (ws.includes("\t")) continue;
    const step = Math.abs(ws.length - previous);
    // Odd steps are JSDoc alignment (` * `), not a unit.
    if (step === 2 || step === 4 || step === 8 || step === 3) steps.set(step, (steps.get(step) ?? 0) + 1);
    previous = ws.length;
  }
  if (tabs > spaces) return { kind: "tabs" };
  let best = 4;
  let bestCount = 0;
  for (const [step, count] of steps) {
    if (count > bestCount || (count === bestCount && step < best)) {
      best = step;
      bestCount = count;
    }
  }
  return { kind: "spaces", width: best };
}

/** Whole-line windows equal to `want` under `key`: 0-based starts. */
export function findAll(lines: readonly string[], want: readonly string[], key: (s: string) => string): number[] {
  if (want.length === 0) return [];
  const keys = lines.map(key);
  const wanted = want.map(key);
  const starts: number[] = [];
  for (let s = 0; s + wanted.length <= keys.length; s++) {
    let ok = true;
    for (let j = 0; j < wanted.length && ok; j++) ok = keys[s + j] === wanted[j];
    if (ok) starts.push(s);
  }
  return starts;
}

/** The loosest key the engine documents (trimmed, typographic punctuation folded, whitespace runs collapsed). */
export function looseKey(line: string): string {
  return line
    .replace(/[\u2018\u2019\u201A\u201B\u2032\u2035]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033\u2036]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Where `want` occurs with blank lines between its lines that it lacks (at least one): for each place, the line
 * each wanted line stands on. Replies drop such blank lines all the time, and the engine reads a SEARCH so.
 */
export function findSkippingBlanks(
  lines: readonly string[],
  want: readonly string[],
  key: (s: string) => string,
): number[][] {
  const wanted = want.map(key);
  const found: number[][] = [];
  if (wanted.length === 0 || wanted.some((w) => w.trim() === "")) return found;
  for (let s = 0; s < lines.length; s++) {
    const at: number[] = [];
    let k = s;
    for (let j = 0; j < wanted.length && k < lines.length; j++) {
      while (j > 0 && k < lines.length && isBlankLine(lines[k]!)) k++;
      if (k >= lines.length || key(lines[k]!) !== wanted[j]) break;
      at.push(k++);
    }
    if (at.length === wanted.length && at[at.length - 1]! - at[0]! >= wanted.length) found.push(at);
  }
  return found;
}

export const exactKey = (line: string): string => line;

/** A line without its trailing spaces and tabs. */
export const trailingFreeKey = (line: string): string => line.replace(/[ \t\r]+$/, "");
