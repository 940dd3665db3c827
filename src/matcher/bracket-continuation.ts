/**
 * Lines that continue an expression a `(` or `[` on an earlier line left open: call arguments, array items, a
 * condition broken over lines. Their indentation is layout, not nesting, in every language with brackets (Python's
 * offside rule is off inside them too), and models re-indent them freely. The nesting rule (indent-structure.ts)
 * therefore does not read them, and an added line does not take its depth from them (splice-indent.ts).
 *
 * Brackets are counted from the first line asked about, outside one-line strings and line comments, for the
 * languages whose strings and comments are known here. A string or block comment left open on a line, or a file of
 * another kind, ends the reading: no later line counts as continued, so a misreading can only keep a line under the
 * nesting rule, as it was.
 */

interface Syntax {
  /** What starts a comment that runs to the end of the line. */
  readonly comment: string;
  /** Quotes of one-line strings. */
  readonly quotes: string;
}

const C_LIKE: Syntax = { comment: "//", quotes: `'"\`` };
const PYTHON: Syntax = { comment: "#", quotes: `'"` };

function syntaxOf(path: string): Syntax | undefined {
  if (/\.(?:[cm]?[jt]sx?|go|rs|java|kts?|scala|swift|c|cc|cpp|cxx|h|hpp|cs|php|dart)$/i.test(path)) return C_LIKE;
  if (/\.pyi?$/i.test(path)) return PYTHON;
  return undefined;
}

/** How far `line` moves the bracket depth from `depth`, or undefined when a string or comment stays open. */
function scan(line: string, depth: number, syntax: Syntax): number | undefined {
  for (let k = 0; k < line.length; k++) {
    const c = line[k]!;
    if (line.startsWith(syntax.comment, k)) return depth;
    if (syntax === C_LIKE && line.startsWith("/*", k)) {
      const close = line.indexOf("*/", k + 2);
      if (close < 0) return undefined;
      k = close + 1;
    } else if (syntax.quotes.includes(c)) {
      // Triple quotes open a string that may run over lines.
      if (syntax === PYTHON && line.startsWith(c.repeat(3), k)) return undefined;
      let j = k + 1;
      while (j < line.length && line[j] !== c) j += line[j] === "\\" ? 2 : 1;
      if (j >= line.length) return undefined;
      k = j;
    } else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth = Math.max(0, depth - 1);
  }
  return depth;
}

/**
 * For lines [from, to) of a file at `path`, the 0-based numbers of those that start inside a bracket opened on an
 * earlier one of them.
 */
export function bracketContinued(
  line: (i: number) => string,
  from: number,
  to: number,
  path: string | undefined,
): ReadonlySet<number> {
  const continued = new Set<number>();
  const syntax = path === undefined ? undefined : syntaxOf(path);
  if (syntax === undefined) return continued;
  let depth = 0;
  for (let i = from; i < to; i++) {
    if (depth > 0) continued.add(i);
    const next = scan(line(i), depth, syntax);
    if (next === undefined) break;
    depth = next;
  }
  return continued;
}
