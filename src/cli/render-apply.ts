/**
 * What `patchsmith apply` prints (pure): per edit a ✓/✗ line and the failure message, then one unified diff per
 * changed file, and a summary line; or the JSON shape of the CLI contract.
 */
import { plural } from "../core/plural.js";
import { styleText } from "node:util";
import { createTwoFilesPatch } from "diff";
import type { EditResult } from "../core/result.js";
import type { ApplyReport } from "../engine.js";

/** A diff longer than this is cut: the file on disk is the full truth, the terminal only needs the gist. */
export const MAX_DIFF_LINES = 400;

type Format = Parameters<typeof styleText>[0];

export interface RenderStyle {
  /** ANSI colours (only for a TTY with NO_COLOR unset; decided by the caller). */
  readonly color: boolean;
}

const paint = (style: RenderStyle, format: Format, text: string): string =>
  // The caller already decided (TTY, NO_COLOR); newer Node would otherwise second-guess it against process.stdout.
  style.color ? styleText(format, text, { validateStream: false }) : text;

type Applied = EditResult & { ok: true };

/** One file's change over the whole reply: from before its first applied edit to after its last. */
interface FileChange {
  readonly path: string;
  readonly first: Applied;
  last: Applied;
}

function fileChanges(results: readonly EditResult[]): FileChange[] {
  const byPath = new Map<string, FileChange>();
  for (const result of results) {
    // A move, a copy or a mode change leaves the content as it was: there is no diff to show.
    if (!result.ok || ["rename", "copy", "mode"].includes(result.edit.kind)) continue;
    const seen = byPath.get(result.path);
    if (seen === undefined) byPath.set(result.path, { path: result.path, first: result, last: result });
    else seen.last = result;
  }
  return [...byPath.values()];
}

/** One diff per file, however many edits it took: diffing the whole file once per edit cost hunks × lines. */
function renderDiff({ path, first, last }: FileChange, style: RenderStyle): string[] {
  const oldName = first.edit.kind === "create" || first.strategy === "create" ? "/dev/null" : `a/${path}`;
  const newName = last.edit.kind === "delete" ? "/dev/null" : `b/${path}`;
  const patch = createTwoFilesPatch(oldName, newName, first.before, last.after, undefined, undefined, {
    context: 3,
  });
  // jsdiff starts with an "=====" rule meant for multi-file output; one file's diff reads better without it.
  const lines = patch.split("\n").filter((line, i) => !(i === 0 && line.startsWith("====")));
  if (lines[lines.length - 1] === "") lines.pop();
  const shown = lines.slice(0, MAX_DIFF_LINES);
  const out = shown.map((line) => {
    if (line.startsWith("+++") || line.startsWith("---")) return paint(style, "bold", line);
    if (line.startsWith("@@")) return paint(style, "cyan", line);
    if (line.startsWith("+")) return paint(style, "green", line);
    if (line.startsWith("-")) return paint(style, "red", line);
    return line;
  });
  if (lines.length > shown.length) out.push(paint(style, "dim", `… ${lines.length - shown.length} more diff lines`));
  return out;
}

const indent = (text: string): string[] => text.split("\n").map((line) => `  ${line}`);

function renderResult(result: EditResult, style: RenderStyle): string[] {
  const shownPath = result.path === "" ? "(reply)" : result.path;
  if (!result.ok) {
    return [
      `${paint(style, "red", "✗")} ${shownPath}  ${paint(style, "yellow", result.reason)}`,
      ...indent(result.message),
    ];
  }
  const target =
    result.edit.kind === "rename" || result.edit.kind === "copy" ? `${shownPath} → ${result.edit.to}` : shownPath;
  const how =
    result.repeatOf !== undefined
      ? `repeats the edit at reply line ${String(result.repeatOf)}, applied once`
      : result.changesNothing !== undefined
        ? `changes nothing (its old and new lines are the same; found at line${result.changesNothing.at.length > 1 ? "s" : ""} ${result.changesNothing.at.join(", ")})`
        : result.edit.kind === "mode"
          ? `made ${result.edit.executable ? "executable (100755)" : "not executable (100644)"}`
          : result.strategy;
  return [`${paint(style, "green", "✓")} ${target}  ${paint(style, "dim", how)}`];
}

function footer(report: ApplyReport): string {
  const files = (n: number): string => plural(n, "file");
  // A dry run's summary already says that nothing was written (see dryRunSummary in engine.ts).
  if (report.dryRun) {
    const would = report.changes.size;
    return would === 0 ? report.summary : `${report.summary} (${files(would)} would change)`;
  }
  if (report.written.length === 0) return report.summary;
  return `${report.summary}; ${files(report.written.length)} changed`;
}

export function renderHuman(report: ApplyReport, style: RenderStyle): string {
  // A blank line between edits: each may carry a multi-line message or diff.
  const lines = report.results.flatMap((r, i) => [...(i > 0 ? [""] : []), ...renderResult(r, style)]);
  for (const change of fileChanges(report.results)) lines.push("", ...renderDiff(change, style));
  const allOk = report.results.length > 0 && report.results.every((r) => r.ok);
  lines.push("", paint(style, allOk ? "green" : "red", footer(report)));
  return `${lines.join("\n")}\n`;
}

/** The CLI contract's JSON: `results` items carry exactly ok, path and reason/message or strategy. */
export function renderJson(report: ApplyReport): string {
  const results = report.results.map((r) =>
    r.ok
      ? { ok: true, path: r.path, strategy: r.strategy }
      : { ok: false, path: r.path, reason: r.reason, message: r.message },
  );
  const body = {
    results,
    written: report.written,
    dryRun: report.dryRun,
    summary: report.summary,
    ...(report.writeError === undefined ? {} : { writeError: report.writeError }),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
