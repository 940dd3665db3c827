/**
 * `/fix` as a job: build the FixRequest from the plan, run the loop, and deliver what it made — commits (and a pull
 * request for an issue), a tested suggestion block, or a patch in the comment when pushing is not possible.
 */
import { testsLine } from "../agent/render-tests.js";
import type { FixReport, FixRequest } from "../agent/types.js";
import type { CommitLink, Outcome } from "./outcome.js";
import { renderSuggestion, suggestionLines } from "./suggestion.js";
import { StepError, bestEffort, describeApiError, step } from "../github/api-error.js";
import type { GitHubGateway, IssueInfo } from "../ports/github-gateway.js";
import type { Logger } from "../ports/logger.js";
import type { Job } from "./job-schema.js";
import { notePush, type PushLedger } from "./push-ledger.js";
import { botIdentity } from "../agent/commit-message.js";
import { coAuthorOf, webHostOf, type Plan } from "./prepare.js";
import type { Tracker } from "./tracker.js";

export interface FixJobDeps {
  readonly runFix: (request: FixRequest, logger?: Logger) => Promise<FixReport>;
  readonly logger: Logger;
  readonly defaultModel?: string | undefined;
  readonly pushes?: PushLedger | undefined;
}

type FixCommand = Extract<Job["command"], { kind: "fix" }>;

/** A lease that failed because the remote moved (someone pushed meanwhile). */
export function isPushRace(report: FixReport): boolean {
  return !report.pushed && report.failure?.reason === "push-rejected-stale";
}

async function readIssue(gateway: GitHubGateway, job: Job): Promise<IssueInfo | undefined> {
  if (job.target.kind !== "issue") return undefined;
  const number = job.target.number;
  return step(`read issue #${String(number)}`, () => gateway.getIssue(job.repo, number));
}

function untrustedContext(issue: IssueInfo | undefined, plan: Plan): string | undefined {
  if (issue !== undefined) return `Issue #${String(issue.number)}: ${issue.title}\n\n${issue.body}`;
  const pull = plan.branch.pull;
  return pull === undefined ? undefined : `Pull request #${String(pull.number)}: ${pull.title}\n\n${pull.body}`;
}

export function buildFixRequest(
  job: Job,
  command: FixCommand,
  plan: Plan,
  extra: {
    readonly token: string;
    readonly context?: string | undefined;
    readonly noCommit: boolean;
    readonly tracker: Tracker;
  },
  defaultModel: string | undefined,
): FixRequest {
  const webHost = webHostOf(plan.repoInfo.htmlUrl);
  const { config, branch } = plan;
  const model = config.model ?? defaultModel;
  const target = job.target;
  const instruction =
    command.instructions !== ""
      ? command.instructions
      : target.kind === "issue"
        ? `Fix issue #${target.number} as described in the context.`
        : "Make the change the review comment asks for.";
  return {
    repo: branch.cloneUrl,
    branch: branch.from,
    into: branch.into,
    instruction,
    ...(extra.context === undefined ? {} : { context: extra.context }),
    ...(target.kind === "review"
      ? { focus: { path: target.path, startLine: target.startLine ?? target.line, endLine: target.line } }
      : {}),
    ...(config.testCommand === undefined ? {} : { testCommand: config.testCommand }),
    ...(config.setupCommands === undefined ? {} : { configuredSetup: config.setupCommands }),
    env: config.env,
    // A fork's pull request installs into a cache of its own: its set-up must not poison the repository's.
    cacheKey: `${webHost}/${branch.headRepo}`,
    // The config came from the default branch; the clone's copy (a PR head) is not to be trusted.
    readRepoConfig: false,
    ...(model === undefined ? {} : { model }),
    ...(config.editFormat === undefined ? {} : { editFormat: config.editFormat }),
    maxAttempts: config.maxAttempts,
    tokenBudget: config.tokenBudget,
    wallTimeMs: config.wallTimeMs,
    ...(config.testTimeoutMs === undefined ? {} : { testTimeoutMs: config.testTimeoutMs }),
    coAuthor: coAuthorOf(job.requester, webHost),
    // The job's own trailer lets a rerun after a crash see that it had already pushed (agent/resume.ts).
    trailers: {
      ...(job.comment.htmlUrl === "" ? {} : { "Patchsmith-Request": job.comment.htmlUrl }),
      [JOB_TRAILER]: job.id,
    },
    resumeTrailer: { key: JOB_TRAILER, value: job.id },
    botIdentity: botIdentity(plan.app, webHost),
    push: extra.noCommit ? false : { lease: branch.lease },
    noCommit: extra.noCommit,
    forbiddenPaths: config.forbiddenPaths,
    token: extra.token,
    onProgress: (stage, detail) => {
      extra.tracker.stage(stage, detail);
    },
  };
}

/** The trailer naming the job a commit came from. */
const JOB_TRAILER = "Patchsmith-Job";

function commitLinks(report: FixReport, htmlUrl: string): CommitLink[] {
  return report.commits.map((c) => ({ sha: c.sha, subject: c.subject, url: `${htmlUrl}/commit/${c.sha}` }));
}

/**
 * The pull request for an issue branch: reuses the open one, or opens it. Runs after the push, so a failure says
 * where the commits are. Looking up an existing one is best-effort (a 422 from a duplicate create is caught below).
 */
