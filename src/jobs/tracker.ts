/**
 * The visible side of a running job: one progress comment edited in place, and one check run on the head SHA,
 * both ending with the same summary. Updates are serialised and coalesced (a burst of stages makes at most one
 * edit in flight and one waiting), and a failed edit never fails the job. The check run is optional (an API without
 * the checks endpoints, or an app without `checks: write`, simply gets none); the final comment falls back to a new
 * comment when the progress comment cannot be edited.
 */
import type { FixStage } from "../agent/types.js";
import { describeApiError, httpStatusOf } from "../github/api-error.js";
import type { GitHubGateway, RepoRef } from "../ports/github-gateway.js";
import type { Logger } from "../ports/logger.js";
import type { Outcome, Progress } from "./outcome.js";
import { CHECK_NAME, renderCheckOutcome, renderCheckProgress } from "./render-check.js";
import { renderOutcome, renderProgress } from "./render-comment.js";

export interface Tracker {
  /**
   * Makes sure the progress comment exists (the webhook handler may have failed to post it). False when it cannot be
   * posted: the job then has no way to report and should not run.
   */
  open(): Promise<boolean>;
  /** Moves the progress comment to a stage (fire and forget; ordered). */
  stage(stage: FixStage, detail?: string): void;
  /**
   * Opens the check run on the SHA the job works from, reusing the one an earlier run of the same job made (a job
   * rerun after a crash), so no check run is left `in_progress` forever.
   */
  startCheck(headSha: string): Promise<void>;
  /**
   * An earlier run of this job worked from `sha` and pushed before it died (the loop resumed it): its check run
   * there, if still open, is completed with this run's answer.
   */
  earlierRunFrom(sha: string): void;
  /** Writes the final comment and completes the check run. */
  finish(outcome: Outcome): Promise<void>;
}

export interface TrackerOptions {
  readonly gateway: GitHubGateway;
  readonly logger: Logger;
  readonly repo: RepoRef;
  readonly issueNumber: number;
  readonly progressCommentId: number | null;
  readonly requester: string;
  readonly command: string;
  readonly detailsUrl: string;
  /** The job id: the check run's `external_id`, by which a rerun of the job recognises it. */
  readonly jobId: string;
  /**
   * The head SHA the job was queued for (pull requests), where an earlier run of the job may have opened its check
   * run: if this run works from another commit, or stops before opening one, that check run is completed too.
   */
  readonly queuedHeadSha?: string | null;
}

