/**
 * The probot application function: subscribes to comment events and hands each one to the handler, which only
 * validates, acknowledges and enqueues. Everything slow happens in the worker.
 */
import type { ApplicationFunction, Context } from "probot";
import type { Octokit } from "./adapters/octokit-gateway.js";
import { toCommentEvent, type CommentEventName } from "./github/comment-event.js";
import { handleCommentEvent } from "./github/handle-comment.js";
import type { Job } from "./jobs/job-schema.js";
import type { AppIdentity, GitHubGateway } from "./ports/github-gateway.js";
import type { JobQueue } from "./ports/job-queue.js";
import type { Logger } from "./ports/logger.js";

export interface AppDeps {
  readonly queue: JobQueue<Job>;
  readonly logger: Logger;
  readonly now: () => number;
  readonly identity: () => Promise<AppIdentity>;
  /** A gateway over the event's installation client. */
  readonly gatewayFor: (octokit: Octokit, installationId: number) => GitHubGateway;
}

type CommentContext = Context<"issue_comment"> | Context<"pull_request_review_comment">;

export function createPatchsmithApp(deps: AppDeps): ApplicationFunction {
  const handle = async (name: CommentEventName, context: CommentContext): Promise<void> => {
    const parsed = toCommentEvent(name, context.payload);
    if (!parsed.ok) {
      if (parsed.reason === "invalid-payload") {
        deps.logger.warn("ignoring a payload of an unexpected shape", {
          delivery: context.id,
          problem: parsed.message,
        });
      }
      return;
    }
    const botLogin = await deps.identity().then(
      (identity) => identity.botLogin,
      () => undefined,
    );
    const gateway = deps.gatewayFor(context.octokit, parsed.event.installationId);
    const result = await handleCommentEvent(context.id, parsed.event, {
      gateway,
      queue: deps.queue,
      logger: deps.logger,
      now: deps.now,
      botLogin,
    });
    deps.logger.debug("comment handled", { delivery: context.id, event: name, result });
  };

  return (app) => {
    app.on(["issue_comment.created", "issue_comment.edited"], (context) => handle("issue_comment", context));
    app.on(["pull_request_review_comment.created", "pull_request_review_comment.edited"], (context) =>
      handle("pull_request_review_comment", context),
    );
  };
}