async function openOrFindPull(
  gateway: GitHubGateway,
  job: Job,
  plan: Plan,
  issue: IssueInfo,
  report: FixReport,
  logger: Logger,
) {
  const into = plan.branch.into;
  const find = () =>
    bestEffort("look for an open pull request", () => gateway.findOpenPull(job.repo, into), undefined, {
      logger,
      fields: { job: job.id },
    });
  const existing = await find();
  if (existing !== undefined) return { number: existing.number, url: existing.htmlUrl, created: false };
  const title = `Fix #${String(issue.number)}: ${issue.title}`.slice(0, 250);
  const from = job.comment.htmlUrl === "" ? "" : ` in ${job.comment.htmlUrl}`;
  const body = [
    `Fixes #${String(issue.number)}`,
    "",
    `Requested by @${job.requester.login}${from}.`,
    "",
    "```",
    report.diffStat.trimEnd(),
    "```",
    "",
    "Each commit was tested before it was pushed; `/undo` on this pull request reverts the last one.",
  ].join("\n");
  try {
    const pull = await gateway.createPull(job.repo, { title, head: into, base: plan.repoInfo.defaultBranch, body });
    return { number: pull.number, url: pull.htmlUrl, created: true };
  } catch (error) {
    // A 422 "already exists" means one was opened meanwhile (or the lookup above failed): use it.
    const raced = await find();
    if (raced !== undefined) return { number: raced.number, url: raced.htmlUrl, created: false };
    throw new StepError(
      `open the pull request (the commits are pushed to \`${into}\`: open one from that branch by hand, or run the command again)`,
      error,
    );
  }
}

export async function runFixJob(
  gateway: GitHubGateway,
  job: Job,
  command: FixCommand,
  plan: Plan,
  tracker: Tracker,
  deps: FixJobDeps,
): Promise<Outcome> {
  const target = job.target;
  if (command.suggest && target.kind !== "review") {
    return {
      kind: "stopped",
      stop: "suggest-needs-review-comment",
      detail: "Write `/fix --suggest` as a review comment on the lines to change, or use `/fix` here to get commits.",
    };
  }
  const forkWithoutEdits = !plan.branch.canPush;
  const noCommit = command.suggest || forkWithoutEdits;
  const token = await step("create an installation token for git", () => gateway.createRepoToken(job.repo));
  const issue = await readIssue(gateway, job);
  const context = untrustedContext(issue, plan);
  const request: FixRequest = {
    ...buildFixRequest(job, command, plan, { token, context, noCommit, tracker }, deps.defaultModel),
    // Noted before the push, so the next command on the thread builds on it even if this process dies right after.
    beforePush: async ({ from, to }) => {
      if (from !== null) await notePush(deps.pushes, deps.logger, { repo: plan.branch.headRepo, from, to });
    },
  };
  const report = await deps.runFix(request, deps.logger);
  if (report.resumedFrom !== undefined) tracker.earlierRunFrom(report.resumedFrom);

  if (report.status !== "success") {
    if (isPushRace(report)) {
      return {
        kind: "stopped",
        stop: "push-race",
        detail: `Someone pushed to \`${plan.branch.into}\` while patchsmith worked, so nothing was pushed (patchsmith never force-pushes or rebases over people). Run the command again to work on top of the new commits.`,
        report,
      };
    }
    return { kind: "not-fixed", report };
  }

  if (target.kind === "review" && command.suggest) {
    const focus = { path: target.path, startLine: target.startLine ?? target.line, endLine: target.line };
    const lines = suggestionLines(report.changedFiles, focus);
    if (!lines.ok) return { kind: "fixed", report, delivery: { kind: "patch", why: `${lines.message} ` } };
    const suggestion = renderSuggestion(lines.lines, testsLine(report));
    try {
      const reply = await gateway.replyToReviewComment(job.repo, target.number, target.commentId, suggestion);
      return { kind: "fixed", report, delivery: { kind: "suggestion", replyUrl: reply.htmlUrl } };
    } catch (error) {
      // The tested change is still worth having: hand it over in the progress comment.
      const why = `The suggestion could not be posted in the review thread (${describeApiError(error)}).`;
      deps.logger.warn("could not reply in the review thread; answering with a patch", { job: job.id, error: why });
      return { kind: "fixed", report, delivery: { kind: "patch", why } };
    }
  }
  if (noCommit) {
    const why = plan.branch.fork
      ? "This pull request comes from a fork that does not allow edits from maintainers, so patchsmith cannot push to it."
      : `This pull request's branch is the default branch (\`${plan.branch.into}\`), which patchsmith never commits to directly.`;
    return { kind: "fixed", report, delivery: { kind: "patch", why } };
  }
  if (!report.pushed && report.commits.length > 0) {
    // Forks that allow maintainer edits still refuse some installation tokens: hand over the patch instead.
    if (plan.branch.fork) {
      const why = "The fork refused the push (it allows edits from maintainers, but not from this app's token).";
      return { kind: "fixed", report, delivery: { kind: "patch", why } };
    }
    return { kind: "not-fixed", report };
  }
  const commits = commitLinks(report, plan.repoInfo.htmlUrl);
  if (issue !== undefined && report.pushed && commits.length > 0) {
    const pull = await openOrFindPull(gateway, job, plan, issue, report, deps.logger);
    return { kind: "fixed", report, delivery: { kind: "pushed", branch: plan.branch.into, commits, pull } };
  }
  return { kind: "fixed", report, delivery: { kind: "pushed", branch: plan.branch.into, commits } };
}
