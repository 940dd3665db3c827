import { describe, expect, it } from "vitest";
import { createMemoryQueue } from "../../../src/adapters/memory-queue.js";
import { toCommentEvent, type CommentEventName } from "../../../src/github/comment-event.js";
import { MAX_WAITING_PER_THREAD, deliveryMarker, runIntake, type IntakeResult } from "../../../src/jobs/intake.js";
import type { IntakeRecord } from "../../../src/github/intake-record.js";
import type { Job } from "../../../src/jobs/job-schema.js";
import type { GitHubGateway } from "../../../src/ports/github-gateway.js";
import type { Logger } from "../../../src/ports/logger.js";
import { loadPayload, type FixtureName } from "../github/fixtures.js";
import { createFakeGateway, httpError } from "./fake-gateway.js";

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  };
  return { lines, debug: log, info: log, warn: log, error: log };
}

function recordOf(
  deliveryId: string,
  name: CommentEventName,
  fixture: FixtureName,
  edit?: (payload: Record<string, unknown>) => void,
): IntakeRecord {
  const payload = loadPayload(fixture);
  edit?.(payload);
  const parsed = toCommentEvent(name, payload);
  if (!parsed.ok) throw new Error(parsed.message);
  return { version: 1, deliveryId, receivedAt: 1_700_000_000_000, event: parsed.event };
}

const issueCommand = (deliveryId: string, edit?: (payload: Record<string, unknown>) => void) =>
  recordOf(deliveryId, "issue_comment", "issue-comment-created", edit);

const withComment = (id: number, body?: string) => (p: Record<string, unknown>) => {
  const comment = p.comment as Record<string, unknown>;
  comment.id = id;
  if (body !== undefined) comment.body = body;
};

function setup(wrap: (gateway: GitHubGateway) => GitHubGateway = (g) => g) {
  const fake = createFakeGateway();
  const jobs = createMemoryQueue<Job>();
  const added: Job[] = [];
  const add = jobs.add.bind(jobs);
  jobs.add = async (job, options) => {
    const ok = await add(job, options);
    if (ok) added.push(job);
    return ok;
  };
  const logger = recordingLogger();
  const gateway = wrap(fake.gateway);
  const deps = {
    gateway: () => gateway,
    jobs,
    logger,
    now: () => 1_700_000_000_000,
    identity: () => Promise.resolve({ slug: "patchsmith", botLogin: "patchsmith[bot]", botUserId: 41 }),
    retryDelaysMs: [0, 0],
  };
  let attempts = 0;
  const run = (record: IntakeRecord): Promise<IntakeResult> => runIntake(record, deps, `attempt-${++attempts}`);
  const bodies = () => fake.calls.filter((c) => c.method === "createComment").map((c) => String(c.args[2]));
  return { fake, jobs, added, deps, run, bodies, lines: logger.lines };
}

