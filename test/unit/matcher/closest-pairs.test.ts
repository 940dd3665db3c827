import { describe, expect, it } from "vitest";
import { closestPairs } from "../../../src/matcher/closest-pairs.js";

/** Equal lines score 1, lines sharing their first letter 0.85 (a drifted copy), others may not pair. */
const score = (x: string, y: string): number => (x === y ? 1 : x[0] === y[0] ? 0.85 : 0);

describe("closestPairs", () => {
  it("keeps order and pairs a drifted line in its own slot rather than skipping it for an equal line later", () => {
    // a, b' (drifted), c against a, b, c: three pairs beat the two equal ones.
    expect(closestPairs(["a", "bx", "c"], ["a", "b", "c"], score)).toEqual([0, 1, 2]);
  });

  it("breaks a tie between two copies towards earlier lines, or later ones when asked", () => {
    expect(closestPairs(["}"], ["}", "}"], score)).toEqual([0]);
    expect(closestPairs(["}"], ["}", "}"], score, { late: true })).toEqual([1]);
  });

  it("prefers the copy that matches byte for byte when the keys tie", () => {
    const exact = (_r: number, c: number): boolean => c === 1;
    expect(closestPairs(["}"], ["}", "}"], score, { exact })).toEqual([1]);
    expect(closestPairs(["}"], ["}", "}"], score, { exact, late: true })).toEqual([1]);
  });

  it("prefers a reading without a skipped line in the middle, whichever way ties go", () => {
    // x, y against x, y, y: pairing y with the second y skips a line between the pairs.
    expect(closestPairs(["x", "y"], ["x", "y", "y"], score, { late: true })).toEqual([0, 1]);
  });

  it("lets a line close to nothing stand for one line only with `any`, and never instead of a close pair", () => {
    expect(closestPairs(["a", "?", "c"], ["a", "q", "c"], score)).toEqual([0, -1, 2]);
    expect(closestPairs(["a", "?", "c"], ["a", "q", "c"], score, { any: true })).toEqual([0, 1, 2]);
    expect(closestPairs(["?", "b"], ["b", "z"], score, { any: true })).toEqual([-1, 0]);
  });

  it("pairs nothing when either side is empty", () => {
    expect(closestPairs([], ["a"], score)).toEqual([]);
    expect(closestPairs(["a"], [], score)).toEqual([-1]);
  });
});
