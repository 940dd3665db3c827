/**
 * How fast the App answers GitHub: `node dist/cli.js serve` (the built CLI) against the fake GitHub and model on
 * 127.0.0.1 receives 500 signed `issue_comment` deliveries (every fifth one a redelivery) on five issues, while its
 * workers run the commands it has taken in: once as a burst (25 at a time, as fast as it answers), once at a steady
 * 100 a second. The answer waits only for the command's record to be on disk (with the embedded store, one
 * fdatasync of the delivery journal on the webhook thread); the permission check, the 👀 and the comments come after.
 * GitHub gives up on an answer after 10 s. Targets: p99 under 1 s in the burst, under 50 ms at 100 a second. The
 * deliveries are sent from a process of their own (answers-client.ts).
 */
import { spawn } from "node:child_process";
import { text } from "node:stream/consumers";
import { fileURLToPath } from "node:url";
import { createRepo, issueComment, SECRET, startHarness } from "../test/e2e/app-harness.js";
import type { ClientPlan, ClientResult } from "./answers-client.js";
import { startRedis } from "../test/fakes/redis-server.js";
import type { Section } from "./section.js";
import { percentile } from "./timing.js";
import { markdownTable } from "./table.js";

const DELIVERIES = 500;
const PARALLEL = 25;
const ISSUES = 5;
const TARGET_P99_MS = 1_000;
const RATE_PER_SECOND = 100;
const TARGET_PACED_P99_MS = 50;

export interface AnswersResult {
  /** "burst": PARALLEL at a time; "paced": RATE_PER_SECOND a second. */
  readonly mode: "burst" | "paced";
  readonly store: "embedded" | "redis";
  readonly deliveries: number;
  readonly parallel: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** As the server measured it, from arrival to answer. */
  readonly serverP50Ms: number;
  readonly serverP99Ms: number;
  readonly wallMs: number;
  readonly statuses: Readonly<Record<string, number>>;
}

/** Runs answers-client.ts in a child process (under the loader this bench runs with). */
async function sendFromAnotherProcess(plan: ClientPlan): Promise<ClientResult> {
  const client = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(new URL("./answers-client.ts", import.meta.url))],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  client.stdin.end(JSON.stringify(plan));
  const [output, code] = await Promise.all([
    text(client.stdout),
    new Promise<number | null>((resolve) => client.once("exit", resolve)),
  ]);
  if (code !== 0) throw new Error(`the answers client exited with ${String(code)}`);
  return JSON.parse(output) as ClientResult;
}

export async function measureAnswers(
  log: (line: string) => void,
  mode: "burst" | "paced",
  /** Redis, with `serve --workers 0`: the webhook process only stores (no worker runs beside it). */
  redisUrl?: string,
): Promise<AnswersResult> {
  const harness = await startHarness({
    tmpInRoot: true,
    ...(redisUrl === undefined ? {} : { redis: { url: redisUrl, workers: 0 } }),
  });
  try {
    const full = createRepo(harness);
    for (let n = 1; n <= ISSUES; n++) {
      harness.github.issues.set(`${full}#${String(n)}`, { title: "Stats", body: "mean is off" });
    }
    const deliveries = Array.from({ length: DELIVERIES }, (_, i) => {
      // Every fifth delivery repeats an earlier one (same delivery id), as GitHub's redeliveries do.
      const n = i % 5 === 4 ? i - 3 : i;
      const payload = issueComment(harness, full, (n % ISSUES) + 1, `/fix make mean divide by the count (${n})`, {
        id: 70_000 + n,
      });
      return { id: `answers-${String(n)}`, payload };
    });
    log(`answers: ${String(DELIVERIES)} deliveries, ${mode}`);
    const plan: ClientPlan = {
      url: `${harness.appUrl}/api/github/webhooks`,
      secret: SECRET,
      mode,
      parallel: PARALLEL,
      perSecond: RATE_PER_SECOND,
      deliveries: deliveries.map((d) => ({ id: d.id, event: "issue_comment", body: JSON.stringify(d.payload) })),
    };
    const { latenciesMs: latencies, statuses, wallMs } = await sendFromAnotherProcess(plan);
    const sorted = [...latencies].sort((a, b) => a - b);
    // The server's own view (its summary on /metrics), from the request's arrival on its event loop: what the
    // client measures beyond it is time the request waited for that loop.
    const metrics = await (await fetch(`${harness.appUrl}/metrics`)).text();
    const served = (q: string): number => {
      const line = metrics
        .split("\n")
        .find((l) => l.startsWith(`patchsmith_webhook_answer_seconds{quantile="${q}",status="200"}`));
      return line === undefined ? Number.NaN : Number(line.split(" ")[1]) * 1000;
    };
    return {
      mode,
      store: redisUrl === undefined ? "embedded" : "redis",
      deliveries: DELIVERIES,
      parallel: PARALLEL,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.at(-1) ?? Number.NaN,
      serverP50Ms: served("0.5"),
      serverP99Ms: served("0.99"),
      wallMs,
      statuses,
    };
  } finally {
    await harness.stop();
  }
}

