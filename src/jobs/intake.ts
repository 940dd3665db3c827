/**
 * The first thing that happens to a command after the webhook answered (its record is already on disk): screen it,
 * check the sender's live permission, react 👀, then either answer at once (/help, a polite refusal, "this thread is
 * busy") or post the "queued" comment and add the job. Intake runs one record at a time per thread, in arrival order,
 * on its own workers (a long fix never delays an acknowledgement), so "at most 3 per thread" is checked and taken in
 * one step.
 *
 * At least once: a record whose intake was cut short by a crash runs again. Every comment posted here carries a
 * marker with the delivery id, and a rerun looks for it before posting, so nothing is said twice and no "queued"
 * comment is left without its job.
 */
import { createHash } from "node:crypto";
import { bestEffort, describeApiError, httpStatusOf, isTokenMintFailure } from "../github/api-error.js";
import { DEFAULT_TRIGGER_RULE, authorize, deservesExplanation, screenActor } from "../github/authorize.js";
import type { CommentEvent } from "../github/comment-event.js";
import { MARKER } from "../github/markdown.js";
import { describeCommand, selectCommand } from "../github/parse-command.js";
import { renderBusy, renderDenied, renderHelp, renderProgress } from "./render-comment.js";
import type { AppIdentity, CommentRef, GitHubGateway, Permission } from "../ports/github-gateway.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Logger } from "../ports/logger.js";
import type { IntakeRecord } from "../github/intake-record.js";
import { jobGroup, type Job } from "./job-schema.js";

export interface IntakeDeps {
  readonly gateway: (installationId: number) => GitHubGateway;
  readonly jobs: JobQueue<Job>;
  readonly logger: Logger;
  readonly now: () => number;
  readonly identity: () => Promise<AppIdentity>;
  /** Waits between tries of the permission check (default: 1 s, 4 s, 15 s). */
  readonly retryDelaysMs?: readonly number[];
}

export type IntakeResult =
  "no-command" | "ignored-bot" | "denied" | "duplicate-command" | "thread-busy" | "answered" | "enqueued" | "failed";

/**
 * Commands one thread may have queued or running. Jobs of a thread run one at a time, each for up to its wall-time
 * budget, so a burst of comments (or a loop of edits) would otherwise book the worker for hours.
 */
export const MAX_WAITING_PER_THREAD = 3;

const DEFAULT_RETRY_DELAYS_MS = [1_000, 4_000, 15_000];

/** The job's id: the comment and the command's normal form (queue ids may not contain ':'; keep [a-z0-9-]). */
export function jobId(event: CommentEvent, key: string): string {
  const digest = createHash("sha256").update(key).digest("hex").slice(0, 16);
  return `${event.comment.kind === "review-comment" ? "r" : "c"}${event.comment.id}-${digest}`;
}

/** The invisible tag on every comment intake posts for a delivery: what a rerun looks for. */
export const deliveryMarker = (deliveryId: string, what: string): string =>
  `<!-- patchsmith:delivery=${deliveryId.replace(/[^A-Za-z0-9-]/g, "")}:${what} -->`;

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/** A server error or a dropped connection is worth another try; a 4xx (and a refused token) is not. */
function isTransient(error: unknown): boolean {
  if (isTokenMintFailure(error)) return false;
  const status = httpStatusOf(error);
  return status === undefined || status >= 500 || status === 429;
}

async function withRetries<T>(call: () => Promise<T>, delays: readonly number[]): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined || !isTransient(error)) throw error;
      await sleep(delay);
    }
  }
}

