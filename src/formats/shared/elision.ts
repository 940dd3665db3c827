/**
 * Elision lines: the model's "the lines here stay as they are", written as a bare `...` / `…` or as a comment
 * (`// ... existing code ...`, `# ... rest of file ...`, `/* ... *\/`, `<!-- ... -->`). Honoured only where they
 * stand at the same place on both sides of an edit; anywhere else they would delete code.
 */

const ELLIPSIS = /\.\.\.|…/;

// Comment wrappers of the common languages; the body in between decides.
const COMMENT = /^(?:\/\/+|#+|--|;+|%+|\{?\/\*+|<!--)\s*(.*?)\s*(?:\*+\/\}?|-->)?$/;

// Bodies that mean "elided" even without an ellipsis; anchored, so "// Existing code path for ..." is a comment.
const ELIDED_PHRASE =
  /^[([]?\s*(?:(?:the\s+)?rest\s+of\s+(?:the\s+)?(?:file|code|class|function|method|module|component|implementation|imports|body)(?:\s+(?:is\s+)?(?:unchanged|stays?\s+the\s+same|remains?\s+(?:the\s+same|unchanged)|as\s+(?:is|before)))?|existing\s+code(?:\s+(?:here|unchanged|stays?\s+the\s+same))?|(?:unchanged|remaining|other|previous)\s+code(?:\s+unchanged)?|code\s+unchanged)\s*[)\]]?\.?$/i;

// Words that, with a trailing ellipsis, mark an elision ("// keep existing handlers ..."); ordinary comments that
// merely trail off ("# loading more...") do not use them.
const ELIDED_WORDS = /\b(?:existing|rest|unchanged|remaining|omitted|same|previous)\b/i;

// After a leading ellipsis, the words of "... rest of the code", "... other handlers", "... omitted".
const LEAD_WORDS = /\b(?:existing|rest|unchanged|remaining|omitted|same|previous|other|code)\b/i;

const LEADING_ELLIPSIS = /^(?:\.\.\.|…)\s*/;
const TRAILING_ELLIPSIS = /(?:\.\.\.|…)\s*[)\]]?$/;

const SPACE = 0x20;
const TAB = 0x09;
const LAST_PRINTABLE_ASCII = 0x7e;

/**
 * The first character of `line` after spaces and tabs when `trim()` would stop there too (printable ASCII), or ""
 * when the line holds nothing else (it trims to ""); undefined otherwise (other whitespace, non-ASCII), which
 * callers leave to their full check. Elision checks run on every context line of every edit and almost none is an
 * elision: looking at this one character spares most lines the trim and the regexes.
 */
function visibleAscii(line: string): string | undefined {
  // Character codes rather than one-character strings: this runs on every line and must stay cheap.
  let k = 0;
  let c = line.charCodeAt(0);
  while (c === SPACE || c === TAB) c = line.charCodeAt(++k);
  if (k === line.length) return "";
  return c > SPACE && c <= LAST_PRINTABLE_ASCII ? line[k] : undefined;
}

/** The characters that open one of COMMENT's wrappers (`{/*` opens with a brace). */
const COMMENT_OPENERS: ReadonlySet<string> = new Set(["/", "#", "-", ";", "%", "{", "<"]);

// Every elision comment holds an ellipsis or a key word of ELIDED_PHRASE: each of its phrases says "rest" or "code".
const ELISION_HINT = /\.\.\.|…|rest|code/i;

/**
 * True when `line` is certainly no elision comment, suspected or not: COMMENT cannot match it, or it holds neither
 * an ellipsis nor a key word. Cheaper than COMMENT, whose lazy body is slow on long comments.
 */
function cannotBeElisionComment(line: string): boolean {
  const first = visibleAscii(line);
  if (first !== undefined && !COMMENT_OPENERS.has(first)) return true;
  return !ELISION_HINT.test(line);
}

/** A line that is only `...` or `…` (indentation allowed). Valid Python, so callers exempt .py files. */
export const isBareEllipsis = (line: string): boolean => {
  const first = visibleAscii(line);
  if (first !== undefined && first !== ".") return false;
  const t = line.trim();
  return t === "..." || t === "…";
};

/** A comment whose whole purpose is to stand for omitted lines. */
export function isCommentElision(line: string): boolean {
  if (cannotBeElisionComment(line)) return false;
  const m = COMMENT.exec(line.trim());
  if (!m) return false;
  const body = m[1]!;
  if (body === "") return false;
  if (ELIDED_PHRASE.test(body)) return true;
  if (!ELLIPSIS.test(body)) return false;
  const trailing = TRAILING_ELLIPSIS.test(body);
  const leading = LEADING_ELLIPSIS.exec(body);
  if (leading) {
    // "// ..." and "// ... existing code ..." stand for lines; "# ... except on Windows 8" continues a sentence.
    const rest = body.slice(leading[0].length);
    return rest === "" || trailing || LEAD_WORDS.test(rest);
  }
  return ELIDED_WORDS.test(body) && trailing;
}

const PYTHON = /\.pyi?$/i;

/** Whether a bare `...` is real code for this path (Python's Ellipsis), so it must stay literal text. */
export const bareEllipsisIsCode = (path: string | undefined): boolean => path !== undefined && PYTHON.test(path);

/** Whether `line` is an elision for a file at `path` (bare `...` lines are code in Python files). */
export function isElision(line: string, path: string | undefined): boolean {
  if (isBareEllipsis(line)) return !bareEllipsisIsCode(path);
  return isCommentElision(line);
}

/**
 * Whether a whole-file line may be an elision: `isElision`, or any comment that opens with an ellipsis (a lazy
 * "// ... keep as is" must not slip through as text). Looser on purpose, because the planner clears a suspected
 * line that the existing file holds verbatim, and a missed elision would delete code.
 */
export function isSuspectedElision(line: string, path: string | undefined): boolean {
  if (isElision(line, path)) return true;
  if (cannotBeElisionComment(line)) return false;
  const m = COMMENT.exec(line.trim());
  return m !== null && LEADING_ELLIPSIS.test(m[1]!);
}
