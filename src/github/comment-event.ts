/**
 * The part of an `issue_comment` or `pull_request_review_comment` webhook the app acts on, validated with zod (a
 * payload is input from the network like any other) and flattened into one shape.
 */
import { z } from "zod";
import type { CommentTarget } from "./comment-target.js";
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
    readonly previousBody?: string | undefined;
    readonly htmlUrl: string;
    readonly kind: "issue-comment" | "review-comment";
  };
  readonly target: CommentTarget;
  /** The PR head SHA when the payload carries it (review comments); null otherwise. */
  readonly headSha: string | null;
}

/*
 * Only what the app needs is required. Senders from other GitHub servers or test doubles may leave out `type`, `id`
 * or `html_url`, or send `issue.pull_request` as `{}`: the fallbacks below keep such events working, and the
 * permission check (not `type`) is what decides who may trigger work.
 */
const user = z.object({ login: z.string().min(1), id: z.number().optional(), type: z.string().nullish() });
const repository = z.object({
  name: z.string().optional(),
  full_name: z.string().optional(),
  html_url: z.string().nullish(),
  owner: z.object({ login: z.string().optional() }).nullish(),
});
const baseComment = z.object({
  id: z.number(),
  body: z.string().nullish(),
  html_url: z.string().nullish(),
  user: z.object({ id: z.number().optional() }).nullish(),
});
const changes = z.object({ body: z.object({ from: z.string().nullish() }).optional() }).nullish();
const installation = z.object({ id: z.number() }).nullish();

const issueCommentPayload = z.object({
  action: z.string(),
  installation,
  repository,
  sender: user,
  changes,
  comment: baseComment,
  issue: z.object({ number: z.number(), pull_request: z.unknown().optional() }),
});

const reviewCommentPayload = z.object({
  action: z.string(),
  installation,
  repository,
  sender: user,
  changes,
  comment: baseComment.extend({
    path: z.string().nullish(),
    line: z.number().nullish(),
    original_line: z.number().nullish(),
    start_line: z.number().nullish(),
    side: z.string().nullish(),
  }),
  pull_request: z.object({ number: z.number(), head: z.object({ sha: z.string().nullish() }).nullish() }),
});

type RepositoryJson = z.infer<typeof repository>;

/** `owner/name` from `owner.login` and `name`, or from `full_name`. */
function repoOf(json: RepositoryJson): RepoRef | undefined {
  const [fullOwner, fullName] = json.full_name?.split("/") ?? [];
  const owner = json.owner?.login ?? fullOwner;
  const name = json.name ?? fullName;
  return owner !== undefined && owner !== "" && name !== undefined && name !== "" ? { owner, name } : undefined;
}

/** The comment's web address; rebuilt from the repository's when the payload leaves it out. */
function commentUrl(html: string | null | undefined, json: RepositoryJson, path: string): string {
  if (typeof html === "string" && html !== "") return html;
  return typeof json.html_url === "string" && json.html_url !== "" ? `${json.html_url}/${path}` : "";
}

function senderOf(sender: z.infer<typeof user>, comment: z.infer<typeof baseComment>): CommentEvent["sender"] {
  // Without an id the co-author line falls back to the login-only noreply address.
  return { login: sender.login, id: sender.id ?? comment.user?.id ?? 0, type: sender.type ?? "User" };
}

export type EventParse =
  | { readonly ok: true; readonly event: CommentEvent }
  | {
      readonly ok: false;
      readonly reason: "ignored-action" | "invalid-payload" | "no-installation";
      readonly message: string;
    };

function invalid(error: z.ZodError): EventParse {
  return { ok: false, reason: "invalid-payload", message: z.prettifyError(error) };
}

/** Checks shared by both events: an action we act on, an installation to act as, a repository. */
function common(p: {
  action: string;
  installation?: { id: number } | null | undefined;
  repository: RepositoryJson;
}): { action: "created" | "edited"; installationId: number; repo: RepoRef } | EventParse {
  const action = toAction(p.action);
  if (action === undefined) return { ok: false, reason: "ignored-action", message: `action ${p.action}` };
  if (p.installation === undefined || p.installation === null) {
    return {
      ok: false,
      reason: "no-installation",
      message: "the payload has no installation id, so there is no installation to act as",
    };
  }
  const repo = repoOf(p.repository);
  if (repo === undefined)
    return { ok: false, reason: "invalid-payload", message: "the repository has no owner or name" };
  return { action, installationId: p.installation.id, repo };
}

/** The comment part of the event, the same for both payloads but for its kind and the URL path to fall back on. */
function commentOf(
  p: {
    comment: z.infer<typeof baseComment> & {
      id: number;
      body?: string | null | undefined;
      html_url?: string | null | undefined;
    };
    repository: RepositoryJson;
    changes?: z.infer<typeof changes>;
  },
  action: "created" | "edited",
  kind: CommentEvent["comment"]["kind"],
  urlPath: string,
): CommentEvent["comment"] {
  const body = p.comment.body ?? "";
  return {
    id: p.comment.id,
    body,
    ...previousBody(action, body, p.changes),
    htmlUrl: commentUrl(p.comment.html_url, p.repository, urlPath),
    kind,
  };
}

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
    if (!parsed.success) return invalid(parsed.error);
    const p = parsed.data;
    const base = common(p);
    if ("ok" in base) return base;
    // GitHub sends `pull_request: { url, ... }` on pull requests; any object (even `{}`) marks one.
    const isPull = p.issue.pull_request !== undefined && p.issue.pull_request !== null;
    const path = `${isPull ? "pull" : "issues"}/${String(p.issue.number)}#issuecomment-${String(p.comment.id)}`;
    return {
      ok: true,
      event: {
        ...base,
        sender: senderOf(p.sender, p.comment),
        comment: commentOf(p, base.action, "issue-comment", path),
        target: { kind: isPull ? "pull" : "issue", number: p.issue.number },
        headSha: null,
      },
    };
  }
  const parsed = reviewCommentPayload.safeParse(payload);
  if (!parsed.success) return invalid(parsed.error);
  const p = parsed.data;
  const base = common(p);
  if ("ok" in base) return base;
  const line = p.comment.line ?? null;
  const number = p.pull_request.number;
  const filePath = p.comment.path ?? "";
  // Comments on removed lines (LEFT side) or outdated ones have no lines in the current file to focus on.
  const target: CommentTarget =
    line !== null && line > 0 && p.comment.side !== "LEFT" && filePath !== ""
      ? {
          kind: "review",
          number,
          commentId: p.comment.id,
          path: filePath,
          line,
          startLine: p.comment.start_line ?? null,
        }
      : { kind: "pull", number };
  return {
    ok: true,
    event: {
      ...base,
      sender: senderOf(p.sender, p.comment),
      comment: commentOf(
        p,
        base.action,
        "review-comment",
        `pull/${String(number)}#discussion_r${String(p.comment.id)}`,
      ),
      target,
      headSha: p.pull_request.head?.sha ?? null,
    },
  };
}