export async function runIntake(record: IntakeRecord, deps: IntakeDeps, attempt: string): Promise<IntakeResult> {
  const { event, deliveryId } = record;
  const { logger, jobs } = deps;
  const fields = { delivery: deliveryId, repo: `${event.repo.owner}/${event.repo.name}`, number: event.target.number };
  if (event.comment.body.includes(MARKER)) return "ignored-bot";
  const found = selectCommand(event.comment.body, event.comment.previousBody);
  if (found === undefined) return "no-command";
  const botLogin = await deps.identity().then(
    (identity) => identity.botLogin,
    () => undefined,
  );
  if (!screenActor(event.sender, botLogin).ok) return "ignored-bot";

  const id = jobId(event, found.key);
  // Another delivery of the same command (a comment edited without touching it, a redelivery by hand) stops here.
  if ((await jobs.claim(`command-${id}`, deliveryId)) !== deliveryId) return "duplicate-command";
  // A rerun after a crash: comments the first run posted are looked for before posting again.
  const rerun = (await jobs.claim(`intake-${deliveryId}`, attempt)) !== attempt;
  const gateway = deps.gateway(event.installationId);
  const number = event.target.number;
  const postOnce = async (what: string, body: string): Promise<CommentRef> => {
    const marker = deliveryMarker(deliveryId, what);
    const earlier = rerun
      ? await gateway.findComment(event.repo, number, marker, record.receivedAt - 60_000)
      : undefined;
    return earlier ?? (await gateway.createComment(event.repo, number, `${body}\n${marker}`));
  };

  let permission: Permission;
  let headSha: string | null;
  try {
    [permission, headSha] = await withRetries(
      () =>
        Promise.all([
          gateway.getPermission(event.repo, event.sender.login),
          event.target.kind !== "issue" && event.headSha === null
            ? gateway.getPull(event.repo, number).then((pull) => pull.headSha)
            : Promise.resolve(event.headSha),
        ]),
      deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    );
  } catch (error) {
    // A refused installation token is the app's configuration, not the person's permission: say which.
    logger.error(
      isTokenMintFailure(error)
        ? "cannot act on the command: GitHub refused the app an installation token"
        : "cannot act on the command: the permission check failed",
      { ...fields, status: httpStatusOf(error), error: describeApiError(error) },
    );
    return "failed";
  }

  const effort = { logger, fields };
  const auth = authorize(event.sender, permission, DEFAULT_TRIGGER_RULE, botLogin);
  if (!auth.ok) {
    if (!deservesExplanation(auth.reason)) return "ignored-bot";
    // Once per person per thread.
    const once = `denied-${event.repo.owner}/${event.repo.name}#${String(number)}-${event.sender.login}`.toLowerCase();
    if ((await jobs.claim(once, deliveryId)) === deliveryId) {
      await bestEffort(
        "post the note on who may trigger patchsmith",
        () => postOnce("denied", renderDenied(event.sender.login, auth.reason)),
        undefined,
        effort,
      );
    }
    logger.info("command denied", { ...fields, login: event.sender.login, permission });
    return "denied";
  }

  const reaction = { kind: event.comment.kind, commentId: event.comment.id } as const;
  await bestEffort("add the 👀 reaction", () => gateway.addReaction(event.repo, reaction, "eyes"), undefined, effort);

  const command = found.command;
  if (command.kind === "help") {
    await bestEffort("post the help reply", () => postOnce("help", renderHelp()), undefined, effort);
    return "answered";
  }
  const group = jobGroup(event.repo, number);
  const waitingBehind = await jobs.pending(group);
  // The verdict is kept: a rerun after a crash that came after the job was added would count that job against the
  // cap, and refuse a command that is already queued.
  const verdict = await jobs.claim(`verdict-${deliveryId}`, waitingBehind >= MAX_WAITING_PER_THREAD ? "busy" : "queue");
  if (verdict === "busy") {
    const busy = renderBusy(event.sender.login, describeCommand(command), waitingBehind);
    await bestEffort("say the thread is busy", () => postOnce("busy", busy), undefined, effort);
    logger.info("command refused: thread busy", { ...fields, job: id, waiting: waitingBehind });
    return "thread-busy";
  }
  const body = renderProgress({
    command: describeCommand(command),
    requester: event.sender.login,
    stage: "queued",
    waitingBehind,
  });
  // Without it the job still runs: the worker posts the progress comment itself when it starts.
  const progress = await bestEffort("post the queued comment", () => postOnce("queued", body), undefined, effort);
  const job: Job = {
    version: 1,
    id,
    deliveryId,
    installationId: event.installationId,
    repo: event.repo,
    target: event.target,
    requester: { login: event.sender.login, id: event.sender.id },
    comment: { id: event.comment.id, htmlUrl: event.comment.htmlUrl, kind: event.comment.kind },
    command,
    headSha,
    progressCommentId: progress?.id ?? null,
    enqueuedAt: deps.now(),
  };
  await jobs.add(job, { id, group });
  logger.info("command queued", { ...fields, job: id, command: command.kind });
  return "enqueued";
}
