/** What operators scrape and probe, the same for `serve` and `patchsmith worker`: /metrics and /readyz. */
import type { GetRoute } from "./adapters/http-endpoints.js";
import type { Octokit } from "./adapters/octokit-gateway.js";
import { createPromMetrics, type PromMetrics } from "./adapters/prom-metrics.js";
import type { Queues } from "./compose-queues.js";
import type { SandboxRunner } from "./ports/sandbox-runner.js";
import { createReadiness } from "./readiness.js";

export function metricsFor(queues: Queues): PromMetrics {
  return createPromMetrics([
    { name: "inbox", depth: () => queues.inbox.depth() },
    { name: "jobs", depth: () => queues.jobs.depth() },
  ]);
}

export function observabilityRoutes(
  metrics: PromMetrics,
  parts: {
    readonly queues: Queues;
    /** The sandbox this process runs repository code in; undefined when it runs none. */
    readonly runner: SandboxRunner | undefined;
    readonly app: () => Promise<Octokit>;
  },
): Record<string, GetRoute> {
  const ready = createReadiness({ queue: parts.queues.jobs, runner: parts.runner, app: parts.app });
  return {
    "/metrics": async () => ({ status: 200, type: metrics.contentType(), body: await metrics.render() }),
    "/readyz": async () => {
      const readiness = await ready();
      return { status: readiness.ready ? 200 : 503, type: "application/json", body: JSON.stringify(readiness) };
    },
  };
}
