/** Markdown tables for the bench output (GitHub-flavoured; readable as plain text too). */

export type Align = "left" | "right";

/** Renders rows under a header; columns are padded so the raw text lines up as well as the rendered table. */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[] = [],
): string {
  const widths = header.map((h, i) => Math.max(h.length, 3, ...rows.map((r) => (r[i] ?? "").length)));
  const pad = (text: string, i: number): string =>
    align[i] === "right" ? text.padStart(widths[i]!) : text.padEnd(widths[i]!);
  const line = (cells: readonly string[]): string => `| ${header.map((_, i) => pad(cells[i] ?? "", i)).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (align[i] === "right" ? "-".repeat(w - 1) + ":" : "-".repeat(w))).join(" | ")} |`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}

export const percent = (part: number, whole: number): string =>
  whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)} %`;

export const mark = (ok: boolean): string => (ok ? "✓" : "✗");
