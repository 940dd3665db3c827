/**
 * The two queues under load, without HTTP: how long an add takes to be durable when commands arrive at a steady 100 a
 * second (the webhook's answer waits for exactly this), and how many no-op jobs a second flow through (the queue's own
 * cost per job: store, hand over, run, remove). The embedded store fsyncs every record; Redis runs with
 * `appendfsync always` (a real `redis-server` on 127.0.0.1, as the tests start it). Target: p99 under 50 ms for both.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createFileQueue } from "../src/adapters/file-queue.js";
import { createRedisQueue } from "../src/adapters/redis-queue.js";
import type { JobQueue } from "../src/ports/job-queue.js";
import { startRedis } from "../test/fakes/redis-server.js";
import type { Section } from "./section.js";
import { percentile } from "./timing.js";
import { markdownTable } from "./table.js";

const RATE_PER_SECOND = 100;
const PACED_ADDS = 1_000;
const THROUGHPUT_JOBS = 1_000;
const GROUPS = 50;
const TARGET_P99_MS = 50;

export interface QueueFigures {
  readonly queue: string;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly jobsPerSecond: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Adds at a steady rate (not waiting for one add before the next is due) and times each. */
async function pacedAdds(queue: JobQueue<string>, prefix: string): Promise<number[]> {
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < PACED_ADDS; i++) {
    const due = start + (i * 1000) / RATE_PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const sent = performance.now();
    pending.push(
      queue.add(`job ${String(i)}`, { id: `${prefix}-${String(i)}`, group: `g${String(i % GROUPS)}` }).then(() => {
        latencies.push(performance.now() - sent);
      }),
    );
  }
  await Promise.all(pending);
  return latencies.sort((a, b) => a - b);
}

/** Adds a batch of no-op jobs, then times how long the queue takes to run them all. */
async function throughput(queue: JobQueue<string>, prefix: string): Promise<number> {
  let done = 0;
  const finished = new Promise<void>((resolve) => {
    queue.start(
      () => {
        done += 1;
        if (done === THROUGHPUT_JOBS) resolve();
        return Promise.resolve();
      },
      () => undefined,
    );
  });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: THROUGHPUT_JOBS }, (_, i) =>
      queue.add("noop", { id: `${prefix}-t${String(i)}`, group: `t${String(i % GROUPS)}` }),
    ),
  );
  await finished;
  return THROUGHPUT_JOBS / ((performance.now() - start) / 1000);
}

function figures(queue: string, latencies: readonly number[], jobsPerSecond: number): QueueFigures {
  return {
    queue,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.at(-1) ?? Number.NaN,
    jobsPerSecond,
  };
}

export async function measureQueues(log: (line: string) => void): Promise<QueueFigures[]> {
  const results: QueueFigures[] = [];
  const dir = mkdtempSync(join(tmpdir(), "patchsmith-bench-queue-"));
  try {
    log("queues: embedded store");
    const paced = await createFileQueue<string>({ dir: join(dir, "paced"), concurrency: 8, parse: String });
    const latencies = await pacedAdds(paced, "paced");
    await paced.close();
    const flow = await createFileQueue<string>({ dir: join(dir, "flow"), concurrency: 8, parse: String });
    const perSecond = await throughput(flow, "flow");
    await flow.close();
    results.push(figures("embedded (files, fsync'd)", latencies, perSecond));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const redis = await startRedis();
  try {
    log("queues: Redis");
    const parse = (value: unknown) => (typeof value === "string" ? value : undefined);
    const paced = await createRedisQueue<string>({ url: redis.url, name: "paced", concurrency: 8, parse });
    const latencies = await pacedAdds(paced, "paced");
    await paced.close();
    const flow = await createRedisQueue<string>({ url: redis.url, name: "flow", concurrency: 8, parse });
    const perSecond = await throughput(flow, "flow");
    await flow.close();
    results.push(figures("Redis (appendfsync always)", latencies, perSecond));
  } finally {
    await redis.stop();
    redis.cleanup();
  }
  return results;
}

export const queuesSection: Section = {
  name: "queues",
  async run({ log }) {
    const results = await measureQueues(log);
    const rows = results.map((r) => [
      r.queue,
      `${r.p50Ms.toFixed(1)} ms`,
      `${r.p99Ms.toFixed(1)} ms`,
      `${r.maxMs.toFixed(1)} ms`,
      `${r.jobsPerSecond.toFixed(0)}/s`,
    ]);
    const markdown = [
      "## Queues",
      "",
      `${String(PACED_ADDS)} adds at ${String(RATE_PER_SECOND)} a second over ${String(GROUPS)} threads (the time until ` +
        `each is durable), then ${String(THROUGHPUT_JOBS)} no-op jobs through each queue.`,
      "",
      markdownTable(["queue", "add p50", "add p99", "add max", "no-op jobs"], rows),
      "",
    ].join("\n");
    const targets = results.map((r) => ({
      target: `${r.queue}: durable add p99 under ${String(TARGET_P99_MS)} ms at ${String(RATE_PER_SECOND)}/s`,
      measured: `${r.p99Ms.toFixed(1)} ms`,
      met: r.p99Ms < TARGET_P99_MS,
    }));
    return {
      markdown,
      figures: results,
      targets,
      findings: targets.filter((t) => !t.met).map((t) => `queues: ${t.target} missed (${t.measured})`),
    };
  },
};
