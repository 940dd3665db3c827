/**
 * The fuzzy search compares only the windows the decision can read. Checked against every window that shares
 * half the lines, compared exhaustively: the same best window, and every window that could be a rival, a near
 * reading or the hinted one among those compared.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseText } from "../../../src/core/text.js";
import { better, scoreWindows, UNPAIRED_LINE_COST, type Scored } from "../../../src/matcher/fuzzy-search.js";
import { looseKeys } from "../../../src/matcher/rungs/unicode.js";
import { similarity } from "../../../src/matcher/similarity.js";

const OPTIONS = { threshold: 0.9, margin: 0.05, budget: Infinity };

/** Every window of the three sizes sharing half the wanted lines, with its exact similarity and charged score. */
function exhaustive(keys: readonly string[], want: readonly string[]): Scored[] {
  const wanted = want.filter((k) => k !== "");
  const minShared = Math.ceil(wanted.length / 2);
  const wantText = want.join("\n");
  const nonBlank = (lines: readonly string[]): number => lines.filter((k) => k !== "").length;
  const all: Scored[] = [];
  for (const size of [want.length - 1, want.length, want.length + 1]) {
    for (let start = 0; size >= 1 && start + size <= keys.length; start++) {
      const window = keys.slice(start, start + size);
      const rest = [...wanted];
      let shared = 0;
      for (const line of window) {
        const at = rest.indexOf(line);
        if (at >= 0) {
          rest.splice(at, 1);
          shared++;
        }
      }
      if (shared < minShared) continue;
      const text = window.join("\n");
      const sim = similarity(wantText, text, Infinity)!.similarity;
      const unpaired = size === want.length ? 0 : Math.abs(nonBlank(window) - nonBlank(want));
      const charged = sim - (unpaired * UNPAIRED_LINE_COST) / Math.max(wantText.length, text.length, 1);
      all.push({ start, size, similarity: sim, charged });
    }
  }
  return all;
}

// Look-alike lines: most windows share some, few are the same.
const line = fc.constantFrom(
  "}",
  "",
  "return total;",
  "let total = 0;",
  "total += order.price * 2;",
  "total += order.prize * 2;",
  "total += item.price * 3;",
  "if (total > limit) {",
  "if (total >= limit) {",
  "log(`order ${order.id}`);",
);

describe("fuzzy search", () => {
  it("compares the best window, every window within the margin of it, and the hinted ones above the floor", () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 4, maxLength: 40 }),
        fc.nat(),
        fc.integer({ min: 2, max: 6 }),
        fc.nat(),
        fc.option(fc.nat(), { nil: undefined }),
        (lines, from, size, typoAt, hintSeed) => {
          const keys = looseKeys(parseText(`${lines.join("\n")}\n`));
          const start = from % keys.length;
          const want = keys
            .slice(start, start + size)
            .map((k, i) => (i === typoAt % size && k.length > 3 ? `${k}x` : k));
          if (want.filter((k) => k !== "").length < 2) return;
          const hinted = hintSeed === undefined ? undefined : hintSeed % keys.length;
          const found = scoreWindows(parseText(`${lines.join("\n")}\n`), want, OPTIONS, hinted);
          expect(found).not.toBe("exhausted");
          if (found === "exhausted") return;
          const lowest = OPTIONS.threshold - OPTIONS.margin;
          const every = exhaustive(keys, want);
          const all = every.filter((w) => w.similarity >= lowest);
          const id = (w: Scored): string => `${String(w.start)}+${String(w.size)}`;
          const compared = new Map(found.map((w) => [id(w), w]));
          // Each compared window shares half the lines, and its scores are the exhaustive ones.
          for (const w of found) expect(w).toEqual(every.find((e) => id(e) === id(w)));
          if (all.length === 0) return;
          const best = all.reduce((a, b) => (better(b, a, want.length) ? b : a));
          expect(compared.get(id(best))).toEqual(best);
          for (const w of all) {
            const covers = hinted !== undefined && w.start <= hinted && hinted < w.start + w.size;
            if (w.similarity > best.charged - OPTIONS.margin || covers) expect(compared.get(id(w))).toEqual(w);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("sweeps again below the seeds' floor when the best window is charged for a line it lacks", () => {
    // The seeds' best is the window of the SEARCH's own size; a window one line shorter is more similar but
    // charged for the line it lacks, so the floor it sets is lower than the seeds' one.
    const lines = [
      "}",
      "x",
      "log(`order ${order.id}`);",
      "total += order.price * 22;",
      "if (total > limit) {",
      "let total = 0;",
      "total += order.price * 2;",
      "let total = 0;",
    ];
    const want = [
      "x",
      "log(`order ${order.id}`);",
      "total += order.price * 22;",
      "if (total > limit) {",
      "}",
      "let total = 0;",
      "total += order.price * 2;",
    ];
    const file = parseText(`${lines.join("\n")}\n`);
    const found = scoreWindows(file, want, OPTIONS, undefined);
    expect(found).not.toBe("exhausted");
    if (found === "exhausted") return;
    const every = exhaustive(looseKeys(file), want);
    const best = every.reduce((a, b) => (better(b, a, want.length) ? b : a));
    expect(best.charged).toBeLessThan(best.similarity);
    const within = every.filter((w) => w.similarity > best.charged - OPTIONS.margin);
    expect(within.length).toBeGreaterThan(1);
    const compared = new Set(found.map((w) => `${String(w.start)}+${String(w.size)}`));
    for (const w of within) expect(compared).toContain(`${String(w.start)}+${String(w.size)}`);
  });

  it("orders windows totally, so the order they were compared in never decides", () => {
    const at = (start: number, size: number): Scored => ({ start, size, similarity: 0.95, charged: 0.95 });
    // Same similarity and the same distance from the SEARCH's 4 lines: the earlier, then the shorter, first.
    expect(better(at(3, 3), at(3, 5), 4)).toBe(true);
    expect(better(at(3, 5), at(3, 3), 4)).toBe(false);
    expect(better(at(2, 5), at(3, 3), 4)).toBe(true);
    expect(better(at(3, 4), at(2, 5), 4)).toBe(true);
  });
});
