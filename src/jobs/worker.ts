/**
 * The worker: takes one job record, re-checks what may have changed while it waited (config, permission, head SHA),
 * runs the command with a progress comment and a check run, and always ends with a final answer — a job never
 * leaves its comment at "working".
 */
import type { FixReport, FixRequest } from "../agent/types.js";
import { describeCommand } from "../github/parse-command.js";
import type { Outcome } from "../github/outcome.js";
import { renderDenied, renderHelp } from "../github/render-comment.js";
import type { GitSandboxFactory } from "../ports/git-sandbox.js";
import type { GitHubGateway, GitHubGatewayFactory } from "../ports/github-gateway.js";
import type { Logger } from "../ports/logger.js";
import { parseJob, type Job } from "./job-schema.js";
import { prepare } from "./prepare.js";
import { withRedaction } from "./redacting-gateway.js";
import { runFixJob } from "./run-fix-job.js";
import { runUndoJob } from "./run-undo-job.js";
import { createTracker } from "./tracker.js";

export interface WorkerDeps {
  readonly gateways: GitHubGatewayFactory;
  readonly runFix: (request: FixRequest) => Promise<FixReport>;
  readonly git: GitSandboxFactory;
  readonly logger: Logger;
  /** Values never to publish (private key, webhook secret, model key); job tokens are added per job. */
  readonly secrets: readonly string[];
  readonly defaultModel?: string | undefined;
  readonly tempRoot?: string | undefined;
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
  // Tokens minted for this job join the secrets as soon as they exist.
  const secrets = [...deps.secrets];
  const raw = deps.gateways(job.installationId);
  const minting: GitHubGateway = {
    ...raw,
    createRepoToken: async (repo) => {
      const token = await raw.createRepoToken(repo);
      secrets.push(token);
      return token;
    },
  };
  const gateway = withRedaction(minting, () => secrets);
  const { repo, command } = job;
  const number = job.target.number;
  const log = { job: job.id, repo: `${repo.owner}/${repo.name}`, number, command: command.kind };

  switch (command.kind) {
    case "explain-denied":
      await gateway.createComment(repo, number, renderDenied(job.requester.login, "insufficient-permission"));
      return;
    case "help":
      await gateway.createComment(repo, number, renderHelp());
      return;
    case "fix":
    case "undo":
      break;
  }

  const text = describeCommand(command);
  const tracker = createTracker({
    gateway,
    logger: deps.logger,
    repo,
    issueNumber: number,
    progressCommentId: job.progressCommentId,
    requester: job.requester.login,
    command: text,
    detailsUrl: job.comment.htmlUrl,
  });
  deps.logger.info("job started", log);
  let outcome: Outcome;
  try {
    const prepared = await prepare(gateway, job);
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
    deps.logger.error("job failed", { ...log, error: errorMessage(error) });
    outcome = { kind: "error", message: errorMessage(error) };
  }
  await tracker.finish(outcome);
  deps.logger.info("job finished", { ...log, outcome: outcome.kind });
}
