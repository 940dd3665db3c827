/**
 * The webhook side: validate, screen, check permission, acknowledge, dedupe, enqueue — nothing slow. GitHub marks a
 * delivery failed after 10 s and never redelivers it, and probot's middleware waits for this handler, so the work
 * itself runs in the worker.
 */
import { createHash } from "node:crypto";
import { jobGroup, type Job } from "../jobs/job-schema.js";
import type { GitHubGateway } from "../ports/github-gateway.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Logger } from "../ports/logger.js";
import { bestEffort } from "./api-error.js";
import { DEFAULT_TRIGGER_RULE, authorize, deservesExplanation, screenActor } from "./authorize.js";
import type { CommentEvent } from "./comment-event.js";
import { MARKER } from "./markdown.js";
import { describeCommand, selectCommand } from "./parse-command.js";
import { renderBusy, renderProgress } from "./render-comment.js";

export interface HandlerDeps {
  readonly gateway: GitHubGateway;
  readonly queue: JobQueue<Job>;
  readonly logger: Logger;
  readonly now: () => number;
  /** `${slug}[bot]` when known: the app never answers itself. */
  readonly botLogin: string | undefined;
}

export type HandleResult =
  "duplicate-delivery" | "no-command" | "ignored-bot" | "denied" | "duplicate-command" | "thread-busy" | "enqueued";

/**
 * Commands one thread may have queued or running. Jobs of a thread run one at a time, each for up to its wall-time
 * budget, so a burst of comments (or a loop of edits) would otherwise book the worker for hours.
 */
export const MAX_WAITING_PER_THREAD = 3;

function jobId(event: CommentEvent, key: string): string {
  const digest = createHash("sha256").update(key).digest("hex").slice(0, 16);
  // Queue ids may not contain ':' (BullMQ); keep them to [a-z0-9-].
  return `${event.comment.kind === "review-comment" ? "r" : "c"}${event.comment.id}-${digest}`;
}

export async function handleCommentEvent(
  deliveryId: string,
  event: CommentEvent,
  deps: HandlerDeps,
): Promise<HandleResult> {
  const deliveryKey = `delivery-${deliveryId}`;
  if (!(await deps.queue.remember(deliveryKey))) return "duplicate-delivery";
  const reserved: string[] = [deliveryKey];
  try {
    return await handleNewDelivery(deliveryId, event, deps, reserved);
  } catch (error) {
    // Nothing was queued: forget the keys so that a redelivery (from the app's settings page) can try again.
    await Promise.all(reserved.map((key) => deps.queue.forget(key)));
    throw error;
  }
}

async function handleNewDelivery(
  deliveryId: string,
  event: CommentEvent,
  deps: HandlerDeps,
  reserved: string[],
): Promise<HandleResult> {
  const { gateway, queue, logger } = deps;
  if (event.comment.body.includes(MARKER)) return "ignored-bot";
  const found = selectCommand(event.comment.body, event.comment.previousBody);
  if (found === undefined) return "no-command";
  if (!screenActor(event.sender, deps.botLogin).ok) return "ignored-bot";

  const number = event.target.number;
  const isPull = event.target.kind !== "issue";
  const [permission, headSha] = await Promise.all([
    gateway.getPermission(event.repo, event.sender.login),
    isPull && event.headSha === null
      ? gateway.getPull(event.repo, number).then((pull) => pull.headSha)
      : Promise.resolve(event.headSha),
  ]);
  const base = {
    version: 1 as const,
    deliveryId,
    installationId: event.installationId,
    repo: event.repo,
    target: event.target,
    requester: { login: event.sender.login, id: event.sender.id },
    comment: { id: event.comment.id, htmlUrl: event.comment.htmlUrl, kind: event.comment.kind },
    headSha,
    enqueuedAt: deps.now(),
  };

  const auth = authorize(event.sender, permission, DEFAULT_TRIGGER_RULE, deps.botLogin);
  if (!auth.ok) {
    if (!deservesExplanation(auth.reason)) return "ignored-bot";
    // Once per person per thread: the id makes a second attempt a no-op.
    const id = `denied-${event.repo.owner}-${event.repo.name}-${number}-${event.sender.login}`.toLowerCase();
    const job: Job = { ...base, id, command: { kind: "explain-denied", permission }, progressCommentId: null };
    await queue.add(job, { id, group: `notice-${id}` });
    logger.info("command denied", { delivery: deliveryId, login: event.sender.login, permission });
    return "denied";
  }

  const id = jobId(event, found.key);
  if (!(await queue.remember(`job-${id}`))) return "duplicate-command";
  reserved.push(`job-${id}`);

  const reaction = { kind: event.comment.kind, commentId: event.comment.id } as const;
  const effort = { logger, fields: { delivery: deliveryId } };
  await bestEffort("add the 👀 reaction", () => gateway.addReaction(event.repo, reaction, "eyes"), undefined, effort);

  const command = found.command;
  if (command.kind === "help") {
    const job: Job = { ...base, id, command, progressCommentId: null };
    await queue.add(job, { id, group: `notice-${id}` });
    return "enqueued";
  }
  const group = jobGroup(event.repo, number);
  const waitingBehind = await queue.pending(group);
  if (waitingBehind >= MAX_WAITING_PER_THREAD) {
    const busy = renderBusy(event.sender.login, describeCommand(command), waitingBehind);
    await bestEffort(
      "say the thread is busy",
      () => gateway.createComment(event.repo, number, busy),
      undefined,
      effort,
    );
    logger.info("command refused: thread busy", { delivery: deliveryId, job: id, waiting: waitingBehind, group });
    return "thread-busy";
  }
  const body = renderProgress({
    command: describeCommand(command),
    requester: event.sender.login,
    stage: "queued",
    waitingBehind,
  });
  // Without it the job still runs: the worker posts the progress comment itself when it starts (and stops if it
  // cannot, since it would have no way to report).
  const progress = await bestEffort(
    "post the queued comment",
    () => gateway.createComment(event.repo, number, body),
    undefined,
    effort,
  );
  const job: Job = { ...base, id, command, progressCommentId: progress?.id ?? null };
  await queue.add(job, { id, group });
  logger.info("command queued", { delivery: deliveryId, job: id, command: command.kind, group });
  return "enqueued";
}
