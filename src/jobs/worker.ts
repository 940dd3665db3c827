/**
 * The worker: takes one job record, re-checks what may have changed while it waited (config, permission, head SHA),
 * runs the command with a progress comment and a check run, and always ends with a final answer — a job never
 * leaves its comment at "working". Essential GitHub calls that fail end the job with that answer (redacted); the
 * others (check run, identity, token revocation) are logged and skipped. The job's git token is revoked at the end.
 */
import type { FixReport, FixRequest } from "../agent/types.js";
import { bestEffort, describeApiError, httpStatusOf } from "../github/api-error.js";
import { describeCommand } from "../github/parse-command.js";
import type { Outcome } from "./outcome.js";
import type { GitSandboxFactory } from "../ports/git-sandbox.js";
import type { GitHubGateway, GitHubGatewayFactory } from "../ports/github-gateway.js";
import { performance } from "node:perf_hooks";
import type { Logger } from "../ports/logger.js";
import type { Metrics } from "../ports/metrics.js";
import { parseJob, type Job } from "./job-schema.js";
import { prepare } from "./prepare.js";
import type { PushLedger } from "./push-ledger.js";
import { withRedactedLogs, withRedaction } from "./redacting-gateway.js";
import { runFixJob } from "./run-fix-job.js";
import { runUndoJob } from "./run-undo-job.js";
import { createTracker } from "./tracker.js";

export interface WorkerDeps {
  readonly gateways: GitHubGatewayFactory;
  /** Runs the fix loop; `logger` is the job's own (its lines carry the job's ids). */
  readonly runFix: (request: FixRequest, logger?: Logger) => Promise<FixReport>;
  readonly git: GitSandboxFactory;
  readonly logger: Logger;
  /** Values never to publish (private key, webhook secret, model key); job tokens are added per job. */
  readonly secrets: readonly string[];
  readonly defaultModel?: string | undefined;
  readonly tempRoot?: string | undefined;
  /** patchsmith's own pushes, so a queued command builds on its predecessor's commits (none: any move stops it). */
  readonly pushes?: PushLedger | undefined;
  readonly metrics?: Metrics | undefined;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createWorker(deps: WorkerDeps): (record: unknown) => Promise<void> {
  return async (record: unknown) => {
    const parsed = parseJob(record);
    if (!parsed.ok) {
      deps.logger.error("dropping an invalid job record", { problem: parsed.message });
      return;
    }
    await runJob(parsed.job, deps);
  };
}

async function runJob(job: Job, deps: WorkerDeps): Promise<void> {
  // Tokens minted for this job join the secrets as soon as they exist, and are revoked when it ends.
  const secrets = [...deps.secrets];
  const minted: string[] = [];
  const raw = deps.gateways(job.installationId);
  const minting: GitHubGateway = {
    ...raw,
    createRepoToken: async (repo) => {
      const token = await raw.createRepoToken(repo);
      secrets.push(token);
      minted.push(token);
      return token;
    },
  };
  const gateway = withRedaction(minting, () => secrets);
  // Every line of the job, the fix loop's included, names the job, its thread and the delivery it came from.
  const bindings = {
    job: job.id,
    repo: `${job.repo.owner}/${job.repo.name}`,
    number: job.target.number,
    delivery: job.deliveryId,
  };
  const logger = withRedactedLogs(deps.logger.child?.(bindings) ?? deps.logger, () => secrets);
  const fields = { job: job.id, repo: `${job.repo.owner}/${job.repo.name}`, number: job.target.number };
  try {
    await runCommand(job, gateway, { ...deps, logger });
  } finally {
    // Best-effort: the token expires within the hour anyway, but a revoked one is worthless at once.
    for (const token of minted) {
      await bestEffort("revoke the job's installation token", () => raw.revokeRepoToken(token), undefined, {
        logger,
        secrets,
        fields,
      });
    }
  }
}

async function runCommand(job: Job, gateway: GitHubGateway, deps: WorkerDeps): Promise<void> {
  const { repo, command } = job;
  const logger = deps.logger;
  const number = job.target.number;
  const log = { job: job.id, repo: `${repo.owner}/${repo.name}`, number, command: command.kind };

  const tracker = createTracker({
    gateway,
    logger,
    repo,
    issueNumber: number,
    progressCommentId: job.progressCommentId,
    requester: job.requester.login,
    command: describeCommand(command),
    detailsUrl: job.comment.htmlUrl,
    jobId: job.id,
    queuedHeadSha: job.headSha,
  });
  if (!(await tracker.open())) return;
  const started = performance.now();
  logger.info("job started", log);
  let outcome: Outcome;
  try {
    const prepared = await prepare(gateway, job, logger, deps.pushes);
    if (!prepared.ok) {
      outcome = prepared.outcome;
    } else {
      await tracker.startCheck(prepared.plan.branch.headSha);
      outcome =
        command.kind === "fix"
          ? await runFixJob(gateway, job, command, prepared.plan, tracker, deps)
          : await runUndoJob(gateway, job, prepared.plan, tracker, deps);
    }
  } catch (error) {
    logger.error("job failed", { ...log, status: httpStatusOf(error), error: describeApiError(error) });
    outcome = { kind: "error", message: errorMessage(error) };
  }
  await tracker.finish(outcome);
  deps.metrics?.jobFinished(command.kind, outcome.kind, (performance.now() - started) / 1000);
  logger.info("job finished", { ...log, outcome: outcome.kind });
}
