/**
 * How fast the App answers GitHub under a burst: `node dist/cli.js serve` (the built CLI) against the fake GitHub and
 * model on 127.0.0.1 receives 500 signed `issue_comment` deliveries (every fifth one a redelivery) on five issues, 25
 * at a time, while its workers run the commands it has taken in. The answer waits only for the command's record to
 * be on disk (fsync'd); the permission check, the 👀 and the comments come after. GitHub gives up on an answer after
 * 10 s. Target: p99 under 1 s.
 */
import { performance } from "node:perf_hooks";
import { createRepo, deliver, issueComment, startHarness } from "../test/e2e/app-harness.js";
import type { Section } from "./section.js";
import { markdownTable } from "./table.js";

const DELIVERIES = 500;
const PARALLEL = 25;
const ISSUES = 5;
const TARGET_P99_MS = 1_000;

export interface AnswersResult {
  readonly deliveries: number;
  readonly parallel: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly wallMs: number;
  readonly statuses: Readonly<Record<string, number>>;
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

export async function measureAnswers(log: (line: string) => void): Promise<AnswersResult> {
  const harness = await startHarness({ tmpInRoot: true });
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
    log(`answers: ${String(DELIVERIES)} deliveries, ${String(PARALLEL)} at a time`);
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let i = next++; i < deliveries.length; i = next++) {
          const delivery = deliveries[i]!;
          const sent = performance.now();
          const status = await deliver(harness, "issue_comment", delivery.payload, { id: delivery.id });
          latencies.push(performance.now() - sent);
          statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
        }
      }),
    );
    const wallMs = performance.now() - started;
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      deliveries: DELIVERIES,
      parallel: PARALLEL,
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      maxMs: sorted.at(-1) ?? Number.NaN,
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
    const result = await measureAnswers(log);
    const met = result.p99Ms < TARGET_P99_MS && Object.keys(result.statuses).every((s) => s === "200");
    const rows = [
      ["answer p50", `${result.p50Ms.toFixed(1)} ms`],
      ["answer p99", `${result.p99Ms.toFixed(1)} ms`],
      ["answer max", `${result.maxMs.toFixed(1)} ms`],
      ["whole burst", `${(result.wallMs / 1000).toFixed(2)} s`],
      [
        "statuses",
        Object.entries(result.statuses)
          .map(([s, n]) => `${s} ×${String(n)}`)
          .join(", "),
      ],
    ];
    const markdown = [
      "## Answers under a burst",
      "",
      `${String(result.deliveries)} signed deliveries (every fifth a redelivery) on ${String(ISSUES)} issues, ` +
        `${String(result.parallel)} at a time, to \`patchsmith serve\` while its workers run the commands.`,
      "",
      markdownTable(["measure", "value"], rows),
      "",
    ].join("\n");
    return {
      markdown,
      figures: result,
      targets: [
        {
          target: `webhook answer p99 under ${String(TARGET_P99_MS)} ms under a burst of ${String(DELIVERIES)}`,
          measured: `${result.p99Ms.toFixed(0)} ms`,
          met,
        },
      ],
      findings: met ? [] : [`answers: p99 ${result.p99Ms.toFixed(0)} ms, statuses ${JSON.stringify(result.statuses)}`],
    };
  },
};
