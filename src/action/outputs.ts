/**
 * The step's outputs in the runner's file format (pure): `name<<DELIMITER`, the value, `DELIMITER`, with a
 * delimiter the value cannot contain, so a multi-line value (the commits) cannot forge another output.
 */
import { randomUUID } from "node:crypto";
import type { ActionOutcome } from "./run.js";

export function outputLines(
  outcome: ActionOutcome,
  delimiter: () => string = () => `patchsmith_${randomUUID()}`,
): string {
  const values: Record<string, string> = {
    status: outcome.status,
    branch: outcome.branch ?? "",
    commits: outcome.commits.join("\n"),
    "pull-request": outcome.pullRequest?.url ?? "",
    "pull-request-number": outcome.pullRequest === undefined ? "" : String(outcome.pullRequest.number),
  };
  return Object.entries(values)
    .map(([name, value]) => {
      let end = delimiter();
      while (value.includes(end)) end = delimiter();
      return `${name}<<${end}\n${value}\n${end}\n`;
    })
    .join("");
}

/** The step summary: what happened, and why something was left out. */
export function summaryMarkdown(outcome: ActionOutcome): string {
  const lines = [`### patchsmith: ${outcome.status}`, ""];
  if (outcome.pullRequest !== undefined) lines.push(`Pull request: ${outcome.pullRequest.url}`);
  if (outcome.branch !== undefined) lines.push(`Branch: \`${outcome.branch}\``);
  if (outcome.commits.length > 0)
    lines.push(`Commits: ${outcome.commits.map((c) => `\`${c.slice(0, 12)}\``).join(", ")}`);
  for (const note of outcome.notes) lines.push("", `> ${note}`);
  return `${lines.join("\n")}\n`;
}
