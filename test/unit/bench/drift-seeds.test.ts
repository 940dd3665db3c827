import { describe, expect, it } from "vitest";
import { parseSeeds } from "../../../bench/drift.js";

describe("PATCHSMITH_BENCH_DRIFT_SEEDS", () => {
  it("reads single seeds and inclusive ranges, and refuses anything else", () => {
    expect(parseSeeds("9100-9102, 9300")).toEqual([9100, 9101, 9102, 9300]);
    expect(parseSeeds("5-3")).toBeUndefined();
    expect(parseSeeds("seven")).toBeUndefined();
  });
});
