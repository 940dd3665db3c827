/** Scoring of the scenario corpus's per-case outcomes (pure: counts, targets, findings). */
import { CATEGORIES, type Category } from "../test/scenarios/categories.js";
import type { TargetCheck } from "./section.js";
import { percent } from "./table.js";
import { formatMs } from "./timing.js";

/** Categories whose cases show a defect the engine cannot or must not repair: refusing them is the right outcome. */
const UNRECOVERABLE: ReadonlySet<Category> = new Set<Category>([
  "not-found",
  "already-applied",
  "creation-collision",
  "missing-original",
  "path-safety",
  "transaction",
  "invalid-format",
]);

/** Categories a good engine should land; the headline percentage counts their cases that expect "apply". */
export const RECOVERABLE: ReadonlySet<string> = new Set(CATEGORIES.filter((category) => !UNRECOVERABLE.has(category)));

export const OUTCOMES = ["correct", "refused", "wrong", "missed"] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface CaseFigure {
  readonly id: string;
  readonly category: string;
  readonly expect: string;
  readonly outcome: Outcome;
  readonly ms: number;
  /** The runner's one-line reason for the outcome. */
  readonly detail?: string;
  /** Hint lines (real lines a helpful failure should quote) that no failure message quoted. */
  readonly hints?: { readonly expected: number; readonly missing: number };
}

export type Counts = Record<Outcome, number> & { cases: number };

export interface AccuracySummary {
  readonly byCategory: readonly (Counts & { category: string; recoverable: boolean })[];
  readonly total: Counts;
  readonly wrong: number;
  readonly recoverable: { readonly cases: number; readonly correct: number; readonly percent: number };
}

const SLOW_CASE_MS = 250;
const emptyCounts = (): Counts => ({ cases: 0, correct: 0, refused: 0, wrong: 0, missed: 0 });

/** Pure scoring of the per-case outcomes; exported for the unit tests. */
export function summarizeCases(cases: readonly CaseFigure[]): AccuracySummary {
  const categories = new Map<string, Counts>();
  const total = emptyCounts();
  let recoverableCases = 0;
  let recoverableCorrect = 0;
  for (const c of cases) {
    const counts = categories.get(c.category) ?? emptyCounts();
    categories.set(c.category, counts);
    for (const target of [counts, total]) {
      target.cases++;
      target[c.outcome]++;
    }
    if (RECOVERABLE.has(c.category) && c.expect === "apply") {
      recoverableCases++;
      if (c.outcome === "correct") recoverableCorrect++;
    }
  }
  const byCategory = [...categories.entries()]
    .map(([category, counts]) => ({ category, recoverable: RECOVERABLE.has(category), ...counts }))
    .sort((x, y) => Number(y.recoverable) - Number(x.recoverable) || x.category.localeCompare(y.category));
  return {
    byCategory,
    total,
    wrong: total.wrong,
    recoverable: {
      cases: recoverableCases,
      correct: recoverableCorrect,
      percent: recoverableCases === 0 ? Number.NaN : (100 * recoverableCorrect) / recoverableCases,
    },
  };
}

/** How many cases with hint lines had every hint quoted by some failure message (the feedback's usefulness). */
export function hintCoverage(cases: readonly CaseFigure[]): { readonly cases: number; readonly quoted: number } {
  const withHints = cases.filter((c) => c.hints !== undefined && c.hints.expected > 0);
  return { cases: withHints.length, quoted: withHints.filter((c) => c.hints!.missing === 0).length };
}

export function accuracyTargets(summary: AccuracySummary): TargetCheck[] {
  const { recoverable } = summary;
  return [
    { target: "0 wrong applies", measured: String(summary.wrong), met: summary.wrong === 0 },
    {
      target: "≥ 99 % correct on recoverable cases",
      measured: `${percent(recoverable.correct, recoverable.cases)} (${recoverable.correct}/${recoverable.cases})`,
      met: recoverable.cases > 0 && recoverable.percent >= 99,
    },
  ];
}

/** Wrong applies anywhere, recoverable cases that were not applied, and slow cases, each with its id. */
export function accuracyFindings(cases: readonly CaseFigure[]): string[] {
  const findings: string[] = [];
  for (const c of cases) {
    const why = c.detail === undefined ? "" : `: ${c.detail}`;
    if (c.outcome === "wrong")
      findings.push(`accuracy: WRONG apply in ${c.id} (${c.category}, expected ${c.expect})${why}`);
    else if (RECOVERABLE.has(c.category) && c.expect === "apply" && c.outcome !== "correct")
      findings.push(`accuracy: ${c.outcome} recoverable case ${c.id} (${c.category})${why}`);
    else if (c.outcome !== "correct")
      findings.push(`accuracy: ${c.outcome} ${c.id} (${c.category}, expected ${c.expect})${why}`);
  }
  for (const c of cases.filter((x) => x.ms > SLOW_CASE_MS).sort((x, y) => y.ms - x.ms)) {
    findings.push(`accuracy: slow case ${c.id} (${c.category}) took ${formatMs(c.ms)} ms`);
  }
  return findings;
}
