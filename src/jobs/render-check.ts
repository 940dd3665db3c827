/** The check run of a command: the same facts as the comment, filterable and durable (pure). */
import type { CheckConclusion, CheckOutput } from "../ports/github-gateway.js";
import { MARKER, plural, truncate } from "../github/markdown.js";
import type { Outcome, Progress } from "./outcome.js";
import { renderOutcome, stageLabel, stopTitle } from "./render-comment.js";

export const CHECK_NAME = "patchsmith";

export function renderCheckProgress(progress: Progress): CheckOutput {
  return {
    title: `${stageLabel(progress.stage)}…`,
    summary: `\`${progress.command.replace(/`/g, "'")}\` for @${progress.requester}: ${stageLabel(progress.stage)}.`,
  };
}

function title(outcome: Outcome): string {
  switch (outcome.kind) {
    case "fixed": {
      const files = outcome.report.changedFiles.length;
      return `Fixed: ${plural(files, "file")} changed`;
    }
    case "not-fixed":
      return `Not fixed: ${outcome.report.failure?.reason ?? outcome.report.status}`;
    case "stopped":
      return stopTitle(outcome.stop).replace(/`/g, "");
    case "undone":
      return `Reverted ${outcome.reverted.sha.slice(0, 7)}`;
    case "config-error":
      return "Configuration error";
    case "denied":
      return "Not run: not allowed";
    case "error":
      return "Error";
  }
}

export function conclusionOf(outcome: Outcome): CheckConclusion {
  switch (outcome.kind) {
    case "fixed":
    case "undone":
      return "success";
    case "denied":
      return "neutral";
    case "stopped":
    case "not-fixed":
    case "config-error":
    case "error":
      return "failure";
  }
}

export function renderCheckOutcome(
  outcome: Outcome,
  requester: string,
  command: string,
): CheckOutput & { readonly conclusion: CheckConclusion } {
  const body = renderOutcome(outcome, requester, command).replace(`${MARKER}\n`, "");
  return { title: title(outcome), summary: truncate(body, 60_000), conclusion: conclusionOf(outcome) };
}