export function createTracker(options: TrackerOptions): Tracker {
  const { gateway, logger, repo } = options;
  let commentId = options.progressCommentId;
  let checkId: number | undefined;
  /** The commit this run opened or reused its check run on. */
  let checkedSha: string | undefined;
  /** Commits an earlier run of this job may have left an open check run on. */
  const earlierShas = new Set<string>();
  if (options.queuedHeadSha !== undefined && options.queuedHeadSha !== null) earlierShas.add(options.queuedHeadSha);
  let chain: Promise<void> = Promise.resolve();
  let waiting: Progress | undefined;
  let lastStage: FixStage | undefined;

  const fields = { repo: `${repo.owner}/${repo.name}`, number: options.issueNumber };
  const warn = (what: string) => (error: unknown) => {
    logger.warn(`could not ${what}`, { ...fields, status: httpStatusOf(error), error: describeApiError(error) });
  };

  /** Check runs of this job on `headSha` that are not completed (an earlier run died with them open). */
  async function openChecksOn(headSha: string): Promise<number[]> {
    try {
      const runs = await gateway.listCheckRuns(repo, { headSha, name: CHECK_NAME });
      return runs.filter((run) => run.externalId === options.jobId && run.status !== "completed").map((run) => run.id);
    } catch (error) {
      warn("look for open check runs of earlier runs of this job")(error);
      return [];
    }
  }

  /** The check run this job made on `headSha` in an earlier run; a failed lookup only means a new one is made. */
  async function findEarlierCheck(headSha: string): Promise<number | undefined> {
    try {
      const runs = await gateway.listCheckRuns(repo, { headSha, name: CHECK_NAME });
      const mine = runs.filter((run) => run.externalId === options.jobId);
      // Only one is expected; should there be more, the newest is the one people look at.
      return mine.length === 0 ? undefined : Math.max(...mine.map((run) => run.id));
    } catch (error) {
      warn("look for an earlier check run of this job")(error);
      return undefined;
    }
  }

  async function writeComment(body: string): Promise<void> {
    if (commentId === null) commentId = (await gateway.createComment(repo, options.issueNumber, body)).id;
    else await gateway.updateComment(repo, commentId, body);
  }

  function flush(): void {
    chain = chain.then(async () => {
      const progress = waiting;
      waiting = undefined;
      if (progress !== undefined) await writeComment(renderProgress(progress)).catch(warn("update the comment"));
    });
  }

  return {
    async open() {
      if (commentId !== null) return true;
      const body = renderProgress({ command: options.command, requester: options.requester, stage: "queued" });
      try {
        commentId = (await gateway.createComment(repo, options.issueNumber, body)).id;
        return true;
      } catch (error) {
        logger.error("could not post the progress comment; the job is not run", {
          ...fields,
          status: httpStatusOf(error),
          error: describeApiError(error),
        });
        return false;
      }
    },
    stage(stage, detail) {
      // "done" is the loop's own last word; the final comment replaces it.
      if (stage === "done" || (stage === lastStage && detail === undefined)) return;
      lastStage = stage;
      const queued = waiting !== undefined;
      waiting = {
        command: options.command,
        requester: options.requester,
        stage,
        ...(detail === undefined ? {} : { detail }),
      };
      if (!queued) flush();
    },
    async startCheck(headSha) {
      checkedSha = headSha;
      const output = renderCheckProgress({ command: options.command, requester: options.requester, stage: "cloning" });
      const earlier = await findEarlierCheck(headSha);
      if (earlier !== undefined) {
        logger.info("reusing the check run of an earlier run of this job", { ...fields, checkRunId: earlier });
        // Even if reopening fails, finish() completes this one: that is what leaves nothing in progress.
        checkId = earlier;
        await gateway.updateCheckRun(repo, earlier, { output }).catch(warn("reopen the check run"));
        return;
      }
      checkId = await gateway
        .createCheckRun(repo, {
          name: CHECK_NAME,
          headSha,
          output,
          externalId: options.jobId,
          // GitHub refuses a details_url that is not a URL.
          ...(/^https?:\/\//.test(options.detailsUrl) ? { detailsUrl: options.detailsUrl } : {}),
        })
        .catch((error: unknown) => {
          warn("create the check run")(error);
          return undefined;
        });
    },
    earlierRunFrom(sha) {
      earlierShas.add(sha);
    },
    async finish(outcome) {
      await chain;
      waiting = undefined;
      const body = renderOutcome(outcome, options.requester, options.command);
      await writeComment(body).catch(async (error: unknown) => {
        warn("edit the progress comment into the final answer")(error);
        if (commentId === null) return;
        // The answer matters more than where it goes: post it as a new comment.
        await gateway.createComment(repo, options.issueNumber, body).catch(warn("post the final answer"));
      });
      const { conclusion, ...output } = renderCheckOutcome(outcome, options.requester, options.command);
      if (checkId !== undefined) {
        await gateway.updateCheckRun(repo, checkId, { output, conclusion }).catch(warn("complete the check run"));
      }
      // An earlier run may have opened its check run on another commit (the one the job was queued for, or the one
      // it started from before it pushed and died), which this run did not work from: close it with the same answer.
      for (const sha of earlierShas) {
        if (sha === checkedSha) continue;
        for (const id of await openChecksOn(sha)) {
          if (id === checkId) continue;
          await gateway.updateCheckRun(repo, id, { output, conclusion }).catch(warn("complete an earlier check run"));
        }
      }
    },
  };
}
