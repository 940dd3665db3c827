/** What the service counts for its operators (the Prometheus adapter is adapters/prom-metrics.ts). */

export interface Metrics {
  jobFinished(kind: string, outcome: string, seconds: number): void;
  modelCall(model: string, outcome: "ok" | "error", seconds: number, tokens: number): void;
  /** A sandboxed run: set-up (with network) or tests; `limit` names a sandbox limit it ran into. */
  sandboxRun(phase: "setup" | "tests", passed: boolean, seconds: number, limit: string | undefined): void;
  githubRequest(method: string, status: number, rateLimitRemaining: number | undefined): void;
  /** A webhook answered: how long from its arrival until the answer (the command durable first), by status. */
  webhookAnswered(status: number, seconds: number): void;
}

export const noMetrics: Metrics = {
  jobFinished: () => undefined,
  modelCall: () => undefined,
  sandboxRun: () => undefined,
  githubRequest: () => undefined,
  webhookAnswered: () => undefined,
};
