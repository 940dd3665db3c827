/**
 * Builds the GitHub App from its parts: the probot server (webhooks in), the durable job queue, the worker (fix loop
 * and git out), gateways over probot's Octokit. The one place the app's adapters are wired together.
 */
import { createConsoleLogger } from "./adapters/console-logger.js";
import { join } from "node:path";
import { prepareCloneFolder, removeCloneFolder } from "./adapters/clone-folder.js";
import { createFileQueue } from "./adapters/file-queue.js";
import {
  createIdentityLoader,
  createOctokitGateway,
  createOctokitGatewayFactory,
  type Octokit,
} from "./adapters/octokit-gateway.js";
import { startProbotServer } from "./adapters/probot-server.js";
import type { FixDeps } from "./agent/deps.js";
import { runFix } from "./agent/run-fix.js";
import { createPatchsmithApp, type PatchsmithApp } from "./app.js";
import { describeApiError, httpStatusOf } from "./github/api-error.js";
import type { AppEnv } from "./github/app-env.js";
import { parseJob, type Job } from "./jobs/job-schema.js";
import { createWorker } from "./jobs/worker.js";
import type { Logger } from "./ports/logger.js";

export interface RunningApp {
  readonly url: string;
  readonly port: number;
  /** Stops taking webhooks, then waits for running jobs (queued ones stay on disk for the next start). */
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
  // Clones go in a folder of this app's own, emptied at start: a job killed mid-run leaves nothing behind.
  const ownFolder = options.fixDeps.tempRoot === undefined;
  const tempRoot = options.fixDeps.tempRoot ?? (await prepareCloneFolder(env.dataDir));
  // The App's own key and webhook secret join the model key in every redaction (prompts, reports, comments).
  const fixDeps: FixDeps = { ...options.fixDeps, logger, secrets, tempRoot };
  // Durable: a job accepted before a crash or a restart runs when the app comes back (at least once).
  const queue = await createFileQueue<Job>({
    dir: join(env.dataDir, "queue"),
    concurrency: env.concurrency,
    parse: (value) => {
      const parsed = parseJob(value);
      return parsed.ok ? parsed.job : undefined;
    },
    onCorrupt: (record) => {
      logger.error("a queued job record is unreadable; it was set aside", { ...record });
    },
  });
  if (queue.recovered > 0) logger.info("resuming queued jobs", { jobs: queue.recovered });

  // probot hands out its authenticated clients once the server exists; the identity loader waits for that.
  let authenticate: ((installationId?: number) => Promise<Octokit>) | undefined;
  const app = (): Promise<Octokit> =>
    authenticate === undefined ? Promise.reject(new Error("the app is not started yet")) : authenticate();
  const identity = createIdentityLoader(app, (what, error) => {
    logger.warn(`could not ${what}; using the fallback`, {
      status: httpStatusOf(error),
      error: describeApiError(error),
    });
  });
  let patchsmith: PatchsmithApp | undefined;
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
    (auth, tokenClient) => {
      authenticate = auth;
      patchsmith = createPatchsmithApp({
        queue,
        logger,
        now: () => Date.now(),
        identity,
        gatewayFor: (octokit, installationId) =>
          createOctokitGateway({
            installation: () => Promise.resolve(octokit),
            app,
            tokenClient,
            installationId,
            identity,
          }),
      });
      return patchsmith.appFn;
    },
  );

  const work = createWorker({
    gateways: createOctokitGatewayFactory(server.auth, server.tokenClient, identity),
    runFix: (request) => runFix(fixDeps, request),
    git: fixDeps.git,
    logger,
    secrets,
    defaultModel: fixDeps.defaultModel,
    tempRoot: fixDeps.tempRoot,
  });
  queue.start(work, (error, job) => {
    logger.error("job crashed", { job: job.id, error: describeApiError(error, secrets) });
  });
  // Learn the bot's login early, so the first webhook does not wait for it (the loader never fails: it logs, falls
  // back to patchsmith[bot] and tries again on the next call).
  void identity();

  return {
    url: server.url,
    port: server.port,
    async close() {
      // No queued job may start once shutdown begins; webhooks still in flight are accepted and kept on disk.
      queue.pause();
      await server.close();
      await patchsmith?.drain();
      await queue.close();
      // Every job has finished and removed its clone: the folder itself goes too (a crash leaves it for the next
      // start to empty).
      if (ownFolder) await removeCloneFolder(tempRoot);
    },
  };
}
