/**
 * Indentation style of a file and of the text a model wrote, so a replacement can be re-expressed in the
 * file's own unit (tabs for a tab-indented file, its own space width otherwise).
 */

export type IndentStyle = { readonly kind: "tabs" } | { readonly kind: "spaces"; readonly width: number };

export function leadingWhitespace(line: string): string {
  // Character codes, no regex: this runs on every line an edit adds or aligns.
  let k = 0;
  while (k < line.length && (line.charCodeAt(k) === 32 || line.charCodeAt(k) === 9)) k++;
  return k === 0 ? "" : line.slice(0, k);
}

/** Steps between consecutive indentation widths that can be a unit: one space is alignment, never a unit. */
const MIN_STEP = 2;
const MAX_STEP = 8;

/**
 * Detects the indentation unit from the lines' leading whitespace. Only code lines vote: a block-comment
 * continuation (whitespace then `*`, as in ` * text` under a JSDoc or license `/**`) is aligned to its opener plus
 * one space, so a long header would otherwise make a tab-indented file look space-indented. Tabs win when more
 * indented code lines start with a tab than with a space. Otherwise the unit is the most common step (2..8 columns)
 * between consecutive non-blank space-indented lines; the first line's own depth is not a step (a snippet that starts
 * deep says nothing about its unit), and when no step was seen the shallowest depth stands in for one.
 * Returns undefined when no code line is indented.
 */
export function detectIndentStyle(lines: readonly string[]): IndentStyle | undefined {
  let tabs = 0;
  let spaces = 0;
  // steps[n] counts how often consecutive space-indented lines differ by n columns (MIN_STEP..MAX_STEP).
  const steps = new Array<number>(MAX_STEP + 1).fill(0);
  let previous = -1;
  let shallowest = Infinity;
  // One char-code pass per line and no allocation: this runs on every file an edit touches, up to 10,000 lines.
  for (const line of lines) {
    let width = 0;
    let sawTab = false;
    while (width < line.length) {
      const code = line.charCodeAt(width);
      if (code === 9) sawTab = true;
      else if (code !== 32) break;
      width++;
    }
    if (width === line.length || isBlankRest(line, width)) continue;
    if (line.charCodeAt(width) === 42) continue; // `*`: a block-comment continuation, not code
    const first = line.charCodeAt(0);
    if (first === 9) tabs++;
    else if (first === 32) spaces++;
    if (sawTab) continue;
    if (previous >= 0) {
      const step = Math.abs(width - previous);
      if (step >= MIN_STEP && step <= MAX_STEP) steps[step]!++;
    }
    if (width > 0 && width < shallowest) shallowest = width;
    previous = width;
  }
  if (tabs === 0 && spaces === 0) return undefined;
  if (tabs > spaces) return { kind: "tabs" };
  let best = 0;
  for (let step = MIN_STEP; step <= MAX_STEP; step++) if (steps[step]! > steps[best]!) best = step;
  return { kind: "spaces", width: best || unitOfDepth(shallowest) };
}

/** A line that votes in detectIndentStyle: indented code, not blank, not a block-comment continuation. */
function isIndentedCode(line: string): boolean {
  let width = 0;
  while (width < line.length && (line.charCodeAt(width) === 32 || line.charCodeAt(width) === 9)) width++;
  return width > 0 && width < line.length && !isBlankRest(line, width) && line.charCodeAt(width) !== 42;
}

/**
 * `detectIndentStyle(lines)?.kind`, cheaply when no line starts with a tab: tabs cannot win then, and the first
 * space-indented line of code decides. Deciding whether an added line's indentation fits the file needs no more.
 */
export function detectIndentKind(lines: readonly string[]): IndentStyle["kind"] | undefined {
  for (const line of lines) if (line.charCodeAt(0) === 9) return detectIndentStyle(lines)?.kind;
  return spaceIndentKind(lines);
}

/**
 * detectIndentKind of lines none of which starts with a tab, read one at a time until one decides: a caller that
 * knows there is no such line (a search of the text for a tab after a newline) need not read the others.
 */
export function spaceIndentKind(lines: Iterable<string>): "spaces" | undefined {
  for (const line of lines) if (line.charCodeAt(0) === 32 && isIndentedCode(line)) return "spaces";
  return undefined;
}

/** A unit that a lone depth is a whole number of: 4 first (the most common), then 2 and 3; else 4. */
function unitOfDepth(depth: number): number {
  for (const unit of [4, 2, 3]) if (depth % unit === 0) return unit;
  return 4;
}

/** True when nothing but whitespace (as String.prototype.trim sees it) follows position `from`. */
function isBlankRest(line: string, from: number): boolean {
  const code = line.charCodeAt(from);
  // Printable ASCII is the usual first character after the indentation: decide without allocating.
  if (code > 32 && code < 127) return false;
  return line.slice(from).trim() === "";
}

/**
 * Indentation depth in levels of the given style. Tabs count one level each; spaces count 1/width of a level.
 * Mixed prefixes are summed, so "\t  " in a tab file with a 2-space model unit reads as 2 levels.
 * With a `tabStop` (the language gives a tab a width: tabStopOf) a tab advances to the next multiple of that many
 * columns instead, and the columns are read in levels of `spaceWidth`.
 */
export function indentLevels(ws: string, spaceWidth: number, tabStop?: number): number {
  if (tabStop !== undefined) {
    let columns = 0;
    for (const ch of ws) columns = ch === "\t" ? (Math.floor(columns / tabStop) + 1) * tabStop : columns + 1;
    return columns / spaceWidth;
  }
  let levels = 0;
  for (const ch of ws) levels += ch === "\t" ? 1 : 1 / spaceWidth;
  return levels;
}

/**
 * The columns a tab advances to where the language itself defines it: Python's tokenizer expands a tab to the next
 * multiple of 8 (the Language Reference, "Indentation"), so a tab among space-indented lines is two 4-space levels
 * there, whatever unit a reply otherwise writes in. Elsewhere a tab is read as one level of its writer's unit.
 */
export const tabStopOf = (path: string): number | undefined => (/\.py[iw]?$/i.test(path) ? 8 : undefined);

/** Renders a depth in levels in a style; fractions of a level become spaces. */
export function renderIndent(levels: number, style: IndentStyle): string {
  const clamped = Math.max(0, levels);
  if (style.kind === "tabs") {
    const whole = Math.floor(clamped + 1e-9);
    const rest = Math.round((clamped - whole) * 4);
    return "\t".repeat(whole) + " ".repeat(rest);
  }
  return " ".repeat(Math.round(clamped * style.width));
}
