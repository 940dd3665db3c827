/**
 * The retry prompt (pure): the failures, what already landed and must not be sent again, and the fresh content of
 * the affected files with line numbers, so the model can re-quote real lines instead of its memory of them.
 */
import type { EditResult, FailedEdit } from "../core/result.js";

/**
 * Files longer than this are shown in part: around the lines nearest to its failed edits (their messages quote
 * them), else from the top; the model can ask for the rest.
 */
export const MAX_RETRY_FILE_LINES = 1500;

/** A fence longer than any backtick run in the content, so the content can never close it early. */
export function fenceFor(content: string): string {
  let longest = 0;
  for (const run of content.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(3, longest + 1));
}

type LineRange = NonNullable<FailedEdit["near"]>;

/** The first line of the part of a long file shown: the one that centres the lines `near` span, if any. */
function firstShown(total: number, near: readonly LineRange[]): number {
  if (total <= MAX_RETRY_FILE_LINES || near.length === 0) return 1;
  const from = Math.min(...near.map((r) => r.start));
  const to = Math.max(...near.map((r) => r.end));
  const centred = Math.floor((from + to) / 2) - Math.floor(MAX_RETRY_FILE_LINES / 2);
  return Math.max(1, Math.min(centred, total - MAX_RETRY_FILE_LINES + 1));
}

function numbered(content: string, near: readonly LineRange[]): string {
  const lines = content.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const first = firstShown(lines.length, near);
  const shown = lines
    .slice(first - 1, first - 1 + MAX_RETRY_FILE_LINES)
    .map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  const last = first + shown.length - 1;
  const width = String(last).length;
  const body = shown.map((line, i) => `${String(first + i).padStart(width)} | ${line}`);
  if (first > 1) body.unshift(`… (lines 1-${first - 1} not shown)`);
  if (last < lines.length) body.push(`… (${lines.length - last} more lines, ${last + 1}-${lines.length} not shown)`);
  return body.join("\n");
}

/**
 * `freshFiles` maps each affected path to its current content (undefined: the file does not exist). The caller
 * picks the paths, usually those of the failed edits; they are shown in the map's order.
 */
export function renderRetryPrompt(
  results: readonly EditResult[],
  freshFiles: ReadonlyMap<string, string | undefined>,
): string {
  const failed = results.filter((r) => !r.ok);
  const real = failed.filter((r) => r.reason !== "not-applied");
  const held = failed.filter((r) => r.reason === "not-applied");
  const applied = results.filter((r) => r.ok);
  const out: string[] = [];

  out.push(
    real.length === 0
      ? "Your edits could not be written."
      : results.length === 1
        ? "Your edit failed."
        : `${real.length === 1 ? "One" : real.length} of your ${results.length} edits failed.`,
  );
  out.push("", "Failed edits:");
  real.forEach((r, i) => {
    out.push(`${i + 1}. ${r.path === "" ? "(no path)" : r.path} [${r.reason}]`);
    out.push(...r.message.split("\n").map((l) => `   ${l}`));
  });

  if (held.length > 0) {
    out.push(
      "",
      `Nothing was written: the reply is applied all or nothing. These ${held.length} edits were fine but must be ` +
        "sent again together with the fixed ones:",
      ...held.map((r) => `- ${r.path}`),
    );
  }
  if (applied.length > 0) {
    out.push(
      "",
      "Already applied (the files below include them; do not send these again):",
      ...applied.map((r) => `- ${r.path} (${r.strategy})`),
    );
  }

  if (freshFiles.size > 0) {
    out.push(
      "",
      "Current content of the affected files. The line numbers are for reference only: do not copy them into your edits.",
    );
    for (const [path, content] of freshFiles) {
      out.push("");
      if (content === undefined) {
        out.push(`${path}: this file does not exist.`);
        continue;
      }
      const near = failed.flatMap((r) => (r.path === path && r.near !== undefined ? [r.near] : []));
      const text = numbered(content, near);
      const fence = fenceFor(text);
      out.push(path, fence, text, fence);
    }
  }
  out.push(
    "",
    held.length > 0
      ? "Send the corrected edits and the held edits again, in the same format."
      : "Send corrected edits for the failed ones only, in the same format.",
  );
  return out.join("\n") + "\n";
}
