/**
 * The report for people (Markdown) and for machines (`--json`, the DESIGN section 4 shape first, then the extra
 * fields). Pure: the CLI prints these, the GitHub worker builds its comment from the same report.
 */
import { plural } from "../core/plural.js";
import { describeTestRun } from "./render-tests.js";
import { formatUsd } from "../core/money.js";
import { fenceFor } from "../apply/feedback-retry.js";
import type { SetupReport } from "./setup-step.js";
import type { AttemptReport, FixReport } from "./types.js";

const STATUS_TITLE: Record<FixReport["status"], string> = {
  success: "done",
  exhausted: "stopped before the tests passed",
  failed: "failed",
};

function describeAttempt(attempt: AttemptReport): string {
  const applied = attempt.edits.filter((e) => e.ok);
  const failed = attempt.edits.filter((e) => !e.ok);
  const parts: string[] = [];
  if (attempt.edits.length === 0) parts.push("no edits");
  else {
    const how = [...new Set(applied.map((e) => e.strategy).filter((s) => s !== undefined))].join(", ");
    parts.push(`${applied.length} edit${applied.length === 1 ? "" : "s"} applied${how ? ` (${how})` : ""}`);
    if (failed.length > 0) {
      const why = failed.map((e) => `${e.reason ?? "failed"} in ${e.path || "(no path)"}`).join("; ");
      parts.push(`${failed.length} failed: ${why}`);
    }
  }
  if (attempt.retried) parts.push("retried once");
  if (attempt.tests) parts.push(`tests: ${describeTestRun(attempt.tests)}`);
  const verdict = attempt.accepted
    ? `accepted${attempt.commit ? ` as ${attempt.commit.slice(0, 7)}` : ""}`
    : "not accepted";
  const note = attempt.note ? ` (${attempt.note})` : "";
  return `${attempt.number}. ${verdict}${note}: ${parts.join("; ")}`;
}

const SETUP_SOURCE: Record<SetupReport["source"], string> = {
  request: "given",
  "repo-config": "from .github/patchsmith.yml",
  detected: "detected",
};

/** One line on the set-up step, for every report (the CLI's, the App's comment and check run). */
export function describeSetup(setup: SetupReport): string {
  const commands = setup.commands.map((c) => `\`${c.replace(/`/g, "'")}\``).join(", then ");
  const failure = setup.failure;
  const how =
    failure === undefined
      ? "ok"
      : `failed (${failure.limit ?? (failure.timedOut ? "timed out" : `exit code ${String(failure.exitCode ?? "none")}`)})`;
  const cache = setup.cache === "none" ? "" : `, cache ${setup.cache}`;
  return `Set-up (${SETUP_SOURCE[setup.source]}): ${commands}: ${how} in ${(setup.durationMs / 1000).toFixed(1)} s${cache}.`;
}

/** "~" and a count mark figures estimated because the endpoint reported no usage. */
function describeUsage(usage: FixReport["usage"]): string {
  const estimated = usage.estimatedCalls ?? 0;
  const tokens = `${estimated > 0 ? "~" : ""}${usage.totalTokens.toLocaleString("en-US")} tokens`;
  const how = estimated > 0 ? ` (estimated for ${estimated} of ${usage.calls})` : "";
  const cost = usage.costUsd === undefined ? "" : `, ${estimated > 0 ? "~" : ""}${formatUsd(usage.costUsd)}`;
  return `${tokens} in ${plural(usage.calls, "model call")}${how}${cost}`;
}

export function renderReportMarkdown(report: FixReport): string {
  const out: string[] = [`## patchsmith: ${STATUS_TITLE[report.status]}`, ""];
  out.push(
    [
      `Branch \`${report.branch}\`${report.pushed ? " (pushed)" : ""}`,
      plural(report.commits.length, "commit"),
      plural(report.attempts.length, "attempt"),
      describeUsage(report.usage),
    ].join(" · "),
  );
  const command = report.testCommand ? `\`${report.testCommand.command}\`` : "no test command";
  if (report.setup !== undefined) out.push("", describeSetup(report.setup));
  out.push(
    "",
    `Tests (${command}): before: ${describeTestRun(report.tests.before)}; after: ${describeTestRun(report.tests.after)}.`,
  );
  if (report.reproduction) {
    const r = report.reproduction;
    out.push(
      `Reproducing test \`${r.testPath}\`: ${r.failedBefore ? "failed" : "did not fail"} without the fix, ` +
        `${r.passesAfter ? "passes" : "does not pass"} with it.`,
    );
  }
  if (report.commits.length > 0) {
    out.push("", "### Commits", ...report.commits.map((c) => `- \`${c.sha.slice(0, 7)}\` ${c.subject}`));
  }
  if (report.attempts.length > 0) out.push("", "### Attempts", ...report.attempts.map(describeAttempt));
  if (report.diffStat.trim() !== "") {
    const fence = fenceFor(report.diffStat);
    out.push("", "### Changes", fence, report.diffStat.trimEnd(), fence);
  }
  if (report.failure) {
    const fence = fenceFor(report.failure.message);
    out.push("", `### What went wrong (${report.failure.reason})`, fence, report.failure.message.trimEnd(), fence);
  }
  if (report.context && report.context.files.length > 0) {
    const shown = report.context.files.map(
      (f) => `\`${f.path}\` (${f.why}${f.detail === undefined ? "" : `: ${f.detail}`})`,
    );
    out.push("", `Files shown to the model: ${shown.join(", ")}.`);
  }
  const notes = report.context?.instructions ?? [];
  if (notes.length > 0) out.push("", `Notes for coding agents it read: ${notes.map((p) => `\`${p}\``).join(", ")}.`);
  if (report.notes && report.notes.length > 0) out.push("", ...report.notes.map((n) => `- ${n}`));
  if (report.clonePath) out.push("", `The clone was kept at ${report.clonePath}.`);
  return `${out.join("\n")}\n`;
}

/** The `--json` object: the documented keys first, in order; extra fields after them. */
export function toJsonReport(report: FixReport): Record<string, unknown> {
  const { status, branch, commits, attempts, tests, usage, failure, ...rest } = report;
  return { status, branch, commits, attempts, tests, usage, ...(failure ? { failure } : {}), ...rest };
}
