/**
 * Which lines of an edit start inside a multi-line string literal: a Go raw string or a JavaScript template
 * literal (backticks), a Python, Java, Kotlin, Scala or Swift text block (triple quotes), or a Markdown file's
 * fenced code block. Their leading whitespace is text, not the file's indentation, so re-indenting them in the
 * file's style would change the program (an expected help text in a Go test, an SQL query) or the example as its
 * author wrote it. Only literals opened within the edit's own lines are seen (Markdown fences above them too, read
 * as the reply's fences are: formats/shared/fences.ts), and quotes are counted without parsing; one-line strings and
 * line comments are skipped, so a quote in them opens nothing, and a literal misread can only make a line keep the
 * model's bytes.
 */
import type { LineOp } from "../core/edit.js";
import { closesFence, parseFenceLine, type FenceLine } from "../formats/shared/fences.js";

type Delimiter = "`" | '"""' | "'''";

interface Language {
  /** What opens (and closes) a multi-line literal. */
  readonly delimiters: readonly Delimiter[];
  /** What starts a comment that runs to the end of the line. */
  readonly comment: string;
}

const BACKTICKS: Language = { delimiters: ["`"], comment: "//" };
const PYTHON: Language = { delimiters: ['"""', "'''"], comment: "#" };
const TEXT_BLOCKS: Language = { delimiters: ['"""'], comment: "//" };

function languageOf(path: string): Language | undefined {
  if (/\.(go|[cm]?[jt]sx?)$/i.test(path)) return BACKTICKS;
  if (/\.pyi?$/i.test(path)) return PYTHON;
  if (/\.(java|kts?|scala|swift|groovy)$/i.test(path)) return TEXT_BLOCKS;
  return undefined;
}

/** The index just past the one-line string whose opening quote is at `k` (or the line's end). */
function pastQuoted(line: string, k: number): number {
  const quote = line[k];
  for (let j = k + 1; j < line.length; j++) {
    if (line[j] === "\\") j++;
    else if (line[j] === quote) return j + 1;
  }
  return line.length;
}

/** The literal open at the end of `line`, given the one open at its start. */
function literalAfter(line: string, open: Delimiter | undefined, language: Language): Delimiter | undefined {
  let state = open;
  let k = 0;
  while (k < line.length) {
    if (state !== undefined) {
      // A backslash escapes the next character in template literals and Python strings; Go raw strings have no
      // escapes, but a backslash right before their closing backtick is rare enough to ignore.
      if (line[k] === "\\") k += 2;
      else if (line.startsWith(state, k)) {
        k += state.length;
        state = undefined;
      } else k++;
      continue;
    }
    const opening = language.delimiters.find((d) => line.startsWith(d, k));
    if (opening !== undefined) {
      state = opening;
      k += opening.length;
    } else if (line.startsWith(language.comment, k)) return undefined;
    else if (line[k] === '"' || line[k] === "'") k = pastQuoted(line, k);
    else k++;
  }
  return state;
}

const MARKDOWN_FILE = /\.(md|markdown|mdx)$/i;

/** The file's lines above the edit. */
export interface LinesAbove {
  readonly count: number;
  readonly line: (i: number) => string;
}

/** Per op index, whether the line starts inside a fenced block of a Markdown file, the fences before it counted. */
function insideFences(ops: readonly LineOp[], before: LinesAbove | undefined): boolean[] {
  let open: FenceLine | undefined;
  const read = (line: string): void => {
    const fence = parseFenceLine(line);
    if (fence === undefined) return;
    if (open === undefined) open = fence;
    else if (closesFence(open, fence)) open = undefined;
  };
  for (let i = 0; before !== undefined && i < before.count; i++) read(before.line(i));
  return ops.map((op) => {
    const inside = open !== undefined;
    if (op.op === "add" || op.op === "context") read(op.text);
    return inside;
  });
}

/**
 * Per op index, whether the line starts inside a literal, reading the new side (context and added lines) in order;
 * undefined when the file's language has no multi-line literal this knows. For Markdown, whose fences are whole
 * lines that nothing else opens, the file's lines above the edit (`before`) are read first, so a block the edit
 * starts inside counts.
 */
export function startsInsideLiteral(
  path: string,
  ops: readonly LineOp[],
  before?: LinesAbove,
): readonly boolean[] | undefined {
  if (MARKDOWN_FILE.test(path)) return insideFences(ops, before);
  const language = languageOf(path);
  if (language === undefined) return undefined;
  let open: Delimiter | undefined;
  return ops.map((op) => {
    const inside = open !== undefined;
    if (op.op === "add" || op.op === "context") open = literalAfter(op.text, open, language);
    return inside;
  });
}
