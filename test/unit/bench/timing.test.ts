import { describe, expect, it } from "vitest";
import { formatMs, measureRounds, median, percentile, summarize } from "../../../bench/timing.js";
import type { Task } from "../../../bench/timing.js";

describe("median and percentile", () => {
  it("takes the middle value, or the mean of the two middle values", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it("uses the nearest rank for percentiles", () => {
    const samples = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5];
    expect(percentile(samples, 90)).toBe(9);
    expect(percentile(samples, 100)).toBe(10);
    expect(percentile(samples, 0)).toBe(1);
    expect(percentile([7], 90)).toBe(7);
    expect(percentile([], 90)).toBeNaN();
  });

  it("summarizes without reordering the caller's samples", () => {
    const samples = [3, 1, 2];
    expect(summarize(samples)).toEqual({ runs: 3, medianMs: 2, p90Ms: 3, minMs: 1, maxMs: 3 });
    expect(samples).toEqual([3, 1, 2]);
  });
});

describe("measureRounds", () => {
  it("runs warm-ups untimed, interleaves tasks and calls `before` before every run", async () => {
    const calls: string[] = [];
    const task = (name: string): Task => ({
      run: () => calls.push(name),
      before: () => {
        calls.push(`reset ${name}`);
      },
    });
    const stats = await measureRounds([task("a"), task("b")], { warmup: 1, runs: 2 });
    expect(stats.map((s) => s.runs)).toEqual([2, 2]);
    expect(calls).toEqual([
      "reset a",
      "a",
      "reset b",
      "b",
      "reset a",
      "a",
      "reset b",
      "b",
      "reset a",
      "a",
      "reset b",
      "b",
    ]);
  });

  it("stops at the time budget but keeps the minimum number of runs", async () => {
    const busy = (): void => {
      const end = Date.now() + 3;
      while (Date.now() < end);
    };
    const [stats] = await measureRounds([{ run: busy }], { warmup: 0, runs: 50, budgetMs: 1, minRuns: 4 });
    expect(stats!.runs).toBe(4);
    expect(stats!.minMs).toBeGreaterThan(0);
  });

  it("warms up with batches too, once the first run has sized them", async () => {
    let runs = 0;
    const [stats] = await measureRounds(
      [
        {
          run: () => {
            runs++;
          },
        },
      ],
      { warmup: 2, runs: 0, batchMs: 5 },
    );
    expect(stats!.runs).toBe(0);
    // One sizing run, then a whole batch of quick runs.
    expect(runs).toBeGreaterThan(10);
  });

  it("times batches sized from the warm-up for tasks without a `before` step, single runs for the others", async () => {
    let fast = 0;
    let reset = 0;
    let prepared = 0;
    const slow = (): void => {
      const end = Date.now() + 2;
      while (Date.now() < end);
      prepared++;
    };
    const [quick, single] = await measureRounds(
      [
        {
          run: () => {
            fast++;
          },
        },
        {
          run: slow,
          before: () => {
            reset++;
          },
        },
      ],
      { warmup: 1, runs: 3, batchMs: 5 },
    );
    // The quick task's batch holds many runs (the cap at most); each sample is the mean of one batch.
    expect(fast).toBeGreaterThan(3 * 10);
    expect(quick!.runs).toBe(3);
    expect(single!.runs).toBe(3);
    expect(prepared).toBe(4);
    expect(reset).toBe(4);
    expect(single!.minMs).toBeGreaterThanOrEqual(1);
  });

  it("awaits asynchronous tasks", async () => {
    let done = 0;
    const run = async (): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      done++;
    };
    await measureRounds([{ run }], { warmup: 1, runs: 3 });
    expect(done).toBe(4);
  });
});

describe("formatMs", () => {
  it("keeps about three significant digits", () => {
    expect(formatMs(1234.5)).toBe("1235");
    expect(formatMs(12.345)).toBe("12.3");
    expect(formatMs(1.2345)).toBe("1.23");
    expect(formatMs(0.12345)).toBe("0.123");
    expect(formatMs(Number.NaN)).toBe("–");
  });
});
