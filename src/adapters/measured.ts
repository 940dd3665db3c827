/** The model client and the sandbox runner, reporting each call to the metrics (otherwise unchanged). */
import { performance } from "node:perf_hooks";
import type { Metrics } from "../ports/metrics.js";
import type { ModelClient } from "../ports/model-client.js";
import type { SandboxRunner } from "../ports/sandbox-runner.js";

const secondsSince = (start: number): number => (performance.now() - start) / 1000;

export function measuredModel(model: ModelClient, metrics: Metrics): ModelClient {
  return {
    async complete(request) {
      const start = performance.now();
      try {
        const response = await model.complete(request);
        metrics.modelCall(request.model, "ok", secondsSince(start), response.usage.totalTokens);
        return response;
      } catch (error) {
        metrics.modelCall(request.model, "error", secondsSince(start), 0);
        throw error;
      }
    },
  };
}

export function measuredRunner(runner: SandboxRunner, metrics: Metrics): SandboxRunner {
  return {
    async run(request) {
      const summary = await runner.run(request);
      const phase = request.network === true ? "setup" : "tests";
      metrics.sandboxRun(phase, summary.passed, summary.durationMs / 1000, summary.limit?.kind);
      return summary;
    },
    reclaim: (dir) => runner.reclaim(dir),
    describe: () => runner.describe(),
  };
}
