/**
 * How a test run is told (pure), in the one place every report takes it from: a phrase for the command line's
 * report, a table cell for the comment, a line under a suggestion.
 */
import { plural } from "../core/plural.js";
import type { FixReport, TestSummary } from "./types.js";
import { splitNotLoaded, testNames } from "./test-names.js";
import type { TestStepRun } from "./types.js";
import { failedSideSteps, testStepsPassed, firstFailingTestStep } from "./verdict.js";

/** Why a step failed, in a few words: the limit it ran into, its time running out, or its exit code. */
export const stepFailure = (step: TestStepRun): string =>
  step.limit?.message ?? (step.timedOut === true ? "it ran out of time" : `exit code ${step.exitCode ?? "none"}`);

export function describeTestRun(summary: TestSummary | null): string {
  if (summary === null) return "not run";
  if (summary.passed) return "pass";
  if (summary.timedOut) return `timed out after ${Math.round(summary.durationMs / 1000)} s`;
  const { failing, notLoaded } = splitNotLoaded(summary.failing, summary);
  const names = failing.length > 0 ? `: ${testNames(failing, 5)}` : "";
  const others = failedSideSteps(summary).map((step) => `\`${step.command}\` failed (${stepFailure(step)})`);
  const count =
    failing.length > 0
      ? `${failing.length} failing`
      : testStepsPassed(summary)
        ? "tests pass"
        : `tests fail (exit code ${(firstFailingTestStep(summary) ?? summary).exitCode ?? "none"})`;
  const unloaded =
    notLoaded.length > 0 ? [`${plural(notLoaded.length, "test file")} could not load: ${testNames(notLoaded, 5)}`] : [];
  return [`${count}${names}`, ...unloaded, ...others].join("; ");
}

/** A cell of the comment's before/after table. */
export function testCell(summary: TestSummary | null): string {
  if (summary === null) return "not run";
  if (summary.passed) return "✅ passed";
  if (summary.timedOut) return "⏱️ timed out";
  if (testStepsPassed(summary)) {
    return `⚠️ tests passed; ${failedSideSteps(summary)
      .map((step) => `\`${step.command}\``)
      .join(", ")} failed`;
  }
  const split = splitNotLoaded(summary.failing, summary);
  const failing = split.failing.length > 0 ? `, ${plural(split.failing.length, "failing test")}` : "";
  const unloaded = split.notLoaded.length > 0 ? `, ${plural(split.notLoaded.length, "test file")} not loaded` : "";
  return `❌ failed (exit ${summary.exitCode ?? "?"}${failing}${unloaded})`;
}

/** One sentence on the tests after the change, and how they stood before. */
export function testsLine(report: FixReport): string {
  const { before, after } = report.tests;
  if (after === null) return "No tests were run.";
  const was = before === null ? "" : before.passed ? " (passing before too)" : " (failing before)";
  return after.passed ? `Tests pass: \`${after.command}\`${was}.` : `Tests still fail: \`${after.command}\`${was}.`;
}
