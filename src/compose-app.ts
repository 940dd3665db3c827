/**
 * Builds the GitHub App from its parts: the webhook endpoint (on our own HTTP server, probot for authentication; on
 * a thread of its own with the embedded store, see github/ingress-thread.ts),
 * the queues (embedded or Redis), and — unless it only takes webhooks (`--workers 0`, Redis only) — the processing
 * of commands and jobs. The one place the app's adapters are wired together; `patchsmith worker` is compose-worker.ts.
 */
import { join } from "node:path";
import { alive, startEndpoints } from "./adapters/http-endpoints.js";
import type { FixDeps } from "./agent/deps.js";
import { acceptDelivery } from "./github/accept-delivery.js";
import type { AppEnv } from "./github/app-env.js";
import { scheduleReconciliation } from "./github/reconcile-deliveries.js";
import { startIngressThread } from "./github/ingress-thread.js";
import { createWebhookIngress } from "./github/webhook-ingress.js";
import { measured, probotAuthFor, processBasics, startProcessing } from "./compose-processing.js";
import { metricsFor, observabilityRoutes } from "./compose-observability.js";
import { openQueues } from "./compose-queues.js";

export interface RunningApp {
  readonly url: string;
  readonly port: number;
  /** Stops taking webhooks, then waits for running jobs (queued ones stay stored for the next start). */
  close(): Promise<void>;
}

export interface ComposeAppOptions {
  readonly env: AppEnv;
  readonly fixDeps: FixDeps;
  /** Jobs this process runs at once; 0 (Redis only): it only takes webhooks, workers run the rest. */
  readonly workers?: number;
}

/** A combination of settings that cannot work: said at start, not found out later. */
export class StartupRefused extends Error {
  override readonly name = "StartupRefused";
}

export async function startApp(options: ComposeAppOptions): Promise<RunningApp> {
  const { env } = options;
  const { secrets, log } = await processBasics(env, options.fixDeps);
  const logger = log.logger;
  const workers = options.workers ?? env.concurrency;
  if (workers === 0 && env.redisUrl === undefined) {
    throw new StartupRefused(
      "--workers 0 needs the shared queue (PATCHSMITH_REDIS_URL): nothing else would run the jobs",
    );
  }
  const queues = await openQueues(env, logger, Math.max(1, workers));
  const metrics = metricsFor(queues);
  try {
    const auth = probotAuthFor(env, log, metrics);
    const routes = observabilityRoutes(metrics, {
      queues,
      // A webhook-only process runs no repository code: its readiness does not hang on a sandbox.
      runner: workers > 0 ? options.fixDeps.runner : undefined,
      app: () => auth.auth(),
    });
    const onAnswer = (status: number, seconds: number): void => {
      metrics.webhookAnswered(status, seconds);
    };
    const server =
      env.redisUrl === undefined
        ? await startIngressThread({
            host: env.host,
            port: env.port,
            webhookPath: env.webhookPath,
            secret: env.webhookSecret,
            journalDir: join(env.dataDir, "inbox-journal"),
            // Liveness is the main thread's: a thread that answers for a stuck one would hide it.
            routes: { ...routes, "/healthz": alive, "/ping": alive },
            inbox: queues.inbox,
            logger,
            onAnswer,
            onCrash: (error) => {
              logger.error("the webhook thread stopped; no webhook can be taken, so the app exits", {
                error: error.message,
              });
              process.exit(1);
            },
          })
        : await startEndpoints({
            host: env.host,
            port: env.port,
            routes,
            post: {
              path: env.webhookPath,
              handle: createWebhookIngress({
                secret: env.webhookSecret,
                logger,
                onAnswer,
                accept: async (delivery) => {
                  const result = await acceptDelivery(delivery, queues.inbox, logger, Date.now);
                  logger.debug("webhook accepted", { delivery: delivery.id, event: delivery.name, result });
                },
              }),
            },
          });
    // The App's own key and webhook secret join the model key in every redaction (prompts, reports, comments).
    const fixDeps: FixDeps = {
      ...options.fixDeps,
      logger,
      secrets,
      tempRoot: options.fixDeps.tempRoot ?? queues.cloneFolder,
    };
    // The webhook process asks GitHub for what it missed (it is the one GitHub delivers to).
    const reconciliation =
      env.reconcileMs > 0 ? scheduleReconciliation(() => auth.auth(), logger, env.reconcileMs) : undefined;
    if (workers > 0) startProcessing({ queues, auth, fixDeps: measured(fixDeps, metrics), logger, secrets, metrics });
    return {
      url: server.url,
      port: server.port,
      async close() {
        // Nothing queued starts once shutdown begins; webhooks still in flight are stored for the next start.
        reconciliation?.stop();
        queues.inbox.pause();
        queues.jobs.pause();
        await server.close();
        await queues.close();
      },
    };
  } catch (error) {
    await queues.close();
    throw error;
  }
}
