/**
 * `patchsmith worker`: commands and jobs from the shared queue (Redis), with no webhook endpoint. Any number run on
 * any number of machines beside one `serve --workers 0`; a worker killed mid-job has its job taken over by another.
 */
import type { FixDeps } from "./agent/deps.js";
import type { AppEnv } from "./github/app-env.js";
import { startEndpoints } from "./adapters/http-endpoints.js";
import { metricsFor, observabilityRoutes } from "./compose-observability.js";
import { measured, probotAuthFor, processBasics, startProcessing } from "./compose-processing.js";
import { openQueues } from "./compose-queues.js";

export interface RunningWorker {
  /** Where its /healthz, /readyz and /metrics answer (PATCHSMITH_WORKER_PORT). */
  readonly url?: string;
  /** Starts no new job, waits for the running ones, then disconnects. */
  close(): Promise<void>;
}

export async function startWorker(options: {
  readonly env: AppEnv;
  readonly fixDeps: FixDeps;
}): Promise<RunningWorker> {
  const { env } = options;
  if (env.redisUrl === undefined) {
    throw new Error(
      "a separate worker needs the shared queue: set PATCHSMITH_REDIS_URL (with the embedded store, `patchsmith serve` runs the jobs itself)",
    );
  }
  const { secrets, log } = await processBasics(env, options.fixDeps);
  const logger = log.logger;
  const queues = await openQueues(env, logger);
  const metrics = metricsFor(queues);
  const auth = probotAuthFor(env, log, metrics);
  // Probes and metrics for an orchestrator, when asked for a port (many workers may share one host).
  const endpoints =
    env.workerPort === undefined
      ? undefined
      : await startEndpoints({
          host: env.host,
          port: env.workerPort,
          routes: observabilityRoutes(metrics, { queues, runner: options.fixDeps.runner, app: () => auth.auth() }),
        });
  const fixDeps: FixDeps = {
    ...options.fixDeps,
    logger,
    secrets,
    tempRoot: options.fixDeps.tempRoot ?? queues.cloneFolder,
  };
  startProcessing({ queues, auth, fixDeps: measured(fixDeps, metrics), logger, secrets, metrics });
  return {
    ...(endpoints === undefined ? {} : { url: endpoints.url }),
    async close() {
      queues.inbox.pause();
      queues.jobs.pause();
      await queues.close();
      await endpoints?.close();
    },
  };
}
