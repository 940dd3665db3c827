/**
 * Accuracy: the scenario corpus (test/fixtures/cases via the scenario runner), scored per category. The runner
 * decides each case's outcome; this section only counts, times and prints.
 */
import { performance } from "node:perf_hooks";
import { loadCases, runCase } from "../test/scenarios/corpus.js";
import { accuracyFindings, accuracyTargets, hintCoverage, summarizeCases } from "./accuracy-score.js";
import type { AccuracySummary, CaseFigure, Counts } from "./accuracy-score.js";
import type { Section, SectionContext, SectionReport } from "./section.js";
import { markdownTable, percent } from "./table.js";
import { formatMs } from "./timing.js";

function renderAccuracy(
  summary: AccuracySummary,
  cases: readonly CaseFigure[],
  hints: { cases: number; quoted: number },
  totalMs: number,
): string {
  const row = (name: string, c: Counts): string[] => [
    name,
    String(c.cases),
    String(c.correct),
    String(c.refused),
    String(c.wrong),
    String(c.missed),
    percent(c.correct, c.cases),
  ];
  const rows = summary.byCategory.map((c) => row(c.recoverable ? `${c.category} *` : c.category, c));
  rows.push(row("**total**", summary.total));
  const header = ["category", "cases", "correct", "refused", "wrong", "missed", "% correct"];
  const slowest = [...cases].sort((x, y) => y.ms - x.ms).slice(0, 3);
  return [
    "## Accuracy (scenario corpus)",
    "",
    markdownTable(header, rows, ["left", "right", "right", "right", "right", "right", "right"]),
    "",
    `\\* recoverable category. **Wrong applies: ${summary.wrong}** (target 0). ` +
      `**Recoverable, expecting apply: ${percent(summary.recoverable.correct, summary.recoverable.cases)}** ` +
      `(${summary.recoverable.correct}/${summary.recoverable.cases}; target ≥ 99 %).`,
    "",
    `Failure messages quoting every expected real line (cases with a \`hint\`): ${hints.quoted}/${hints.cases}.`,
    "",
    `${cases.length} cases in ${formatMs(totalMs)} ms (temp tree copy + apply + compare per case); slowest: ` +
      (slowest.map((c) => `${c.id} ${formatMs(c.ms)} ms`).join(", ") || "–") +
      ".",
    "",
  ].join("\n");
}

export async function runAccuracy(context: SectionContext): Promise<SectionReport> {
  const loaded = await loadCases();
  context.log(`accuracy: ${loaded.length} cases`);
  const cases: CaseFigure[] = [];
  const started = performance.now();
  for (const c of loaded) {
    const start = performance.now();
    const run = await runCase(c);
    cases.push({
      id: run.id,
      category: run.category,
      expect: run.expect,
      outcome: run.outcome,
      ms: performance.now() - start,
      detail: run.detail,
      hints: { expected: c.hint.length, missing: run.missingHints.length },
    });
  }
  const totalMs = performance.now() - started;
  const summary = summarizeCases(cases);
  const hints = hintCoverage(cases);
  return {
    markdown: renderAccuracy(summary, cases, hints, totalMs),
    figures: { ...summary, hints, totalMs, cases },
    targets: accuracyTargets(summary),
    findings: accuracyFindings(cases),
  };
}

export const accuracySection: Section = { name: "accuracy", run: runAccuracy };
