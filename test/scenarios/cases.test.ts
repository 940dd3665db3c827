/**
 * One test per scenario case (test/fixtures/cases/*): the engine must land every recoverable edit exactly and
 * refuse every unsafe one without touching the tree, with the expected reason and a helpful message.
 */
import { describe, expect, test } from "vitest";

import { CATEGORIES } from "./categories.js";
import { loadCases, runCase } from "./corpus.js";

const cases = await loadCases();

describe("scenario corpus", () => {
  test.each(cases)("$category: $id", async (c) => {
    const run = await runCase(c);
    expect(run.outcome, `${c.note}\n${run.detail}\n${run.differences.join("\n")}`).toBe("correct");
    if (c.expect === "refuse") {
      expect(run.differences, "a refusal leaves the tree (and everything around it) as it was").toEqual([]);
      expect(
        run.reasons.filter((r) => c.reasons.includes(r)).length,
        `reasons: ${run.reasons.join(", ")}`,
      ).toBeGreaterThan(0);
      expect(run.missingHints, `messages:\n${run.messages.join("\n---\n")}`).toEqual([]);
      if (run.saysAlready !== undefined) expect(run.saysAlready, run.messages.join("\n---\n")).toBe(true);
    }
  });

  test("the corpus is large and covers every category with meaningful expectations", () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    const seen = new Set(cases.map((c) => c.category));
    for (const category of CATEGORIES) expect(seen.has(category), category).toBe(true);
    for (const c of cases) {
      expect(CATEGORIES as readonly string[], c.id).toContain(c.category);
      expect(["editblock", "udiff", "patch", "whole", "mixed"], c.id).toContain(c.format);
      if (c.expect === "refuse") expect(c.reasons.length, c.id).toBeGreaterThan(0);
    }
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });
});
