import { describe, expect, it } from "vitest";
import { closestPairs, type ClosestOptions } from "../../../src/matcher/closest-pairs.js";

/** Equal lines score 1, lines sharing their first letter 0.85 (a drifted copy), others may not pair. */
const score = (x: string, y: string): number => (x === y ? 1 : x[0] === y[0] ? 0.85 : 0);

/** closestPairs over two lists of lines. */
const pairs = (a: string[], b: string[], options?: ClosestOptions): number[] =>
  closestPairs(a.length, b.length, (r, c) => score(a[r]!, b[c]!), options);

describe("closestPairs", () => {
  it("keeps order and pairs a drifted line in its own slot rather than skipping it for an equal line later", () => {
    // a, b' (drifted), c against a, b, c: three pairs beat the two equal ones.
    expect(pairs(["a", "bx", "c"], ["a", "b", "c"])).toEqual([0, 1, 2]);
  });

  it("breaks a tie between two copies towards earlier lines, or later ones when asked", () => {
    expect(pairs(["}"], ["}", "}"])).toEqual([0]);
    expect(pairs(["}"], ["}", "}"], { late: true })).toEqual([1]);
  });

  it("prefers the copy that matches byte for byte when the keys tie", () => {
    const exact = (_r: number, c: number): boolean => c === 1;
    expect(pairs(["}"], ["}", "}"], { exact })).toEqual([1]);
    expect(pairs(["}"], ["}", "}"], { exact, late: true })).toEqual([1]);
  });

  it("prefers a reading without a skipped line in the middle, whichever way ties go", () => {
    // x, y against x, y, y: pairing y with the second y skips a line between the pairs.
    expect(pairs(["x", "y"], ["x", "y", "y"], { late: true })).toEqual([0, 1]);
  });

  it("lets a line close to nothing stand for one line only with `any`, and never instead of a close pair", () => {
    expect(pairs(["a", "?", "c"], ["a", "q", "c"])).toEqual([0, -1, 2]);
    expect(pairs(["a", "?", "c"], ["a", "q", "c"], { any: true })).toEqual([0, 1, 2]);
    expect(pairs(["?", "b"], ["b", "z"], { any: true })).toEqual([-1, 0]);
  });

  it("pairs nothing when either side is empty", () => {
    expect(pairs([], ["a"])).toEqual([]);
    expect(pairs(["a"], [])).toEqual([-1]);
  });
});
