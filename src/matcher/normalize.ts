/**
 * Line normalisations behind the ladder's keys, loosest last. Each is a function of the previous one's result, so
 * a window equal on a strict rung is also equal on every looser rung (the rungs only ever merge lines).
 */

/**
 * Models write typographic punctuation where code has ASCII (and the reverse); these fold to ASCII. Every quote,
 * typographic or not, single or double, folds to `"`: models also rewrite `'a'` as `"a"` (and back) in lines they
 * copy, as their own habit or a formatter's has it. Lines found this way keep the file's bytes as context, and
 * lines that differ only in quote style elsewhere make a match ambiguous rather than pick one.
 */
const TYPOGRAPHIC_SINGLE = "\u2018\u2019\u201A\u201B\u2032\u2035"; // ‘ ’ ‚ ‛ and primes ′ ‵
const TYPOGRAPHIC_DOUBLE = "\u201C\u201D\u201E\u201F\u2033\u2036"; // “ ” „ ‟ and primes ″ ‶
const QUOTES = new RegExp(`['${TYPOGRAPHIC_SINGLE}${TYPOGRAPHIC_DOUBLE}]`, "g");
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g; // hyphens, figure/en/em dashes, U+2212 minus
const ELLIPSIS = /\u2026/g;
/** `\s` already covers NBSP, the U+2000 spaces, U+202F, U+205F, U+3000 and U+FEFF. */
const WHITESPACE_RUN = /\s+/g;
/** Printable ASCII without doubled spaces needs no folding beyond trim(): the common case, kept cheap. */
const NEEDS_FOLDING = /[^\x21-\x7e ]| {2}/;

/** `line-endings`: a `\r` left at the end of a line (CRLF read as content) does not count. */
export function stripCarriageReturn(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 13) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** `trailing-whitespace`. trimEnd also removes `\r`. */
export const trimLineEnd = (line: string): string => line.trimEnd();

/** `indentation`: leading and trailing whitespace ignored. */
export const trimLine = (line: string): string => line.trim();

/**
 * `unicode`: trimmed, typographic punctuation folded to ASCII, every quote to `"`, odd spaces treated as spaces,
 * internal whitespace runs collapsed to one space.
 */
export function foldLine(line: string): string {
  const trimmed = line.trim();
  if (!NEEDS_FOLDING.test(trimmed)) return trimmed.includes("'") ? trimmed.replaceAll("'", '"') : trimmed;
  return trimmed.replace(QUOTES, '"').replace(DASHES, "-").replace(ELLIPSIS, "...").replace(WHITESPACE_RUN, " ").trim();
}

/** Every character foldLine makes `"`, and the typographic ones alone. */
const ANY_QUOTE = new RegExp(`["'${TYPOGRAPHIC_SINGLE}${TYPOGRAPHIC_DOUBLE}]`, "g");
const TYPOGRAPHIC_QUOTE = new RegExp(`[${TYPOGRAPHIC_SINGLE}${TYPOGRAPHIC_DOUBLE}]`);

/** A quote's kind: `'` (single, typographic or not) or `"` (double). */
const kindOf = (quote: string): string => (quote === "'" || TYPOGRAPHIC_SINGLE.includes(quote) ? "'" : '"');

/**
 * A model's line that `foldLine` makes equal to a file line, but whose typographic quotes are of the other kind
 * than the file's quotes at the same places (`‘“’` against `"'"`). Typographic quotes keep their kind (smart-quote
 * conversion turns `'` into `‘’` and `"` into `“”`), so they are evidence of which line was copied; an ASCII quote
 * of the other kind is not (models and formatters swap `'a'` and `"a"`).
 */
export function contradictsQuoteKinds(model: string, file: string): boolean {
  if (!TYPOGRAPHIC_QUOTE.test(model)) return false;
  const mine = model.match(ANY_QUOTE) ?? [];
  const theirs = file.match(ANY_QUOTE) ?? [];
  if (mine.length !== theirs.length) return false;
  return mine.some((ch, i) => TYPOGRAPHIC_QUOTE.test(ch) && kindOf(ch) !== kindOf(theirs[i]!));
}

/** Only whitespace (as `trim` sees it). Checked without building the trimmed copy: it runs on every aligned line. */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    // Space, tab, LF, VT, FF, CR are whitespace; other ASCII is not; beyond ASCII, trim() decides.
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    if (c < 128) return false;
    return line.trim() === "";
  }
  return true;
}
