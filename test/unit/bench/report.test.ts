import { describe, expect, it } from "vitest";
import {
  RECOVERABLE,
  accuracyFindings,
  accuracyTargets,
  hintCoverage,
  summarizeCases,
} from "../../../bench/accuracy-score.js";
import type { CaseFigure } from "../../../bench/accuracy-score.js";
import { parseFlags } from "../../../bench/flags.js";
import { CATEGORIES } from "../../scenarios/categories.js";
import { markdownTable, percent } from "../../../bench/table.js";

const known = ["accuracy", "speed", "loop-overhead"];

describe("parseFlags", () => {
  it("runs everything by default", () => {
    expect(parseFlags([], known)).toEqual({ only: undefined, json: false });
  });

  it("reads --only in both spellings, with commas, and --json", () => {
    expect(parseFlags(["--only", "speed", "--json"], known)).toEqual({ only: ["speed"], json: true });
    expect(parseFlags(["--only=accuracy,loop-overhead"], known)).toEqual({
      only: ["accuracy", "loop-overhead"],
      json: false,
    });
  });

  it("explains usage errors", () => {
    expect(parseFlags(["--only"], known)).toMatch(/needs a section/);
    expect(parseFlags(["--only", "sped"], known)).toMatch(/unknown section "sped"/);
    expect(parseFlags(["--fast"], known)).toMatch(/unknown argument/);
  });
});

describe("markdownTable", () => {
  it("pads columns and right-aligns where asked", () => {
    expect(
      markdownTable(
        ["name", "ms"],
        [
          ["a", "1.5"],
          ["long name", "10"],
        ],
        ["left", "right"],
      ),
    ).toBe(["| name      |  ms |", "| --------- | --: |", "| a         | 1.5 |", "| long name |  10 |"].join("\n"));
  });

  it("prints percentages with one decimal and a dash for nothing", () => {
    expect(percent(1, 3)).toBe("33.3 %");
    expect(percent(0, 0)).toBe("–");
  });
});

describe("accuracy scoring", () => {
  const cases: CaseFigure[] = [
    { id: "exact-1", category: "exact", expect: "apply", outcome: "correct", ms: 5 },
    { id: "exact-2", category: "exact", expect: "apply", outcome: "missed", ms: 5 },
    { id: "fuzzy-1", category: "fuzzy", expect: "refuse", outcome: "correct", ms: 900 },
    { id: "fuzzy-2", category: "fuzzy", expect: "apply", outcome: "wrong", ms: 5 },
    { id: "unsafe-1", category: "unsafe-path", expect: "refuse", outcome: "correct", ms: 5 },
    { id: "unsafe-2", category: "unsafe-path", expect: "apply", outcome: "refused", ms: 5 },
  ];

  it("counts as recoverable the corpus categories a good engine lands, and none that must be refused", () => {
    // Pinned so that a category added to test/scenarios/categories.ts is a deliberate choice for the headline.
    const everyCategory = summarizeCases(
      CATEGORIES.map((category) => ({ id: category, category, expect: "apply", outcome: "correct", ms: 1 })),
    );
    expect(everyCategory.recoverable.cases).toBe(18);
    for (const category of ["exact", "fuzzy", "creation", "whole-file"]) expect(RECOVERABLE.has(category)).toBe(true);
    for (const category of ["not-found", "already-applied", "path-safety", "invalid-format"])
      expect(RECOVERABLE.has(category)).toBe(false);
  });

  it("counts per category and in total, and restricts the headline to recoverable cases expecting apply", () => {
    const summary = summarizeCases(cases);
    expect(summary.total).toEqual({ cases: 6, correct: 3, refused: 1, wrong: 1, missed: 1 });
    expect(summary.byCategory.map((c) => c.category)).toEqual(["exact", "fuzzy", "unsafe-path"]);
    expect(summary.byCategory[0]).toMatchObject({ recoverable: true, cases: 2, correct: 1, missed: 1 });
    expect(summary.wrong).toBe(1);
    expect(summary.recoverable).toEqual({ cases: 3, correct: 1, percent: 100 / 3 });
  });

  it("judges the targets and names the cases behind a miss", () => {
    const summary = summarizeCases(cases);
    expect(accuracyTargets(summary).map((t) => t.met)).toEqual([false, false]);
    const perfect = summarizeCases(cases.filter((c) => c.outcome === "correct"));
    expect(accuracyTargets(perfect).map((t) => t.met)).toEqual([true, true]);
    const findings = accuracyFindings(cases);
    expect(findings.some((f) => f.includes("WRONG") && f.includes("fuzzy-2"))).toBe(true);
    expect(findings.some((f) => f.includes("missed") && f.includes("exact-2"))).toBe(true);
    expect(findings.some((f) => f.includes("slow") && f.includes("fuzzy-1"))).toBe(true);
    expect(findings.some((f) => f.includes("unsafe-1"))).toBe(false);
  });

  it("carries the runner's detail into findings and counts fully quoted hints", () => {
    const withDetail: CaseFigure[] = [
      {
        id: "nf-1",
        category: "not-found",
        expect: "refuse",
        outcome: "refused",
        ms: 1,
        detail: "wrong reason",
        hints: { expected: 2, missing: 1 },
      },
      {
        id: "nf-2",
        category: "not-found",
        expect: "refuse",
        outcome: "correct",
        ms: 1,
        hints: { expected: 1, missing: 0 },
      },
      {
        id: "nf-3",
        category: "not-found",
        expect: "refuse",
        outcome: "correct",
        ms: 1,
        hints: { expected: 0, missing: 0 },
      },
    ];
    expect(accuracyFindings(withDetail)).toEqual(["accuracy: refused nf-1 (not-found, expected refuse): wrong reason"]);
    expect(hintCoverage(withDetail)).toEqual({ cases: 2, quoted: 1 });
  });
});
