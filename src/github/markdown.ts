/** Small Markdown helpers for bot comments: safe fences, collapsed blocks, length caps. */

/** Marks every comment patchsmith writes, so it (and people's tooling) can recognise them. */
export const MARKER = "<!-- patchsmith -->";

/** GitHub rejects comment bodies over 65,536 characters; keep a margin for the rest of the comment. */
export const MAX_BLOCK_CHARS = 40_000;

/** A fenced block that the content cannot close early: the fence is longer than any backtick run inside. */
export function fence(content: string, language = ""): string {
  const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(Math.max(3, longest + 1));
  const body = content.endsWith("\n") ? content : `${content}\n`;
  return `${ticks}${language}\n${body}${ticks}`;
}

/** Cuts long text at a line boundary and says how much was left out. */
export function truncate(text: string, maxChars = MAX_BLOCK_CHARS): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf("\n", maxChars);
  const kept = text.slice(0, cut > 0 ? cut : maxChars);
  const omitted = text.slice(kept.length).split("\n").length - 1;
  return `${kept}\n… (${omitted} more line${omitted === 1 ? "" : "s"} not shown)`;
}

/** The end of long text (an output's tail), cut at a line boundary, saying how much was left out before it. */
export function truncateStart(text: string, maxChars = MAX_BLOCK_CHARS): string {
  if (text.length <= maxChars) return text;
  const boundary = text.indexOf("\n", text.length - maxChars);
  const kept = text.slice(boundary >= 0 && boundary < text.length - 1 ? boundary + 1 : text.length - maxChars);
  const omitted = text.slice(0, text.length - kept.length).split("\n").length - 1;
  return `… (${omitted} earlier line${omitted === 1 ? "" : "s"} not shown)\n${kept}`;
}

export function details(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

/** Text from elsewhere (model, tests, git) shown inline: no line may start a command or a mention. */
export function quoteInline(text: string): string {
  return text
    .replace(/[`\r\n]+/g, " ")
    .replace(/@/g, "@\u200b")
    .trim();
}

export { plural } from "../core/plural.js";

export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}
