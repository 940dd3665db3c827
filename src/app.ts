/**
 * The probot application function: subscribes to comment events, validates each payload while the request is open,
 * and answers at once. The handler's API calls (permission, reaction, the queued comment) run after the answer:
 * GitHub marks a delivery failed after 10 s and probot's middleware waits for the handler, so a slow API must not
 * hold the response. Everything slow after that happens in the worker. Other events (ping, push, issues, …) have no
 * subscriber and are acknowledged by probot with 200.
 */
import type { ApplicationFunction, Context } from "probot";
import type { Octokit } from "./adapters/octokit-gateway.js";
import { describeApiError, httpStatusOf } from "./github/api-error.js";
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

export interface PatchsmithApp {
  readonly appFn: ApplicationFunction;
  /** Resolves when every accepted delivery has been handled (queued or refused): call before closing the queue. */
  drain(): Promise<void>;
}

type CommentContext = Context<"issue_comment"> | Context<"pull_request_review_comment">;

export function createPatchsmithApp(deps: AppDeps): PatchsmithApp {
  const inFlight = new Set<Promise<void>>();

  const handleLater = async (name: CommentEventName, context: CommentContext, parsed: Parsed): Promise<void> => {
    const botLogin = await deps.identity().then(
      (identity) => identity.botLogin,
      () => undefined,
    );
    const gateway = deps.gatewayFor(context.octokit, parsed.installationId);
    try {
      const result = await handleCommentEvent(context.id, parsed, {
        gateway,
        queue: deps.queue,
        logger: deps.logger,
        now: deps.now,
        botLogin,
      });
      deps.logger.debug("comment handled", { delivery: context.id, event: name, result });
    } catch (error) {
      // An essential call (the permission check) failed: nothing was queued, and the delivery can be redelivered.
      deps.logger.error("could not handle the comment; nothing was queued", {
        delivery: context.id,
        event: name,
        repo: `${parsed.repo.owner}/${parsed.repo.name}`,
        status: httpStatusOf(error),
        error: describeApiError(error),
      });
    }
  };

  const receive = (name: CommentEventName, context: CommentContext): Promise<void> => {
    const parsed = toCommentEvent(name, context.payload);
    if (!parsed.ok) {
      if (parsed.reason !== "ignored-action") {
        deps.logger.warn("ignoring a comment event", {
          delivery: context.id,
          event: name,
          reason: parsed.reason,
          problem: parsed.message,
        });
      }
      return Promise.resolve();
    }
    const work = handleLater(name, context, parsed.event).finally(() => inFlight.delete(work));
    inFlight.add(work);
    return Promise.resolve();
  };

  return {
    appFn: (app) => {
      app.on(["issue_comment.created", "issue_comment.edited"], (context) => receive("issue_comment", context));
      app.on(["pull_request_review_comment.created", "pull_request_review_comment.edited"], (context) =>
        receive("pull_request_review_comment", context),
      );
    },
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

type Parsed = Extract<ReturnType<typeof toCommentEvent>, { ok: true }>["event"];
