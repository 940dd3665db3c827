/**
 * The worker against a GitHub that lacks endpoints or fails some calls: best-effort calls (check run, identity,
 * token revocation, the denial note) are logged and skipped; essential ones end the job with a clear answer.
 */
import { describe, expect, it } from "vitest";
import type { FixReport } from "../../../src/agent/types.js";
import { createWorker } from "../../../src/jobs/worker.js";
import type { GitSandboxFactory } from "../../../src/ports/git-sandbox.js";
import type { Logger } from "../../../src/ports/logger.js";
import { createFakeGateway, httpError } from "./fake-gateway.js";
import { sampleJob, stubRunFix, successReport } from "./reports.js";

const noGit: GitSandboxFactory = { clone: () => Promise.reject(new Error("no git in this test")) };

function setup(report: FixReport | (() => FixReport) = successReport()) {
  const fake = createFakeGateway();
  const stub = stubRunFix(report);
  const lines: string[] = [];
  const log = (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  };
  const logger: Logger = { debug: log, info: log, warn: log, error: log };
  const work = createWorker({ gateways: () => fake.gateway, runFix: stub.runFix, git: noGit, logger, secrets: [] });
  const comments = () => [...fake.state.comments.values()];
  return { fake, stub, work, logs: () => lines.join("\n"), comments, finalComment: () => comments().at(-1) ?? "" };
}

describe("worker: best-effort calls", () => {
  it("completes the issue → pull request flow without checks, identity or revocation", async () => {
    const { fake, stub, work, logs, finalComment } = setup();
    fake.state.failures.createCheckRun = httpError(404);
    fake.state.failures.getAppIdentity = httpError(404);
    fake.state.failures.revokeRepoToken = httpError(500, "Internal Server Error");
    await work(sampleJob());
    expect(stub.requests[0]?.botIdentity).toEqual({
      name: "patchsmith[bot]",
      email: "patchsmith[bot]@users.noreply.github.com",
    });
    expect(fake.methods()).toContain("createPull");
    expect(fake.methods()).not.toContain("updateCheckRun");
    expect(finalComment()).toContain("✅ done");
    expect(finalComment()).toContain("Opened pull request #100");
    expect(logs()).toContain("could not create the check run");
    expect(logs()).toContain("could not read the app's identity");
    expect(logs()).toContain("could not revoke the job's installation token");
  });

  it("revokes the job's token once the job is over, after the push and the pull request", async () => {
    const { fake, work } = setup();
    await work(sampleJob());
    expect(fake.state.revoked).toEqual([fake.state.token]);
    const methods = fake.methods();
    expect(methods.indexOf("revokeRepoToken")).toBeGreaterThan(methods.indexOf("createPull"));
    expect(methods.indexOf("revokeRepoToken")).toBeGreaterThan(methods.lastIndexOf("updateComment"));
  });

  it("revokes the token even when the loop crashes, and keeps it out of the logs", async () => {
    const token = "ghs_FAKEinstallationTOKEN0123456789abcdef";
    const { fake, work, logs, finalComment } = setup(() => {
      throw new Error(`clone failed for https://x-access-token:${token}@example.com and ${token}`);
    });
    await work(sampleJob());
    expect(fake.state.revoked).toEqual([token]);
    expect(finalComment()).toContain("something went wrong");
    expect(logs()).toContain("job failed");
    expect(logs()).not.toContain(token);
    expect(finalComment()).not.toContain(token);
  });

  it("posts the final answer as a new comment when the progress comment cannot be edited", async () => {
    const { fake, work, comments } = setup();
    fake.state.failures.updateComment = httpError(404);
    await work(sampleJob());
    const posted = fake.calls.filter((c) => c.method === "createComment").map((c) => String(c.args[2]));
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain("✅ done");
    expect(comments()).toHaveLength(1);
  });

  it("answers with a patch when the suggestion cannot be posted in the review thread", async () => {
    const changed = { path: "src/parse.ts", before: "one\ntwo\n", after: "one\nTWO\n" };
    const { fake, work, finalComment } = setup(successReport({ commits: [], pushed: false, changedFiles: [changed] }));
    fake.state.failures.replyToReviewComment = httpError(404);
    await work(
      sampleJob({
        target: { kind: "review", number: 34, commentId: 88001, path: "src/parse.ts", line: 2, startLine: null },
        command: { kind: "fix", instructions: "upper", suggest: true },
        headSha: "a".repeat(40),
        comment: {
          id: 88001,
          htmlUrl: "https://github.com/acme/widgets/pull/34#discussion_r88001",
          kind: "review-comment",
        },
      }),
    );
    expect(finalComment()).toContain("✅ done");
    expect(finalComment()).toContain("could not be posted in the review thread (HTTP 404: Not Found)");
    expect(finalComment()).toContain("```diff");
  });
});

describe("worker: essential calls", () => {
  it("ends with a clear comment when the pull request cannot be read", async () => {
    const { fake, stub, work, finalComment } = setup();
    fake.state.failures.getPull = httpError(404);
    await work(sampleJob({ target: { kind: "pull", number: 34 }, headSha: "a".repeat(40) }));
    expect(stub.requests).toHaveLength(0);
    expect(finalComment()).toContain("something went wrong");
    expect(finalComment()).toContain("Could not read pull request #34: HTTP 404: Not Found");
    expect(fake.state.revoked).toEqual([]);
  });

  it("says where the commits are when the pull request cannot be opened after the push", async () => {
    const { fake, work, finalComment } = setup();
    fake.state.failures.createPull = httpError(500, "Internal Server Error");
    fake.state.failures.findOpenPull = httpError(404);
    await work(sampleJob());
    expect(finalComment()).toContain("Could not open the pull request");
    expect(finalComment()).toContain("`patchsmith/issue-12`");
    expect(finalComment()).toContain("HTTP 500: Internal Server Error");
    expect(fake.state.revoked).toEqual([fake.state.token]);
  });

  it("uses the pull request that appeared meanwhile when creating one is refused", async () => {
    const { fake, work, finalComment } = setup();
    fake.state.failures.createPull = httpError(422, "A pull request already exists");
    const find = fake.gateway.findOpenPull.bind(fake.gateway);
    let lookups = 0;
    fake.gateway.findOpenPull = (repo, branch) => {
      lookups += 1;
      return lookups === 1 ? find(repo, branch) : Promise.resolve({ number: 88, htmlUrl: "https://x/pull/88" });
    };
    await work(sampleJob());
    expect(finalComment()).toContain("Updated pull request #88");
  });

  it("does not run without a progress comment to report in", async () => {
    const { fake, stub, work, logs } = setup();
    fake.state.failures.createComment = httpError(500, "Internal Server Error");
    await work(sampleJob({ progressCommentId: null }));
    expect(stub.requests).toHaveLength(0);
    expect(fake.methods()).not.toContain("createRepoToken");
    expect(logs()).toContain("could not post the progress comment; the job is not run");
  });

  it("posts the progress comment itself when the webhook handler could not", async () => {
    const { fake, stub, work, comments } = setup();
    await work(sampleJob({ progressCommentId: null }));
    expect(stub.requests).toHaveLength(1);
    expect(fake.calls.filter((c) => c.method === "createComment")).toHaveLength(1);
    expect(comments()[0]).toContain("✅ done");
  });
});
