/**
 * Which lines of an edit start inside a multi-line string literal: a Go raw string or a JavaScript template
 * literal (backticks), a Python, Java, Kotlin, Scala or Swift text block (triple quotes), or a Markdown file's
 * fenced code block. Their leading whitespace is text, not the file's indentation, so re-indenting them in the
 * file's style would change the program (an expected help text in a Go test, an SQL query) or the example as its
 * author wrote it. Only literals opened within the edit's own lines are seen (Markdown's above them too), and quotes are counted without
 * parsing; one-line strings and line comments are skipped, so a quote in them opens nothing, and a literal misread
 * can only make a line keep the model's bytes.
 */
import type { LineOp } from "../core/edit.js";

type Delimiter = "`" | '"""' | "'''" | "```" | "~~~";

interface Language {
  /** What opens (and closes) a multi-line literal. */
  readonly delimiters: readonly Delimiter[];
  /** What starts a comment that runs to the end of the line. */
  readonly comment: string;
  /** The delimiters count only at the start of a line (after its indentation): Markdown fences. */
  readonly wholeLines?: boolean;
}

const BACKTICKS: Language = { delimiters: ["`"], comment: "//" };
const PYTHON: Language = { delimiters: ['"""', "'''"], comment: "#" };
const TEXT_BLOCKS: Language = { delimiters: ['"""'], comment: "//" };
const MARKDOWN: Language = { delimiters: ["```", "~~~"], comment: "", wholeLines: true };

function languageOf(path: string): Language | undefined {
  if (/\.(go|[cm]?[jt]sx?)$/i.test(path)) return BACKTICKS;
  if (/\.pyi?$/i.test(path)) return PYTHON;
  if (/\.(java|kts?|scala|swift|groovy)$/i.test(path)) return TEXT_BLOCKS;
  if (/\.(md|markdown|mdx)$/i.test(path)) return MARKDOWN;
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

/** The fence open after `line`: a fence line opens a block, or closes the one its character opened. */
function fenceAfter(line: string, open: Delimiter | undefined, language: Language): Delimiter | undefined {
  // Every line above an edit is asked: skip the indentation in place rather than trim a copy.
  let k = 0;
  while (line.charCodeAt(k) === 32 || line.charCodeAt(k) === 9) k++;
  const fence = language.delimiters.find((d) => line.startsWith(d, k));
  if (fence === undefined) return open;
  if (open === undefined) return fence;
  return fence === open ? undefined : open;
}

/** The literal open at the end of `line`, given the one open at its start. */
function literalAfter(line: string, open: Delimiter | undefined, language: Language): Delimiter | undefined {
  if (language.wholeLines === true) return fenceAfter(line, open, language);
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

/**
 * Per op index, whether the line starts inside a literal, reading the new side (context and added lines) in order;
 * undefined when the file's language has no multi-line literal this knows. For Markdown, whose fences are whole
 * lines that nothing else opens, the `before` lines of the file (the edit's place and above) are read too, so a
 * block the edit starts inside counts.
 */
export function startsInsideLiteral(
  path: string,
  ops: readonly LineOp[],
  before?: { readonly count: number; readonly line: (i: number) => string },
): readonly boolean[] | undefined {
  const language = languageOf(path);
  if (language === undefined) return undefined;
  let open: Delimiter | undefined;
  if (language.wholeLines === true && before !== undefined) {
    for (let i = 0; i < before.count; i++) open = fenceAfter(before.line(i), open, language);
  }
  return ops.map((op) => {
    const inside = open !== undefined;
    if (op.op === "add" || op.op === "context") open = literalAfter(op.text, open, language);
    return inside;
  });
}
