/**
 * Indentation style of a file and of the text a model wrote, so a replacement can be re-expressed in the
 * file's own unit (tabs for a tab-indented file, its own space width otherwise).
 */

export type IndentStyle = { readonly kind: "tabs" } | { readonly kind: "spaces"; readonly width: number };

export const leadingWhitespace = (line: string): string => /^[ \t]*/.exec(line)![0];

/**
 * Detects the indentation unit from the lines' leading whitespace: tabs when most indented lines start with a
 * tab, otherwise the most common positive difference between consecutive indentation widths (2, 4, 8, ...).
 * Returns undefined when no line is indented.
 */
export function detectIndentStyle(lines: readonly string[]): IndentStyle | undefined {
  let tabs = 0;
  let spaces = 0;
  // steps[n] counts how often consecutive space-indented lines differ by n columns (1..8).
  const steps = new Array<number>(9).fill(0);
  let previous = 0;
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
    const first = line.charCodeAt(0);
    if (first === 9) tabs++;
    else if (first === 32) spaces++;
    if (sawTab) continue;
    const step = Math.abs(width - previous);
    if (step > 0 && step <= 8) steps[step]!++;
    previous = width;
  }
  if (tabs === 0 && spaces === 0) return undefined;
  if (tabs > spaces) return { kind: "tabs" };
  let best = 0;
  for (let step = 1; step <= 8; step++) if (steps[step]! > steps[best]!) best = step;
  return { kind: "spaces", width: best || 4 };
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
 */
export function indentLevels(ws: string, spaceWidth: number): number {
  let levels = 0;
  for (const ch of ws) levels += ch === "\t" ? 1 : 1 / spaceWidth;
  return levels;
}

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
