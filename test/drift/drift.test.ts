/**
 * The drift harness as a test: a seeded run over real source files with realistic model faults, in every dialect.
 * It fails on any wrong apply (the file changed to something other than the intended result) and when needless
 * refusals (mild drift on a window that is unique even loosely) exceed 2 % of the cases that must land.
 * DRIFT_CASES and DRIFT_SEED override the size and seed of the run (e.g. to reproduce a bench finding).
 */
import { describe, expect, test } from "vitest";
import { DRIFT_KINDS } from "./drift.js";
import { FAULT_KINDS, generateCase } from "./faults.js";
import { DIALECTS } from "./render.js";
import { describeCase, formatTallies, groupBy, runDrift } from "./run.js";

const CASES = Number(process.env.DRIFT_CASES ?? 1200);
const SEED = Number(process.env.DRIFT_SEED ?? 20240611);
const NEEDLESS_BOUND = 0.02;

describe("drift harness", () => {
  test("generates the same case for the same seed and index", () => {
    for (let i = 0; i < 20; i++) expect(generateCase(SEED, i)).toEqual(generateCase(SEED, i));
    expect(generateCase(SEED, 1).reply).not.toBe(generateCase(SEED + 1, 1).reply);
  });

  test("every generated case intends a real change", () => {
    for (let i = 0; i < 200; i++) {
      const c = generateCase(SEED, i);
      expect(c.intended, c.id).not.toBe(c.before);
      expect(c.reply, c.id).toContain(c.dialect === "whole" ? "```" : c.path.split("/").pop()!);
    }
  });

  test(`no wrong apply and few needless refusals over ${CASES} seeded cases`, async () => {
    const run = await runDrift(CASES, SEED);
    const byFault = groupBy(run, (c) => c.fault, FAULT_KINDS);
    const byDialect = groupBy(run, (c) => c.dialect, DIALECTS);
    const wrong = run.judged.filter((j) => j.verdict.outcome === "wrong");
    const needless = run.judged.filter((j) => j.verdict.needless);
    const report = [
      `seed ${SEED}, ${CASES} cases: ${JSON.stringify(run.total)}`,
      formatTallies("fault", byFault),
      formatTallies("dialect", byDialect),
      ...wrong.slice(0, 8).map(describeCase),
      ...needless.slice(0, 4).map(describeCase),
    ].join("\n\n");
    // The run covers what it claims to.
    expect([...byFault.values()].filter((t) => t.correct + t.refused + t.wrong + t.doubtful > 0).length).toBe(
      FAULT_KINDS.length,
    );
    expect(DRIFT_KINDS.length).toBeGreaterThan(10);
    expect(wrong.length, report).toBe(0);
    expect(needless.length, report).toBeLessThanOrEqual(Math.floor(NEEDLESS_BOUND * run.total.mustLand));
  }, 60_000);
});
