/**
 * The service's metrics in Prometheus' format with prom-client, on a registry of its own (the process's default
 * metrics included): jobs by kind and outcome with their durations, queue depth, model calls, tokens and latency by
 * model, sandboxed runs and the limits they hit, GitHub requests and the rate limit left.
 */
import { Counter, Gauge, Histogram, Registry, Summary, collectDefaultMetrics } from "prom-client";
import type { Metrics } from "../ports/metrics.js";

export interface QueueDepth {
  readonly name: string;
  /** Jobs queued or running. */
  readonly depth: () => Promise<{
    readonly queued: number;
    readonly running: number;
    readonly oldestQueuedAt?: number;
  }>;
}

type Depth = Awaited<ReturnType<QueueDepth["depth"]>>;

export interface PromMetrics extends Metrics {
  readonly registry: Registry;
  /** The exposition text for GET /metrics. */
  render(): Promise<string>;
  contentType(): string;
}

export function createPromMetrics(queues: readonly QueueDepth[] = []): PromMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "patchsmith_" });
  const jobs = new Counter({
    name: "patchsmith_jobs_total",
    help: "Jobs finished, by command and outcome.",
    labelNames: ["kind", "outcome"],
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: "patchsmith_job_duration_seconds",
    help: "How long jobs ran, by command.",
    labelNames: ["kind"],
    buckets: [5, 15, 30, 60, 120, 300, 600, 1200, 2400],
    registers: [registry],
  });
  // Both queue gauges are collected in the same scrape: the stores are asked once for it.
  let depths: Promise<(Depth | undefined)[]> | undefined;
  const depthsOfScrape = (): Promise<(Depth | undefined)[]> => {
    depths ??= Promise.all(queues.map((queue) => queue.depth().catch(() => undefined))).finally(() => {
      depths = undefined;
    });
    return depths;
  };
  new Gauge({
    name: "patchsmith_queue_oldest_waiting_seconds",
    help: "How long the oldest command or job not yet started has waited, by queue (0: none waits).",
    labelNames: ["queue"],
    registers: [registry],
    async collect() {
      for (const [i, depth] of (await depthsOfScrape()).entries()) {
        // An unreachable store shows as a missing sample; /readyz says why.
        if (depth === undefined) continue;
        const at = depth.oldestQueuedAt;
        this.set({ queue: queues[i]!.name }, at === undefined ? 0 : (Date.now() - at) / 1000);
      }
    },
  });
  new Gauge({
    name: "patchsmith_queue_jobs",
    help: "Commands and jobs waiting or running, by queue and state.",
    labelNames: ["queue", "state"],
    registers: [registry],
    async collect() {
      for (const [i, depth] of (await depthsOfScrape()).entries()) {
        if (depth === undefined) continue;
        this.set({ queue: queues[i]!.name, state: "queued" }, depth.queued);
        this.set({ queue: queues[i]!.name, state: "running" }, depth.running);
      }
    },
  });
  const modelCalls = new Counter({
    name: "patchsmith_model_calls_total",
    help: "Model requests, by model and outcome.",
    labelNames: ["model", "outcome"],
    registers: [registry],
  });
  const modelTokens = new Counter({
    name: "patchsmith_model_tokens_total",
    help: "Tokens used, by model.",
    labelNames: ["model"],
    registers: [registry],
  });
  const modelSeconds = new Histogram({
    name: "patchsmith_model_call_duration_seconds",
    help: "Model request latency, by model.",
    labelNames: ["model"],
    buckets: [0.5, 1, 2, 5, 10, 20, 40, 80, 160],
    registers: [registry],
  });
  const sandboxRuns = new Counter({
    name: "patchsmith_sandbox_runs_total",
    help: "Sandboxed runs (set-up and tests), by phase and result.",
    labelNames: ["phase", "result"],
    registers: [registry],
  });
  const sandboxLimits = new Counter({
    name: "patchsmith_sandbox_limits_hit_total",
    help: "Sandboxed runs stopped by a limit, by limit.",
    labelNames: ["phase", "limit"],
    registers: [registry],
  });
  const sandboxSeconds = new Histogram({
    name: "patchsmith_sandbox_run_duration_seconds",
    help: "Sandboxed run durations, by phase.",
    labelNames: ["phase"],
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800],
    registers: [registry],
  });
  const github = new Counter({
    name: "patchsmith_github_requests_total",
    help: "GitHub API requests, by method and status.",
    labelNames: ["method", "status"],
    registers: [registry],
  });
  const answers = new Summary({
    name: "patchsmith_webhook_answer_seconds",
    help: "From a webhook's arrival to its answer (a command is durable before it), by status.",
    labelNames: ["status"],
    percentiles: [0.5, 0.9, 0.99],
    maxAgeSeconds: 600,
    ageBuckets: 5,
    registers: [registry],
  });
  const rateLimit = new Gauge({
    name: "patchsmith_github_rate_limit_remaining",
    help: "The rate limit left, as GitHub's last answer said.",
    registers: [registry],
  });

  return {
    registry,
    render: () => registry.metrics(),
    contentType: () => registry.contentType,
    jobFinished(kind, outcome, seconds) {
      jobs.inc({ kind, outcome });
      jobSeconds.observe({ kind }, seconds);
    },
    modelCall(model, outcome, seconds, tokens) {
      modelCalls.inc({ model, outcome });
      if (tokens > 0) modelTokens.inc({ model }, tokens);
      modelSeconds.observe({ model }, seconds);
    },
    sandboxRun(phase, passed, seconds, limit) {
      sandboxRuns.inc({ phase, result: passed ? "passed" : "failed" });
      sandboxSeconds.observe({ phase }, seconds);
      if (limit !== undefined) sandboxLimits.inc({ phase, limit });
    },
    webhookAnswered(status, seconds) {
      answers.observe({ status: String(status) }, seconds);
    },
    githubRequest(method, status, remaining) {
      github.inc({ method, status: String(status) });
      if (remaining !== undefined) rateLimit.set(remaining);
    },
  };
}
