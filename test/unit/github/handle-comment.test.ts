import { describe, expect, it } from "vitest";
import { createMemoryQueue } from "../../../src/adapters/memory-queue.js";
import { toCommentEvent, type CommentEvent, type CommentEventName } from "../../../src/github/comment-event.js";
import { MAX_WAITING_PER_THREAD, handleCommentEvent } from "../../../src/github/handle-comment.js";
import type { Job } from "../../../src/jobs/job-schema.js";
import type { Logger } from "../../../src/ports/logger.js";
import { createFakeGateway, httpError } from "../jobs/fake-gateway.js";
import { loadPayload, type FixtureName } from "./fixtures.js";

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  };
  return { lines, debug: log, info: log, warn: log, error: log };
}

function eventOf(
  name: CommentEventName,
  fixture: FixtureName,
  edit?: (payload: Record<string, unknown>) => void,
): CommentEvent {
  const payload = loadPayload(fixture);
  edit?.(payload);
  const parsed = toCommentEvent(name, payload);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.event;
}

function setup() {
  const fake = createFakeGateway();
  const queue = createMemoryQueue<Job>();
  const added: Job[] = [];
  const add = queue.add.bind(queue);
  queue.add = async (job, options) => {
    const ok = await add(job, options);
    if (ok) added.push(job);
    return ok;
  };
  const logger = recordingLogger();
  const deps = {
    gateway: fake.gateway,
    queue,
    logger,
    now: () => 1_700_000_000_000,
    botLogin: "patchsmith[bot]",
  };
  return { fake, queue, added, deps, lines: logger.lines };
}

