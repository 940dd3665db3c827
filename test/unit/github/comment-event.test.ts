import { describe, expect, it } from "vitest";
import { toCommentEvent } from "../../../src/github/comment-event.js";
import { loadPayload } from "./fixtures.js";

describe("toCommentEvent", () => {
  it("reads an issue comment", () => {
    const parsed = toCommentEvent("issue_comment", loadPayload("issue-comment-created"));
    expect(parsed.ok && parsed.event).toMatchObject({
      action: "created",
      installationId: 4242,
      repo: { owner: "acme", name: "widgets" },
      sender: { login: "maintainer-mia", id: 777, type: "User" },
      comment: {
        id: 1501,
        kind: "issue-comment",
        htmlUrl: "https://github.com/acme/widgets/issues/12#issuecomment-1501",
      },
      target: { kind: "issue", number: 12 },
      headSha: null,
    });
    expect(parsed.ok && "previousBody" in parsed.event.comment).toBe(false);
  });

  it("tells a pull request conversation from an issue", () => {
    const parsed = toCommentEvent("issue_comment", loadPayload("issue-comment-on-pull"));
    expect(parsed.ok && parsed.event.target).toEqual({ kind: "pull", number: 34 });
  });

  it("keeps the body before an edit", () => {
    const parsed = toCommentEvent("issue_comment", loadPayload("issue-comment-edited"));
    expect(parsed.ok && parsed.event.comment.previousBody).toBe("> /fix quoted by someone\n\nLooks good.");
  });

  it("treats an edit without a body change as no change", () => {
    const payload = loadPayload("issue-comment-edited");
    payload.changes = {};
    const parsed = toCommentEvent("issue_comment", payload);
    expect(parsed.ok && parsed.event.comment.previousBody).toBe(parsed.ok && parsed.event.comment.body);
  });

  it("reads a review comment's lines and the head SHA", () => {
    const parsed = toCommentEvent("pull_request_review_comment", loadPayload("review-comment-created"));
    expect(parsed.ok && parsed.event).toMatchObject({
      target: { kind: "review", number: 34, commentId: 88001, path: "src/parse.ts", line: 14, startLine: 12 },
      headSha: "3f1c2a9b8e7d6c5b4a39281706f5e4d3c2b1a098",
      comment: { kind: "review-comment" },
    });
  });

  it("has no focus for a comment on removed lines", () => {
    const payload = loadPayload("review-comment-created");
    (payload.comment as Record<string, unknown>).side = "LEFT";
    const parsed = toCommentEvent("pull_request_review_comment", payload);
    expect(parsed.ok && parsed.event.target).toEqual({ kind: "pull", number: 34 });
  });

  it("ignores deleted comments and refuses payloads of the wrong shape", () => {
    const deleted = { ...loadPayload("issue-comment-created"), action: "deleted" };
    expect(toCommentEvent("issue_comment", deleted)).toMatchObject({ ok: false, reason: "ignored-action" });
    const broken = { ...loadPayload("issue-comment-created"), installation: undefined };
    expect(toCommentEvent("issue_comment", broken)).toMatchObject({ ok: false, reason: "invalid-payload" });
  });
});