export const answersSection: Section = {
  name: "answers",
  async run({ log }) {
    const results = [await measureAnswers(log, "burst"), await measureAnswers(log, "paced")];
    const redis = await startRedis();
    try {
      results.push(await measureAnswers(log, "paced", redis.url));
    } finally {
      await redis.stop();
      redis.cleanup();
    }
    const label = (r: AnswersResult): string =>
      (r.mode === "burst" ? `burst, ${String(r.parallel)} at a time` : `${String(RATE_PER_SECOND)} a second`) +
      (r.store === "redis" ? ", Redis, `serve --workers 0`" : ", embedded, workers in the process");
    const rows = results.map((r) => [
      label(r),
      `${r.p50Ms.toFixed(1)} ms`,
      `${r.p99Ms.toFixed(1)} ms`,
      `${r.maxMs.toFixed(1)} ms`,
      `${r.serverP50Ms.toFixed(1)} ms / ${r.serverP99Ms.toFixed(1)} ms`,
      `${(r.wallMs / 1000).toFixed(2)} s`,
      Object.entries(r.statuses)
        .map(([s, n]) => `${s} ×${String(n)}`)
        .join(", "),
    ]);
    const markdown = [
      "## Answers to GitHub",
      "",
      `${String(DELIVERIES)} signed deliveries (every fifth a redelivery) on ${String(ISSUES)} issues to \`patchsmith ` +
        "serve` while its workers run the commands.",
      "",
      markdownTable(
        ["load", "answer p50", "answer p99", "answer max", "server's own p50 / p99", "whole run", "statuses"],
        rows,
      ),
      "",
    ].join("\n");
    const allOk = (r: AnswersResult): boolean => Object.keys(r.statuses).every((s) => s === "200");
    const [burst, paced, shared] = results as [AnswersResult, AnswersResult, AnswersResult];
    const targets = [
      {
        target: `webhook answer p99 under ${String(TARGET_P99_MS)} ms in a burst of ${String(DELIVERIES)}`,
        measured: `${burst.p99Ms.toFixed(0)} ms`,
        met: burst.p99Ms < TARGET_P99_MS && allOk(burst),
      },
      ...[paced, shared].map((r) => ({
        target: `webhook answer p99 under ${String(TARGET_PACED_P99_MS)} ms at ${String(RATE_PER_SECOND)} a second (${r.store})`,
        measured: `${r.p99Ms.toFixed(1)} ms`,
        met: r.p99Ms < TARGET_PACED_P99_MS && allOk(r),
      })),
    ];
    return {
      markdown,
      figures: results,
      targets,
      findings: targets.filter((t) => !t.met).map((t) => `answers: ${t.target} missed (${t.measured})`),
    };
  },
};
