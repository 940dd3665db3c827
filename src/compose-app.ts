/**
 * Builds the GitHub App from its parts: the probot server (webhooks in), the durable job queue, the worker (fix loop
 * and git out), gateways over probot's Octokit. The one place the app's adapters are wired together.
 */
import { createConsoleLogger } from "./adapters/console-logger.js";
import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { prepareCloneFolder, removeCloneFolder } from "./adapters/clone-folder.js";
import { lockDataFolder, type DataFolderLock } from "./adapters/data-folder-lock.js";
import { createFileQueue, type CorruptRecord } from "./adapters/file-queue.js";
import { createIdentityLoader, createOctokitGatewayFactory, type Octokit } from "./adapters/octokit-gateway.js";
import { startProbotServer } from "./adapters/probot-server.js";
import type { FixDeps } from "./agent/deps.js";
import { runFix } from "./agent/run-fix.js";
import { describeApiError, httpStatusOf } from "./github/api-error.js";
import { acceptDelivery } from "./github/accept-delivery.js";
import type { AppEnv } from "./github/app-env.js";
import { createWebhookIngress } from "./github/webhook-ingress.js";
import { runIntake } from "./jobs/intake.js";
import { parseIntake, type IntakeRecord } from "./jobs/intake-schema.js";
import { parseJob, type Job } from "./jobs/job-schema.js";
import { createPushLedger } from "./jobs/push-ledger.js";
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

/** Intake records handled at once (each is a few GitHub calls: permission, 👀, a comment). */
const INTAKE_CONCURRENCY = 8;

export async function startApp(options: ComposeAppOptions): Promise<RunningApp> {
  const { env } = options;
  const secrets = [...(options.fixDeps.secrets ?? []), env.privateKey, env.webhookSecret];
  const logger = options.logger ?? createConsoleLogger({ secrets });
  // One process per data folder: the queues and the clone folder below are this process's alone.
  await mkdir(env.dataDir, { recursive: true, mode: 0o700 });
  const lock = await lockDataFolder(env.dataDir);
  try {
    return await startLocked(options, logger, secrets, lock);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function startLocked(
  options: ComposeAppOptions,
  logger: Logger,
  secrets: readonly string[],
  lock: DataFolderLock,
): Promise<RunningApp> {
  const { env } = options;
  // Clones go in a folder of this app's own, emptied at start: a job killed mid-run leaves nothing behind. The data
  // folder's lock makes it ours: no other process can have clones in it.
  const ownFolder = options.fixDeps.tempRoot === undefined;
  const tempRoot = options.fixDeps.tempRoot ?? (await prepareCloneFolder(env.dataDir));
  // The App's own key and webhook secret join the model key in every redaction (prompts, reports, comments).
  const fixDeps: FixDeps = { ...options.fixDeps, logger, secrets, tempRoot };
  const onCorrupt = (record: CorruptRecord): void => {
    logger.error("a queued record is unreadable; it was set aside", { ...record });
  };
  // Durable, both: a command acknowledged to GitHub is on disk first (inbox), and a job accepted before a crash or a
  // restart runs when the app comes back (at least once).
  const inbox = await createFileQueue<IntakeRecord>({
    dir: join(env.dataDir, "inbox"),
    concurrency: INTAKE_CONCURRENCY,
    parse: parseIntake,
    onCorrupt,
  });
  const jobs = await createFileQueue<Job>({
    dir: join(env.dataDir, "queue"),
    concurrency: env.concurrency,
    parse: (value) => {
      const parsed = parseJob(value);
      return parsed.ok ? parsed.job : undefined;
    },
    onCorrupt,
  });
  if (inbox.recovered + jobs.recovered > 0) {
    logger.info("resuming queued work", { commands: inbox.recovered, jobs: jobs.recovered });
  }

  // probot hands out its authenticated clients once the server exists; the identity loader waits for that.
  const started: { auth?: (installationId?: number) => Promise<Octokit> } = {};
  const app = (): Promise<Octokit> =>
    started.auth === undefined ? Promise.reject(new Error("the app is not started yet")) : started.auth();
  const identity = createIdentityLoader(app, (what, error) => {
    logger.warn(`could not ${what}; using the fallback`, {
      status: httpStatusOf(error),
      error: describeApiError(error),
    });
  });
  const ingress = createWebhookIngress({
    secret: env.webhookSecret,
    logger,
    accept: async (delivery) => {
      const result = await acceptDelivery(delivery, inbox, logger, Date.now);
      logger.debug("webhook accepted", { delivery: delivery.id, event: delivery.name, result });
    },
  });
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
    ingress,
  );
  started.auth = server.auth;
  const gateways = createOctokitGatewayFactory(server.auth, server.tokenClient, identity);

  inbox.start(
    async (record) => {
      const result = await runIntake(
        record,
        { gateway: gateways, jobs, logger, now: Date.now, identity },
        randomUUID(),
      );
      logger.debug("command taken in", { delivery: record.deliveryId, result });
    },
    (error, record) => {
      logger.error("intake crashed", { delivery: record.deliveryId, error: describeApiError(error, secrets) });
    },
  );
  const work = createWorker({
    gateways,
    runFix: (request) => runFix(fixDeps, request),
    git: fixDeps.git,
    logger,
    secrets,
    defaultModel: fixDeps.defaultModel,
    tempRoot: fixDeps.tempRoot,
    pushes: createPushLedger(jobs),
  });
  jobs.start(work, (error, job) => {
    logger.error("job crashed", { job: job.id, error: describeApiError(error, secrets) });
  });
  // Learn the bot's login early, so the first command does not wait for it (the loader never fails: it logs, falls
  // back to patchsmith[bot] and tries again on the next call).
  void identity();

  return {
    url: server.url,
    port: server.port,
    async close() {
      // Nothing queued starts once shutdown begins; webhooks still in flight are stored for the next start.
      inbox.pause();
      jobs.pause();
      await server.close();
      await inbox.close();
      await jobs.close();
      // Every job has finished and removed its clone: the folder itself goes too (a crash leaves it for the next
      // start to empty).
      if (ownFolder) await removeCloneFolder(tempRoot);
      await lock.release();
    },
  };
}
