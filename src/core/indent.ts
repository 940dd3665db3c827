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
  const steps = new Map<number, number>();
  let previous = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const ws = leadingWhitespace(line);
    if (ws.startsWith("\t")) tabs++;
    else if (ws.startsWith(" ")) spaces++;
    if (ws.includes("\t")) continue;
    const width = ws.length;
    const step = Math.abs(width - previous);
    if (step > 0 && step <= 8) steps.set(step, (steps.get(step) ?? 0) + 1);
    previous = width;
  }
  if (tabs === 0 && spaces === 0) return undefined;
  if (tabs > spaces) return { kind: "tabs" };
  let best = 0;
  let bestCount = 0;
  for (const [step, count] of steps) {
    if (count > bestCount || (count === bestCount && step < best)) {
      best = step;
      bestCount = count;
    }
  }
  return { kind: "spaces", width: best || 4 };
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
