import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LinePositions } from "../../../src/core/line-positions.js";

/** The lines holding `n`, by looking at each. */
const scan = (numbers: readonly number[], n: number): number[] => numbers.flatMap((m, i) => (m === n ? [i] : []));

const edit = fc.record({
  at: fc.nat(),
  removed: fc.nat({ max: 6 }),
  added: fc.array(fc.nat({ max: 7 }), { maxLength: 6 }),
});

describe("line positions", () => {
  it("finds the lines holding a number, in order, on the version it was built on", () => {
    const numbers = [3, 1, 3, 0, 3, 2];
    const index = LinePositions.build(numbers);
    expect(index.lines(3, numbers)).toEqual([0, 2, 4]);
    expect(index.lines(5, numbers)).toEqual([]);
    expect(index.lines(-1, numbers)).toEqual([]);
    expect(index.estimate(3)).toBe(3);
  });

  it("tells apart numbers that share their low bits (one bucket), negative ones too", () => {
    const numbers = [1 << 20, 0, -(1 << 20), 1 << 20, 0];
    const index = LinePositions.build(numbers);
    expect(index.lines(1 << 20, numbers)).toEqual([0, 3]);
    expect(index.lines(0, numbers)).toEqual([1, 4]);
    expect(index.lines(-(1 << 20), numbers)).toEqual([2]);
    expect(index.lines(2 << 20, numbers)).toEqual([]);
    // The estimate counts the bucket: never fewer than the lines holding the number.
    expect(index.estimate(0)).toBeGreaterThanOrEqual(2);
  });

  it("follows every edit: the lines it names are those a scan finds, until it gives up and is built again", () => {
    // Numbers 64 apart share a bucket on every file this short.
    const number = fc.nat({ max: 5 }).map((n) => n * 64);
    fc.assert(
      fc.property(fc.array(number, { maxLength: 60 }), fc.array(edit, { maxLength: 12 }), (base, edits) => {
        let numbers = [...base];
        let index = LinePositions.build(numbers);
        for (const { at, removed, added } of edits) {
          const start = Math.min(at, numbers.length);
          const count = Math.min(removed, numbers.length - start);
          numbers = [...numbers.slice(0, start), ...added.map((n) => n * 64), ...numbers.slice(start + count)];
          index = index.spliced(start, count, added.length) ?? LinePositions.build(numbers);
          for (let n = 0; n <= 8; n++) expect(index.lines(n * 64, numbers)).toEqual(scan(numbers, n * 64));
        }
      }),
    );
  });

  it("asks to be built again once the lines edits wrote outgrow an eighth of the file", () => {
    const numbers = Array.from({ length: 1000 }, (_, i) => i % 10);
    let index: LinePositions | undefined = LinePositions.build(numbers);
    let edits = 0;
    while (index !== undefined && edits < 1000) {
      index = index.spliced(0, 0, 10);
      edits++;
    }
    expect(edits).toBe(13);
  });
});
