/**
 * Builds the GitHub App from its parts: the probot server (webhooks in), the in-process queue, the worker (fix loop
 * and git out), gateways over probot's Octokit. The one place the app's adapters are wired together.
 */
import { createConsoleLogger } from "./adapters/console-logger.js";
import { createMemoryQueue } from "./adapters/memory-queue.js";
import {
  createIdentityLoader,
  createOctokitGateway,
  createOctokitGatewayFactory,
  type Octokit,
} from "./adapters/octokit-gateway.js";
import { startProbotServer } from "./adapters/probot-server.js";
import type { FixDeps } from "./agent/deps.js";
import { runFix } from "./agent/run-fix.js";
import { createPatchsmithApp } from "./app.js";
import type { AppEnv } from "./github/app-env.js";
import type { Job } from "./jobs/job-schema.js";
import { createWorker } from "./jobs/worker.js";
import type { Logger } from "./ports/logger.js";

export interface RunningApp {
  readonly url: string;
  readonly port: number;
  /** Stops taking webhooks, then waits for running jobs (queued ones are dropped: the queue is in memory). */
  close(): Promise<void>;
}

export interface ComposeAppOptions {
  readonly env: AppEnv;
  readonly fixDeps: FixDeps;
  readonly logger?: Logger;
}

export async function startApp(options: ComposeAppOptions): Promise<RunningApp> {
  const { env } = options;
  const secrets = [...(options.fixDeps.secrets ?? []), env.privateKey, env.webhookSecret];
  const logger = options.logger ?? createConsoleLogger({ secrets });
  const fixDeps: FixDeps = { ...options.fixDeps, logger, secrets: options.fixDeps.secrets ?? [] };
  const queue = createMemoryQueue<Job>({ concurrency: env.concurrency });

  // probot hands out its authenticated clients once the server exists; the identity loader waits for that.
  let authenticate: ((installationId?: number) => Promise<Octokit>) | undefined;
  const app = (): Promise<Octokit> =>
    authenticate === undefined ? Promise.reject(new Error("the app is not started yet")) : authenticate();
  const identity = createIdentityLoader(app);
  const server = await startProbotServer(
    {
      appId: env.appId,
      privateKey: env.privateKey,
      webhookSecret: env.webhookSecret,
      baseUrl: env.baseUrl,
      host: env.host,
      port: env.port,
      webhookPath: env.webhookPath,
      throttle: env.throttle,
      logLevel: env.logLevel,
      logFormat: env.logFormat,
    },
    (auth) => {
      authenticate = auth;
      return createPatchsmithApp({
        queue,
        logger,
        now: () => Date.now(),
        identity,
        gatewayFor: (octokit, installationId) =>
          createOctokitGateway({ installation: () => Promise.resolve(octokit), app, installationId, identity }),
      });
    },
  );

  const work = createWorker({
    gateways: createOctokitGatewayFactory(server.auth, identity),
    runFix: (request) => runFix(fixDeps, request),
    git: fixDeps.git,
    logger,
    secrets,
    defaultModel: fixDeps.defaultModel,
    tempRoot: fixDeps.tempRoot,
  });
  queue.start(work, (error, job) => {
    logger.error("job crashed", { job: job.id, error: error instanceof Error ? error.message : String(error) });
  });
  // Learn the bot's login early, so the first webhook does not wait for it (a failure is retried on demand).
  void identity().catch((error: unknown) => {
    logger.warn("could not read the app's identity yet", {
      error: error instanceof Error ? error.message : String(error),
    });
  });

  return {
    url: server.url,
    port: server.port,
    async close() {
      await server.close();
      await queue.close();
    },
  };
}
