/**
 * Timing and memory helpers for the benchmark. Pure statistics plus a thin clock wrapper: the figures are printed,
 * never asserted (speed is not a test).
 */
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export interface Stats {
  /** Number of measured runs (warm-up runs excluded). */
  readonly runs: number;
  readonly medianMs: number;
  readonly p90Ms: number;
  readonly minMs: number;
  readonly maxMs: number;
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((Math.min(Math.max(p, 0), 100) / 100) * sorted.length);
  return sorted[Math.max(rank - 1, 0)]!;
}

/** Median with the usual mean of the two middle values for an even count; NaN for no samples. */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarize(samples: readonly number[]): Stats {
  return {
    runs: samples.length,
    medianMs: median(samples),
    p90Ms: percentile(samples, 90),
    minMs: samples.length === 0 ? Number.NaN : Math.min(...samples),
    maxMs: samples.length === 0 ? Number.NaN : Math.max(...samples),
  };
}

export interface MeasureOptions {
  readonly warmup: number;
  readonly runs: number;
  /**
   * Stop repeating once the measured runs (all tasks together) have taken this long, keeping at least `minRuns`,
   * so that one slow tool cannot blow the whole bench's time budget.
   */
  readonly budgetMs?: number;
  readonly minRuns?: number;
  /**
   * Time back-to-back batches of runs lasting at least this long (each sized from the one before) and record the
   * mean run of each batch: the collector then works as in a running process, each task paying for its own
   * garbage inside its own batches. Warm-up rounds run such batches too: V8 optimises a function only after many
   * calls, and a function called once per run (parsing a reply, writing the result out) would otherwise still be
   * running unoptimised code in the first timed batches. Tasks with a `before` step run one at a time.
   */
  readonly batchMs?: number;
}

/** The most runs one batch may hold (a task far faster than the batch time is still measured in bounded time). */
const MAX_BATCH = 1000;

export interface Task {
  readonly run: () => unknown;
  /** Untimed work before every run (warm-up included), e.g. restoring a file on disk. */
  readonly before?: () => void | Promise<void>;
}

/**
 * Runs the tasks in interleaved rounds (task 1, task 2, …, then again), so that a warming JIT, the collector and
 * the CPU's clock affect every task alike instead of favouring whichever runs last. Returns one Stats per task.
 */
export async function measureRounds(tasks: readonly Task[], options: MeasureOptions): Promise<Stats[]> {
  const samples: number[][] = tasks.map(() => []);
  const batches = tasks.map(() => 1);
  const minRuns = options.minRuns ?? 3;
  let spent = 0;
  for (let round = 0; round < options.warmup + options.runs; round++) {
    const timed = round >= options.warmup;
    for (const [i, task] of tasks.entries()) {
      await task.before?.();
      const count = batches[i]!;
      const start = performance.now();
      for (let k = 0; k < count; k++) await task.run();
      const elapsed = performance.now() - start;
      if (options.batchMs !== undefined && task.before === undefined) {
        const perRun = Math.max(elapsed / count, 0.001);
        batches[i] = Math.min(MAX_BATCH, Math.max(1, Math.ceil(options.batchMs / perRun)));
      }
      if (!timed) continue;
      samples[i]!.push(elapsed / count);
      spent += elapsed;
    }
    const measured = round + 1 - options.warmup;
    if (timed && options.budgetMs !== undefined && spent > options.budgetMs && measured >= minRuns) break;
  }
  return samples.map(summarize);
}

/** One task on its own: `warmup` untimed runs, then up to `runs` timed ones. */
export async function measure(run: () => unknown, options: MeasureOptions & Omit<Task, "run">): Promise<Stats> {
  const [stats] = await measureRounds([options.before ? { run, before: options.before } : { run }], options);
  return stats!;
}

let cachedGc: (() => void) | undefined;

/**
 * A handle on V8's collector without `--expose-gc` on the command line (`npm run bench` runs plain tsx): the flag
 * is set at run time and the `gc` global picked up from a fresh context, where V8 installs it.
 */
export function collectGarbage(): void {
  if (cachedGc === undefined) {
    setFlagsFromString("--expose-gc");
    cachedGc = runInNewContext("gc") as () => void;
  }
  cachedGc();
}

export interface MemoryFigure {
  /**
   * heapUsed right after one run minus heapUsed after a full collection before it: roughly what the run allocated
   * (a collection during the run lowers it; what it retains is included).
   */
  readonly allocatedMb: number;
}

const MB = 1024 * 1024;

export async function measureMemory(fn: () => unknown): Promise<MemoryFigure> {
  collectGarbage();
  collectGarbage();
  const baseline = process.memoryUsage().heapUsed;
  await fn();
  return { allocatedMb: (process.memoryUsage().heapUsed - baseline) / MB };
}

/** Formats milliseconds for a table: three significant-ish digits, never scientific notation. */
export function formatMs(ms: number): string {
  if (Number.isNaN(ms)) return "–";
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}
