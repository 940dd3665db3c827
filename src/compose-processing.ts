/**
 * The work behind the webhook, wherever it runs (in `serve`, or in `patchsmith worker` on the shared queue): the
 * intake of commands (permission, 👀, the queued comment) and the jobs (the fix loop, git, the answer).
 */
import { randomUUID } from "node:crypto";
import { createIdentityLoader, type IdentityLoader } from "./adapters/app-identity.js";
import { createOctokitGatewayFactory } from "./adapters/octokit-gateway.js";
import { createAppLogger, type AppLogger } from "./adapters/app-logger.js";
import { createProbotAuth, type ProbotAuth } from "./adapters/probot-auth.js";
import type { AppEnv } from "./github/app-env.js";
import type { FixDeps } from "./agent/deps.js";
import { runFix } from "./agent/run-fix.js";
import { describeApiError, httpStatusOf } from "./github/api-error.js";
import { runIntake } from "./jobs/intake.js";
import { createPushLedger } from "./jobs/push-ledger.js";
import { createWorker } from "./jobs/worker.js";
import type { Logger } from "./ports/logger.js";
import type { Metrics } from "./ports/metrics.js";
import { measuredModel, measuredRunner } from "./adapters/measured.js";
import type { Queues } from "./compose-queues.js";

function identityOf(auth: ProbotAuth, logger: Logger): IdentityLoader {
  return createIdentityLoader(
    () => auth.auth(),
    (what, error) => {
      logger.warn(`could not ${what}; using the fallback`, {
        status: httpStatusOf(error),
        error: describeApiError(error),
      });
    },
  );
}

/** What every App process starts with: the secrets to redact and its one log. */
export async function processBasics(
  env: AppEnv,
  fixDeps: FixDeps,
): Promise<{ readonly secrets: readonly string[]; readonly log: AppLogger }> {
  const secrets = [...(fixDeps.secrets ?? []), env.privateKey, env.webhookSecret];
  // One log for the process: probot's lines and ours, one level, redacted.
  const log = await createAppLogger({
    level: env.logLevel,
    format: env.logFormat,
    levelInString: env.logLevelInString,
    sentryDsn: env.sentryDsn,
    secrets: () => secrets,
  });
  return { secrets, log };
}

/** probot's authentication on the process's log, its GitHub requests counted. */
export function probotAuthFor(env: AppEnv, log: AppLogger, metrics: Metrics): ProbotAuth {
  return createProbotAuth({
    appId: env.appId,
    privateKey: env.privateKey,
    webhookSecret: env.webhookSecret,
    baseUrl: env.baseUrl,
    throttle: env.throttle,
    log: log.pino,
    onRequest: (method, status, remaining) => {
      metrics.githubRequest(method, status, remaining);
    },
  });
}

/** The fix loop's model and sandbox, reporting to the metrics. */
export function measured(fixDeps: FixDeps, metrics: Metrics): FixDeps {
  return { ...fixDeps, model: measuredModel(fixDeps.model, metrics), runner: measuredRunner(fixDeps.runner, metrics) };
}

/** Starts taking commands and jobs from the queues. */
export function startProcessing(options: {
  readonly queues: Queues;
  readonly auth: ProbotAuth;
  readonly fixDeps: FixDeps;
  readonly logger: Logger;
  readonly secrets: readonly string[];
  readonly metrics?: Metrics;
}): void {
  const { queues, auth, fixDeps, logger, secrets } = options;
  const identity = identityOf(auth, logger);
  const gateways = createOctokitGatewayFactory(auth.auth, auth.tokenClient, identity);
  const { inbox, jobs } = queues;
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
    runFix: (request, logger) => runFix(logger === undefined ? fixDeps : { ...fixDeps, logger }, request),
    git: fixDeps.git,
    logger,
    secrets,
    defaultModel: fixDeps.defaultModel,
    tempRoot: fixDeps.tempRoot,
    pushes: createPushLedger(jobs),
    metrics: options.metrics,
  });
  jobs.start(work, (error, job) => {
    logger.error("job crashed", { job: job.id, error: describeApiError(error, secrets) });
  });
  // Learn the bot's login early, so the first command does not wait for it (the loader never fails: it logs, falls
  // back to patchsmith[bot] and tries again on the next call).
  void identity();
}
