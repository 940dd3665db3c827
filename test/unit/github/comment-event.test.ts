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
    const broken = { ...loadPayload("issue-comment-created"), comment: { body: "/fix" } };
    expect(toCommentEvent("issue_comment", broken)).toMatchObject({ ok: false, reason: "invalid-payload" });
  });

  it("says so when the installation is missing, instead of acting as nobody", () => {
    for (const installation of [undefined, null]) {
      const payload = { ...loadPayload("issue-comment-created"), installation };
      expect(toCommentEvent("issue_comment", payload)).toMatchObject({ ok: false, reason: "no-installation" });
    }
  });

  it("accepts a minimal payload: no user types, no html_url, repository by full_name, pull_request as {}", () => {
    const payload = {
      action: "created",
      installation: { id: 7 },
      repository: { full_name: "acme/widgets" },
      sender: { login: "maintainer-mia" },
      comment: { id: 9, body: "/fix it", user: { login: "maintainer-mia", id: 777 } },
      issue: { number: 3, pull_request: {} },
    };
    const parsed = toCommentEvent("issue_comment", payload);
    expect(parsed.ok && parsed.event).toMatchObject({
      installationId: 7,
      repo: { owner: "acme", name: "widgets" },
      sender: { login: "maintainer-mia", id: 777, type: "User" },
      comment: { id: 9, body: "/fix it", htmlUrl: "" },
      target: { kind: "pull", number: 3 },
    });
  });

  it("rebuilds the comment's address from the repository's, and ignores performed_via_github_app", () => {
    const payload = loadPayload("issue-comment-created");
    const comment = payload.comment as Record<string, unknown>;
    delete comment.html_url;
    comment.performed_via_github_app = null;
    delete (comment.user as Record<string, unknown>).type;
    const parsed = toCommentEvent("issue_comment", payload);
    expect(parsed.ok && parsed.event.comment.htmlUrl).toBe(
      "https://github.com/acme/widgets/issues/12#issuecomment-1501",
    );
  });

  it("reads a review comment without a head SHA or line as a pull request comment", () => {
    const payload = loadPayload("review-comment-created");
    payload.pull_request = { number: 34 };
    delete (payload.comment as Record<string, unknown>).line;
    const parsed = toCommentEvent("pull_request_review_comment", payload);
    expect(parsed.ok && parsed.event).toMatchObject({ target: { kind: "pull", number: 34 }, headSha: null });
  });
});
