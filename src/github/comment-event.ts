/**
 * The part of an `issue_comment` or `pull_request_review_comment` webhook the app acts on, validated with zod (a
 * payload is input from the network like any other) and flattened into one shape.
 */
import { z } from "zod";
import type { JobTarget } from "../jobs/job-schema.js";
import type { RepoRef } from "../ports/github-gateway.js";
import type { Actor } from "./authorize.js";

export type CommentEventName = "issue_comment" | "pull_request_review_comment";

export interface CommentEvent {
  readonly action: "created" | "edited";
  readonly installationId: number;
  readonly repo: RepoRef;
  /** Who performed this action (on an edit, the editor: the one whose permission counts). */
  readonly sender: Actor & { readonly id: number };
  readonly comment: {
    readonly id: number;
    readonly body: string;
    /** The body before an edit; undefined for a new comment. */
    readonly previousBody?: string;
    readonly htmlUrl: string;
    readonly kind: "issue-comment" | "review-comment";
  };
  readonly target: JobTarget;
  /** The PR head SHA when the payload carries it (review comments); null otherwise. */
  readonly headSha: string | null;
}

const user = z.object({ login: z.string(), id: z.number(), type: z.string() });
const repository = z.object({ name: z.string(), owner: z.object({ login: z.string() }) });
const baseComment = z.object({ id: z.number(), body: z.string().nullable(), html_url: z.string() });
const changes = z.object({ body: z.object({ from: z.string().nullable() }).optional() }).optional();

const issueCommentPayload = z.object({
  action: z.string(),
  installation: z.object({ id: z.number() }),
  repository,
  sender: user,
  changes,
  comment: baseComment,
  issue: z.object({ number: z.number(), pull_request: z.unknown().optional() }),
});

const reviewCommentPayload = z.object({
  action: z.string(),
  installation: z.object({ id: z.number() }),
  repository,
  sender: user,
  changes,
  comment: baseComment.extend({
    path: z.string(),
    line: z.number().nullable().optional(),
    original_line: z.number().nullable().optional(),
    start_line: z.number().nullable().optional(),
    side: z.string().nullable().optional(),
  }),
  pull_request: z.object({ number: z.number(), head: z.object({ sha: z.string() }) }),
});

export type EventParse =
  | { readonly ok: true; readonly event: CommentEvent }
  | { readonly ok: false; readonly reason: "ignored-action" | "invalid-payload"; readonly message: string };

function previousBody(
  action: "created" | "edited",
  body: string,
  changed: z.infer<typeof changes>,
): { previousBody?: string } {
  if (action === "created") return {};
  // An edit that did not touch the body (GitHub omits changes.body) adds no command: compare with itself.
  return { previousBody: changed?.body === undefined ? body : (changed.body.from ?? "") };
}

function toAction(action: string): "created" | "edited" | undefined {
  return action === "created" || action === "edited" ? action : undefined;
}

export function toCommentEvent(name: CommentEventName, payload: unknown): EventParse {
  if (name === "issue_comment") {
    const parsed = issueCommentPayload.safeParse(payload);
    if (!parsed.success) return { ok: false, reason: "invalid-payload", message: z.prettifyError(parsed.error) };
    const p = parsed.data;
    const action = toAction(p.action);
    if (action === undefined) return { ok: false, reason: "ignored-action", message: `action ${p.action}` };
    const body = p.comment.body ?? "";
    const isPull = p.issue.pull_request !== undefined && p.issue.pull_request !== null;
    return {
      ok: true,
      event: {
        action,
        installationId: p.installation.id,
        repo: { owner: p.repository.owner.login, name: p.repository.name },
        sender: p.sender,
        comment: {
          id: p.comment.id,
          body,
          ...previousBody(action, body, p.changes),
          htmlUrl: p.comment.html_url,
          kind: "issue-comment",
        },
        target: { kind: isPull ? "pull" : "issue", number: p.issue.number },
        headSha: null,
      },
    };
  }
  const parsed = reviewCommentPayload.safeParse(payload);
  if (!parsed.success) return { ok: false, reason: "invalid-payload", message: z.prettifyError(parsed.error) };
  const p = parsed.data;
  const action = toAction(p.action);
  if (action === undefined) return { ok: false, reason: "ignored-action", message: `action ${p.action}` };
  const body = p.comment.body ?? "";
  const line = p.comment.line ?? null;
  // Comments on removed lines (LEFT side) or outdated ones have no lines in the current file to focus on.
  const target: JobTarget =
    line !== null && p.comment.side !== "LEFT"
      ? {
          kind: "review",
          number: p.pull_request.number,
          commentId: p.comment.id,
          path: p.comment.path,
          line,
          startLine: p.comment.start_line ?? null,
        }
      : { kind: "pull", number: p.pull_request.number };
  return {
    ok: true,
    event: {
      action,
      installationId: p.installation.id,
      repo: { owner: p.repository.owner.login, name: p.repository.name },
      sender: p.sender,
      comment: {
        id: p.comment.id,
        body,
        ...previousBody(action, body, p.changes),
        htmlUrl: p.comment.html_url,
        kind: "review-comment",
      },
      target,
      headSha: p.pull_request.head.sha,
    },
  };
}
