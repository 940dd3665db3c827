/** The parts of a FixReport people read: what changed, tests before and after, attempts, tokens (pure). */
import { formatUsd } from "../core/money.js";
import type { FixReport } from "../agent/types.js";
import { describeSetup } from "../agent/render-report.js";
import { testCell } from "../agent/render-tests.js";
import { failedSideSteps } from "../agent/verdict.js";
import { details, fence, quoteInline, truncate, truncateStart } from "../github/markdown.js";

export function renderTests(report: FixReport): string {
  const { before, after } = report.tests;
  const command = after?.command ?? before?.command ?? report.testCommand?.command;
  const setup = report.setup === undefined ? [] : [`**${describeSetup(report.setup).replace(/:/, ":**")}`, ""];
  if (command === undefined)
    return [...setup, "**Tests:** none found (set `test:` in `.github/patchsmith.yml`)."].join("\n");
  const source = report.testCommand?.source === "detected" ? " (detected)" : "";
  return [
    ...setup,
    `**Tests:** \`${quoteInline(command)}\`${source}`,
    "",
    "| before | after |",
    "|---|---|",
    `| ${testCell(before)} | ${testCell(after)} |`,
  ].join("\n");
}

export function renderUsage(report: FixReport): string {
  const u = report.usage;
  const estimated = u.estimatedCalls ?? 0;
  // Figures the endpoint did not report are estimates: say so where they are read.
  const approx = estimated > 0 ? "~" : "";
  const note = estimated > 0 ? `; estimated for ${estimated} of ${u.calls} calls` : "";
  const tokens = `${approx}${u.totalTokens.toLocaleString("en-US")} tokens (${u.promptTokens.toLocaleString("en-US")} prompt + ${u.completionTokens.toLocaleString("en-US")} completion${note})`;
  const cost = u.costUsd === undefined ? "" : ` · **Cost:** ${approx}${formatUsd(u.costUsd)}`;
  return `**Attempts:** ${report.attempts.length} · **Model calls:** ${u.calls} · **Tokens:** ${tokens}${cost}`;
}

/** One line per attempt: what the edits did, whether tests passed, whether it was kept. */
export function renderAttempts(report: FixReport): string {
  if (report.attempts.length === 0) return "";
  const rows = report.attempts.map((attempt) => {
    const applied = attempt.edits.filter((e) => e.ok).length;
    const failed = attempt.edits.length - applied;
    const edits = `${applied} applied${failed > 0 ? `, ${failed} refused` : ""}${attempt.retried ? " (after a retry)" : ""}`;
    const tests = attempt.tests === null ? "—" : attempt.tests.passed ? "passed" : "failed";
    // A kept attempt's note says what the tests left open (failures from before, a test that failed once).
    const note = attempt.note === undefined ? "" : `: ${quoteInline(attempt.note)}`;
    const kept = `${attempt.accepted ? "kept" : "not kept"}${note}`;
    return `| ${attempt.number} | ${edits} | ${tests} | ${kept} |`;
  });
  return details("Attempts", ["| # | edits | tests | result |", "|---|---|---|---|", ...rows].join("\n"));
}

export function renderChanges(report: FixReport): string {
  const parts: string[] = [];
  if (report.diffStat.trim() !== "") parts.push(fence(report.diffStat.trimEnd()));
  if (report.diff.trim() !== "") parts.push(details("Diff", fence(truncate(report.diff), "diff")));
  return parts.join("\n\n");
}

export function renderNotes(report: FixReport): string {
  const notes = report.notes ?? [];
  return notes.map((note) => `> ${quoteInline(note)}`).join("\n");
}

/** The model-readable failure, in a code block so nothing in it can render as markup or a command. */
export function renderFailure(report: FixReport): string {
  const failure = report.failure;
  if (failure === undefined) return `The loop ended with status \`${report.status}\`.`;
  return [`**Reason:** \`${quoteInline(failure.reason)}\``, "", fence(truncate(failure.message, 8000))].join("\n");
}

/**
 * The last test output, when the tests are what failed: the end of each failed step besides the tests (a lint's
 * errors come before the tests' output, whose end would not show them), then the end of the whole output.
 */
export function renderTestTail(report: FixReport): string {
  const after = report.tests.after;
  if (after === null || after.passed) return "";
  const parts = failedSideSteps(after)
    .filter((step) => (step.tail ?? "").trim() !== "")
    .map((step) => details(`Output of ${htmlText(step.command)} (tail)`, fence(truncateStart(step.tail!, 3000))));
  if (after.tail.trim() !== "") parts.push(details("Test output (tail)", fence(truncateStart(after.tail, 6000))));
  return parts.join("\n\n");
}

/** Text from elsewhere inside an HTML element (a `<summary>`): no tag, no entity, no mention. */
const htmlText = (text: string): string =>
  quoteInline(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