describe("handleCommentEvent", () => {
  it("checks permission, reacts, posts the queued comment and enqueues a fix on an issue", async () => {
    const { fake, added, deps } = setup();
    const result = await handleCommentEvent("d-1", eventOf("issue_comment", "issue-comment-created"), deps);
    expect(result).toBe("enqueued");
    expect(fake.methods()).toEqual(["getPermission", "addReaction", "createComment"]);
    expect(fake.calls[1]?.args[1]).toEqual({ kind: "issue-comment", commentId: 1501 });
    expect(fake.calls[1]?.args[2]).toBe("eyes");
    expect(String(fake.calls[2]?.args[2])).toContain("**queued** ⏳");
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      version: 1,
      deliveryId: "d-1",
      installationId: 4242,
      target: { kind: "issue", number: 12 },
      command: { kind: "fix", instructions: "keep the last line when there is no trailing newline", suggest: false },
      requester: { login: "maintainer-mia", id: 777 },
      headSha: null,
      progressCommentId: 9000,
    });
  });

  it("reads the PR head SHA for a command in a pull request conversation", async () => {
    const { fake, added, deps } = setup();
    await handleCommentEvent("d-2", eventOf("issue_comment", "issue-comment-on-pull"), deps);
    expect(fake.methods()).toContain("getPull");
    expect(added[0]?.headSha).toBe("a".repeat(40));
  });

  it("takes the head SHA of a review comment from the payload", async () => {
    const { fake, added, deps } = setup();
    await handleCommentEvent("d-3", eventOf("pull_request_review_comment", "review-comment-created"), deps);
    expect(fake.methods()).not.toContain("getPull");
    expect(fake.calls.find((c) => c.method === "addReaction")?.args[1]).toEqual({
      kind: "review-comment",
      commentId: 88001,
    });
    expect(added[0]).toMatchObject({
      headSha: "3f1c2a9b8e7d6c5b4a39281706f5e4d3c2b1a098",
      command: { kind: "fix", suggest: true, instructions: "use a for-of loop here" },
      target: { kind: "review", path: "src/parse.ts", line: 14, startLine: 12 },
    });
  });

  it("does nothing twice for the same delivery or the same comment", async () => {
    const { fake, added, deps } = setup();
    const event = eventOf("issue_comment", "issue-comment-created");
    expect(await handleCommentEvent("d-4", event, deps)).toBe("enqueued");
    const callsAfterFirst = fake.calls.length;
    expect(await handleCommentEvent("d-4", event, deps)).toBe("duplicate-delivery");
    expect(fake.calls.length).toBe(callsAfterFirst);
    // A new delivery of the same comment (a redelivery) is a no-op too, after the permission check.
    expect(await handleCommentEvent("d-5", event, deps)).toBe("duplicate-command");
    expect(fake.methods().filter((m) => m === "addReaction")).toHaveLength(1);
    expect(added).toHaveLength(1);
  });

  it("ignores bots without a word and without an API call", async () => {
    const { fake, added, deps } = setup();
    expect(await handleCommentEvent("d-6", eventOf("issue_comment", "issue-comment-by-bot"), deps)).toBe("ignored-bot");
    expect(fake.calls).toEqual([]);
    expect(added).toEqual([]);
  });

  it("ignores comments that carry patchsmith's own marker", async () => {
    const { fake, deps } = setup();
    const event = eventOf("issue_comment", "issue-comment-created", (p) => {
      (p.comment as Record<string, unknown>).body = "<!-- patchsmith -->\n/fix loop";
    });
    expect(await handleCommentEvent("d-7", event, deps)).toBe("ignored-bot");
    expect(fake.calls).toEqual([]);
  });

  it("explains once per person per thread when the commenter cannot write", async () => {
    const { fake, added, deps } = setup();
    fake.state.permissions["maintainer-mia"] = "read";
    const event = eventOf("issue_comment", "issue-comment-created");
    expect(await handleCommentEvent("d-8", event, deps)).toBe("denied");
    const again = eventOf("issue_comment", "issue-comment-created", (p) => {
      (p.comment as Record<string, unknown>).id = 1600;
    });
    expect(await handleCommentEvent("d-9", again, deps)).toBe("denied");
    expect(fake.methods()).not.toContain("addReaction");
    expect(added).toHaveLength(1);
    expect(added[0]?.command).toEqual({ kind: "explain-denied", permission: "read" });
  });

  it("runs only a command added by an edit", async () => {
    const { added, deps } = setup();
    const result = await handleCommentEvent("d-10", eventOf("issue_comment", "issue-comment-edited"), deps);
    expect(result).toBe("enqueued");
    expect(added[0]?.command).toEqual({ kind: "undo" });
    const unchanged = eventOf("issue_comment", "issue-comment-edited", (p) => {
      p.changes = { body: { from: (p.comment as { body: string }).body } };
    });
    expect(await handleCommentEvent("d-11", unchanged, deps)).toBe("no-command");
  });

  it("answers /help without a progress comment", async () => {
    const { fake, added, deps } = setup();
    const event = eventOf("issue_comment", "issue-comment-created", (p) => {
      (p.comment as Record<string, unknown>).body = "/help";
    });
    expect(await handleCommentEvent("d-12", event, deps)).toBe("enqueued");
    expect(fake.methods()).not.toContain("createComment");
    expect(added[0]).toMatchObject({ command: { kind: "help" }, progressCommentId: null });
  });

  it("forgets the delivery when the permission check fails, so a redelivery can try again", async () => {
    const { fake, added, deps } = setup();
    const event = eventOf("issue_comment", "issue-comment-created");
    fake.state.failures.getPermission = httpError(502, "Bad Gateway");
    await expect(handleCommentEvent("d-13", event, deps)).rejects.toThrow("Bad Gateway");
    expect(added).toHaveLength(0);
    delete fake.state.failures.getPermission;
    expect(await handleCommentEvent("d-13", event, deps)).toBe("enqueued");
    expect(added).toHaveLength(1);
  });

  it("still queues the job when the reaction and the queued comment fail (the worker posts its own)", async () => {
    const { fake, added, deps, lines } = setup();
    fake.state.failures.addReaction = httpError(404);
    fake.state.failures.createComment = httpError(500, "Internal Server Error");
    const event = eventOf("issue_comment", "issue-comment-created");
    expect(await handleCommentEvent("d-16", event, deps)).toBe("enqueued");
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ command: { kind: "fix" }, progressCommentId: null });
    expect(lines.join("\n")).toContain("could not add the 👀 reaction");
    expect(lines.join("\n")).toContain("HTTP 500: Internal Server Error");
  });

  it("says how many commands wait ahead on the same thread", async () => {
    const { fake, deps } = setup();
    await handleCommentEvent("d-14", eventOf("issue_comment", "issue-comment-created"), deps);
    const second = eventOf("issue_comment", "issue-comment-created", (p) => {
      (p.comment as Record<string, unknown>).id = 1700;
    });
    await handleCommentEvent("d-15", second, deps);
    const bodies = fake.calls.filter((c) => c.method === "createComment").map((c) => String(c.args[2]));
    expect(bodies[0]).not.toContain("Waiting behind");
    expect(bodies[1]).toContain("Waiting behind 1 earlier command");
  });

  it("refuses a command, with a reply, when its thread already has the most it may queue", async () => {
    const { fake, deps, added } = setup();
    const results: string[] = [];
    for (let k = 0; k <= MAX_WAITING_PER_THREAD; k++) {
      const event = eventOf("issue_comment", "issue-comment-created", (p) => {
        (p.comment as Record<string, unknown>).id = 1800 + k;
      });
      results.push(await handleCommentEvent(`d-busy-${k}`, event, deps));
    }
    expect(results).toEqual([...Array<string>(MAX_WAITING_PER_THREAD).fill("enqueued"), "thread-busy"]);
    expect(added).toHaveLength(MAX_WAITING_PER_THREAD);
    const last = fake.calls
      .filter((c) => c.method === "createComment")
      .map((c) => String(c.args[2]))
      .at(-1)!;
    expect(last).toContain(`was not queued: ${MAX_WAITING_PER_THREAD} commands on this thread are already queued`);
    // Another thread is not affected.
    const elsewhere = eventOf("issue_comment", "issue-comment-created", (p) => {
      (p.comment as Record<string, unknown>).id = 1900;
      (p.issue as Record<string, unknown>).number = 77;
    });
    expect(await handleCommentEvent("d-busy-other", elsewhere, deps)).toBe("enqueued");
  });
});