describe("runIntake", () => {
  it("checks permission, reacts, posts the queued comment and adds a fix job on an issue", async () => {
    const { fake, added, run, bodies } = setup();
    expect(await run(issueCommand("d-1"))).toBe("enqueued");
    expect(fake.methods()).toEqual(["getPermission", "addReaction", "createComment"]);
    expect(fake.calls[1]?.args[1]).toEqual({ kind: "issue-comment", commentId: 1501 });
    expect(fake.calls[1]?.args[2]).toBe("eyes");
    expect(bodies()[0]).toContain("**queued** ⏳");
    expect(bodies()[0]).toContain(deliveryMarker("d-1", "queued"));
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
    const { fake, added, run } = setup();
    await run(recordOf("d-2", "issue_comment", "issue-comment-on-pull"));
    expect(fake.methods()).toContain("getPull");
    expect(added[0]?.headSha).toBe("a".repeat(40));
  });

  it("takes the head SHA of a review comment from the payload", async () => {
    const { fake, added, run } = setup();
    await run(recordOf("d-3", "pull_request_review_comment", "review-comment-created"));
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

  it("run again after a crash, finds its own queued comment and adds the job once", async () => {
    const { fake, added, run, bodies } = setup();
    const record = issueCommand("d-4");
    expect(await run(record)).toBe("enqueued");
    expect(await run(record)).toBe("enqueued");
    expect(bodies()).toHaveLength(1);
    expect(fake.methods()).toContain("findComment");
    expect(added).toHaveLength(1);
  });

  it("a second delivery of the same command is a duplicate, with no call at all", async () => {
    const { fake, added, run } = setup();
    expect(await run(issueCommand("d-5"))).toBe("enqueued");
    const calls = fake.calls.length;
    expect(await run(issueCommand("d-6"))).toBe("duplicate-command");
    expect(fake.calls.length).toBe(calls);
    expect(added).toHaveLength(1);
  });

  it("ignores bots and its own marker without an API call", async () => {
    const { fake, added, run } = setup();
    expect(await run(recordOf("d-7", "issue_comment", "issue-comment-by-bot"))).toBe("ignored-bot");
    expect(await run(issueCommand("d-8", withComment(1501, "<!-- patchsmith -->\n/fix loop")))).toBe("ignored-bot");
    expect(fake.calls).toEqual([]);
    expect(added).toEqual([]);
  });

  it("explains once per person per thread when the commenter cannot write", async () => {
    const { fake, added, run, bodies } = setup();
    fake.state.permissions["maintainer-mia"] = "read";
    expect(await run(issueCommand("d-9"))).toBe("denied");
    expect(await run(issueCommand("d-10", withComment(1600)))).toBe("denied");
    expect(fake.methods()).not.toContain("addReaction");
    expect(added).toHaveLength(0);
    expect(bodies()).toHaveLength(1);
    expect(bodies()[0]).toContain("@maintainer-mia");
  });

  it("does not let a denial note that cannot be posted crash the intake", async () => {
    const { fake, lines, run } = setup();
    fake.state.permissions["maintainer-mia"] = "read";
    fake.state.failures.createComment = httpError(403, "Resource not accessible by integration");
    expect(await run(issueCommand("d-9b"))).toBe("denied");
    expect(lines.join("\n")).toContain("could not post the note on who may trigger patchsmith");
  });

  it("runs only a command added by an edit", async () => {
    const { added, run } = setup();
    expect(await run(recordOf("d-11", "issue_comment", "issue-comment-edited"))).toBe("enqueued");
    expect(added[0]?.command).toEqual({ kind: "undo" });
    const unchanged = recordOf("d-12", "issue_comment", "issue-comment-edited", (p) => {
      p.changes = { body: { from: (p.comment as { body: string }).body } };
    });
    expect(await run(unchanged)).toBe("no-command");
  });

  it("answers /help at once, with no job", async () => {
    const { added, run, bodies } = setup();
    expect(await run(issueCommand("d-13", withComment(1501, "/help")))).toBe("answered");
    expect(added).toHaveLength(0);
    expect(bodies()[0]).toContain("**patchsmith**");
  });

  it("tries the permission check again after a server error, and gives up on a lasting one", async () => {
    let failuresLeft = 1;
    const flaky = setup((gateway) => ({
      ...gateway,
      getPermission: (repo, login) =>
        failuresLeft-- > 0 ? Promise.reject(httpError(502, "Bad Gateway")) : gateway.getPermission(repo, login),
    }));
    expect(await flaky.run(issueCommand("d-14"))).toBe("enqueued");

    const down = setup();
    down.fake.state.failures.getPermission = httpError(502, "Bad Gateway");
    expect(await down.run(issueCommand("d-15"))).toBe("failed");
    expect(down.fake.methods().filter((m) => m === "getPermission")).toHaveLength(3);
    expect(down.lines.join("\n")).toContain("the permission check failed");
  });

  it("names a refused installation token as the app's misconfiguration, not as a denial", async () => {
    const refused = Object.assign(httpError(404, "Not Found"), {
      request: { url: "https://api.github.com/app/installations/4242/access_tokens" },
    });
    const h = setup();
    h.fake.state.failures.getPermission = refused;
    expect(await h.run(issueCommand("d-16"))).toBe("failed");
    expect(h.fake.methods().filter((m) => m === "getPermission")).toHaveLength(1);
    const log = h.lines.join("\n");
    expect(log).toContain("GitHub refused the app an installation token");
    expect(log).not.toContain("command denied");
    expect(h.bodies()).toEqual([]);
  });

  it("still adds the job when the reaction and the queued comment fail (the worker posts its own)", async () => {
    const { fake, added, run, lines } = setup();
    fake.state.failures.addReaction = httpError(404);
    fake.state.failures.createComment = httpError(500, "Internal Server Error");
    expect(await run(issueCommand("d-17"))).toBe("enqueued");
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ command: { kind: "fix" }, progressCommentId: null });
    expect(lines.join("\n")).toContain("could not add the 👀 reaction");
    expect(lines.join("\n")).toContain("HTTP 500: Internal Server Error");
  });

  it("says how many commands wait ahead on the same thread", async () => {
    const { run, bodies } = setup();
    await run(issueCommand("d-18"));
    await run(issueCommand("d-19", withComment(1700)));
    expect(bodies()[0]).not.toContain("Waiting behind");
    expect(bodies()[1]).toContain("Waiting behind 1 earlier command");
  });

  it("refuses a command, with a reply naming it, when its thread already has the most it may queue", async () => {
    const { run, added, bodies } = setup();
    const results: string[] = [];
    for (let k = 0; k <= MAX_WAITING_PER_THREAD; k++)
      results.push(await run(issueCommand(`d-busy-${k}`, withComment(1800 + k))));
    expect(results).toEqual([...Array<string>(MAX_WAITING_PER_THREAD).fill("enqueued"), "thread-busy"]);
    expect(added).toHaveLength(MAX_WAITING_PER_THREAD);
    expect(bodies().at(-1)).toContain(
      `was not queued: ${MAX_WAITING_PER_THREAD} commands on this thread are already queued`,
    );
    expect(bodies().at(-1)).toContain("/fix keep the last line");
    const elsewhere = issueCommand("d-busy-other", (p) => {
      withComment(1900)(p);
      (p.issue as Record<string, unknown>).number = 77;
    });
    expect(await run(elsewhere)).toBe("enqueued");
  });

  it("run again after a crash that came after its job was added, does not count that job against the cap", async () => {
    const { run, added, bodies } = setup();
    for (let k = 0; k < MAX_WAITING_PER_THREAD - 1; k++) await run(issueCommand(`d-cap-${k}`, withComment(2000 + k)));
    const last = issueCommand("d-cap-last", withComment(2100));
    expect(await run(last)).toBe("enqueued");
    // Its own job now fills the thread; the rerun keeps the first verdict.
    expect(await run(last)).toBe("enqueued");
    expect(added).toHaveLength(MAX_WAITING_PER_THREAD);
    expect(bodies().some((body) => body.includes("was not queued"))).toBe(false);
  });
});
