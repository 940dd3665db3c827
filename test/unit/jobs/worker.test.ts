import { describe, expect, it } from "vitest";
import type { FixReport, FixRequest } from "../../../src/agent/types.js";
import { createMemoryQueue } from "../../../src/adapters/memory-queue.js";
import { createPushLedger, type PushLedger } from "../../../src/jobs/push-ledger.js";
import { createWorker } from "../../../src/jobs/worker.js";
import type { GitSandboxFactory } from "../../../src/ports/git-sandbox.js";
import type { Logger } from "../../../src/ports/logger.js";
import { createFakeGateway, samplePull } from "./fake-gateway.js";
import { failedReport, sampleJob, stubRunFix, successReport } from "./reports.js";

const noGit: GitSandboxFactory = { clone: () => Promise.reject(new Error("no git in this test")) };

function logger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  };
  return { lines, debug: log, info: log, warn: log, error: log };
}

function setup(report: FixReport | ((request: FixRequest) => FixReport) = successReport(), pushes?: PushLedger) {
  const fake = createFakeGateway();
  const stub = stubRunFix(report);
  const log = logger();
  const work = createWorker({
    gateways: () => fake.gateway,
    runFix: stub.runFix,
    git: noGit,
    logger: log,
    secrets: ["super-secret-webhook-value"],
    pushes,
  });
  const finalComment = () => fake.state.comments.get(500) ?? "";
  const check = () => [...fake.state.checks.values()][0];
  return { fake, stub, log, work, finalComment, check };
}

describe("worker: /fix on an issue", () => {
  it("runs the loop on patchsmith/issue-N and opens a pull request that names the requester", async () => {
    const { fake, stub, work, finalComment, check } = setup();
    await work(sampleJob());
    expect(stub.requests).toHaveLength(1);
    const request = stub.requests[0]!;
    expect(request).toMatchObject({
      repo: "https://github.com/acme/widgets.git",
      branch: "main",
      into: "patchsmith/issue-12",
      instruction: "keep the last line",
      push: { lease: null },
      noCommit: false,
      token: fake.state.token,
      forbiddenPaths: [".github/workflows/**", ".github/patchsmith.yml"],
      // Settings come from the default branch only: the clone's own config file is never read.
      readRepoConfig: false,
      coAuthor: "maintainer-mia <777+maintainer-mia@users.noreply.github.com>",
      trailers: { "Patchsmith-Request": "https://github.com/acme/widgets/issues/12#issuecomment-1501" },
      botIdentity: { name: "patchsmith[bot]", email: "41+patchsmith[bot]@users.noreply.github.com" },
      maxAttempts: 3,
    });
    expect(request.context).toContain("Parser drops the last line");
    expect(request.focus).toBeUndefined();
    // Every commit names the job, so that a rerun after a crash sees what the first run pushed.
    expect(request.trailers?.["Patchsmith-Job"]).toBe(sampleJob().id);
    expect(request.resumeTrailer).toEqual({ key: "Patchsmith-Job", value: sampleJob().id });

    const methods = fake.methods();
    expect(methods.indexOf("getConfigLayers")).toBeLessThan(methods.indexOf("createCheckRun"));
    expect(methods.indexOf("createCheckRun")).toBeLessThan(methods.indexOf("createRepoToken"));
    expect(methods.indexOf("createPull")).toBeLessThan(methods.lastIndexOf("updateComment"));
    expect(fake.calls.find((c) => c.method === "getConfigLayers")?.args.slice(1)).toEqual([
      ".github/patchsmith.yml",
      "main",
    ]);
    expect(fake.calls.find((c) => c.method === "createCheckRun")?.args[1]).toMatchObject({ headSha: "b".repeat(40) });
    const pull = fake.calls.find((c) => c.method === "createPull")?.args[1] as {
      title: string;
      body: string;
      head: string;
    };
    expect(pull.head).toBe("patchsmith/issue-12");
    expect(pull.title).toBe("Fix #12: Parser drops the last line");
    expect(pull.body).toContain("Fixes #12");
    expect(pull.body).toContain("@maintainer-mia");

    // The progress comment moved through the stages before its final form.
    const edits = fake.calls.filter((c) => c.method === "updateComment").map((c) => String(c.args[2]));
    expect(edits.some((body) => body.includes("**cloning** ⏳"))).toBe(true);
    expect(edits.some((body) => body.includes("**pushing** ⏳"))).toBe(true);
    expect(finalComment()).toContain("✅ done");
    expect(finalComment()).toContain("https://github.com/acme/widgets/commit/" + "c".repeat(40));
    expect(finalComment()).toContain("Opened pull request #100");
    expect(finalComment()).toContain("<details><summary>Diff</summary>");
    expect(finalComment()).toContain("| ❌ failed (exit 1, 1 failing test) | ✅ passed |");
    expect(finalComment()).toContain("1,500 tokens");
    expect(check()).toMatchObject({ conclusion: "success", output: { title: "Fixed: 1 file changed" } });
  });

  it("continues an existing issue branch with a lease on its head, and reuses its open pull request", async () => {
    const { fake, stub, work, finalComment } = setup();
    fake.state.branches["patchsmith/issue-12"] = "d".repeat(40);
    fake.state.openPulls["patchsmith/issue-12"] = { number: 77, htmlUrl: "https://github.com/acme/widgets/pull/77" };
    await work(sampleJob());
    expect(stub.requests[0]).toMatchObject({
      branch: "patchsmith/issue-12",
      into: "patchsmith/issue-12",
      push: { lease: "d".repeat(40) },
    });
    expect(fake.methods()).not.toContain("createPull");
    expect(finalComment()).toContain("Updated pull request #77");
  });

  it("honours the repository config from the default branch", async () => {
    const { fake, stub, work } = setup();
    fake.state.files["main:.github/patchsmith.yml"] = [
      "test: npm run test:unit",
      "model: local-coder",
      "budget: { attempts: 2, tokens: 50000, minutes: 5 }",
      "paths: { forbidden: ['secrets/**'] }",
    ].join("\n");
    await work(sampleJob());
    expect(stub.requests[0]).toMatchObject({
      testCommand: "npm run test:unit",
      model: "local-coder",
      maxAttempts: 2,
      tokenBudget: 50000,
      wallTimeMs: 300_000,
      forbiddenPaths: [".github/workflows/**", ".github/patchsmith.yml", "secrets/**"],
    });
  });

  it("does no work on a broken config file and says what is wrong", async () => {
    const { fake, stub, work, finalComment } = setup();
    fake.state.files["main:.github/patchsmith.yml"] = "budget:\n  atempts: 2\n";
    await work(sampleJob());
    expect(stub.requests).toHaveLength(0);
    expect(fake.methods()).not.toContain("createRepoToken");
    expect(finalComment()).toContain("configuration error");
    expect(finalComment()).toContain("atempts");
  });

  it("stops when the requester lost write access while the job waited", async () => {
    const { fake, stub, work, finalComment } = setup();
    fake.state.permissions["maintainer-mia"] = "triage";
    await work(sampleJob());
    expect(stub.requests).toHaveLength(0);
    expect(finalComment()).toContain("not run");
    expect(finalComment()).toContain("`triage`");
  });

  it("reports a model failure with every secret redacted and a failed check run", async () => {
    const token = "ghs_FAKEinstallationTOKEN0123456789abcdef";
    const { work, finalComment, check } = setup(
      failedReport(
        "model-error",
        `The model endpoint said 401 for key sk-live-abcdefghijklmnopqrstuvwxyz while using ${token} and super-secret-webhook-value`,
      ),
    );
    await work(sampleJob());
    const body = finalComment();
    expect(body).toContain("❌");
    expect(body).toContain("`model-error`");
    expect(body).toContain("[redacted]");
    expect(body).not.toContain(token);
    expect(body).not.toContain("sk-live-abcdefghijklmnopqrstuvwxyz");
    expect(body).not.toContain("super-secret-webhook-value");
    expect(body).toContain("Nothing was pushed.");
    expect(check()?.conclusion).toBe("failure");
    expect(JSON.stringify(check())).not.toContain(token);
  });

  it("ends with a plain error, not a stuck comment, when the loop crashes", async () => {
    const { work, finalComment, check } = setup(() => {
      throw new Error("adapter exploded");
    });
    await work(sampleJob());
    expect(finalComment()).toContain("something went wrong");
    expect(finalComment()).toContain("adapter exploded");
    expect(check()?.conclusion).toBe("failure");
  });
});

describe("worker: /fix on a pull request", () => {
  const pullJob = () =>
    sampleJob({
      target: { kind: "pull", number: 34 },
      headSha: "a".repeat(40),
      comment: {
        id: 1502,
        htmlUrl: "https://github.com/acme/widgets/pull/34#issuecomment-1502",
        kind: "issue-comment",
      },
    });

  it("pushes to the head branch with a lease on the head SHA and opens no pull request", async () => {
    const { fake, stub, work, finalComment } = setup(successReport({ branch: "csv-export" }));
    await work(pullJob());
    expect(stub.requests[0]).toMatchObject({
      branch: "csv-export",
      into: "csv-export",
      push: { lease: "a".repeat(40) },
      noCommit: false,
    });
    expect(stub.requests[0]?.context).toContain("Pull request #34: Add CSV export");
    expect(fake.methods()).not.toContain("createPull");
    expect(fake.calls.find((c) => c.method === "createCheckRun")?.args[1]).toMatchObject({ headSha: "a".repeat(40) });
    expect(finalComment()).toContain("Pushed 1 commit to `csv-export`");
  });

  it("stops before any work when the head moved after the command", async () => {
    const { fake, stub, work, finalComment } = setup();
    fake.state.pulls[34] = samplePull({ headSha: "e".repeat(40) });
    await work(pullJob());
    expect(stub.requests).toHaveLength(0);
    expect(finalComment()).toContain("the branch moved");
    expect(finalComment()).toContain("aaaaaaa");
    expect(finalComment()).toContain("eeeeeee");
  });

  it("builds on what an earlier command on the thread pushed, but not on anyone else's push", async () => {
    const [a, c, d, e] = ["a", "c", "d", "e"].map((x) => x.repeat(40)) as [string, string, string, string];
    // The first command pushes a→c, the second (written at a, queued behind it) c→d, the third d→e.
    const pushedOnto = new Map([
      [a, c],
      [c, d],
      [d, e],
    ]);
    const pushes = createPushLedger(createMemoryQueue());
    const { fake, stub, work, finalComment } = setup((request) => {
      const lease = request.push === false || request.push === undefined ? null : request.push.lease;
      return successReport({ branch: "csv-export", headSha: pushedOnto.get(lease ?? "") ?? "0".repeat(40) });
    }, pushes);
    await work(pullJob());
    expect(stub.requests[0]?.push).toEqual({ lease: a });
    fake.state.pulls[34] = samplePull({ headSha: c });
    await work(pullJob());
    expect(stub.requests[1]?.push).toEqual({ lease: c });
    expect(finalComment()).toContain("Pushed 1 commit to `csv-export`");
    // Two own pushes in a row are followed back to the SHA the command saw.
    fake.state.pulls[34] = samplePull({ headSha: d });
    await work(pullJob());
    expect(stub.requests[2]?.push).toEqual({ lease: d });
    // Someone else's commit on top of patchsmith's: the command stops, as for any move it did not make.
    fake.state.pulls[34] = samplePull({ headSha: "f".repeat(40) });
    await work(pullJob());
    expect(stub.requests).toHaveLength(3);
    expect(finalComment()).toContain("the branch moved");
  });

  it("says so when someone pushed during the run (stale lease)", async () => {
    const { work, finalComment, check } = setup(
      failedReport("push-rejected-stale", "The push of csv-export was refused because the remote branch changed"),
    );
    await work(pullJob());
    expect(finalComment()).toContain("someone pushed meanwhile");
    expect(finalComment()).toContain("never force-pushes");
    expect(check()?.conclusion).toBe("failure");
  });

  it("answers with a patch for a fork that does not allow maintainer edits", async () => {
    const { fake, stub, work, finalComment } = setup(successReport({ commits: [], pushed: false }));
    fake.state.pulls[34] = samplePull({
      headRepoFullName: "contributor/widgets",
      headCloneUrl: "https://github.com/contributor/widgets.git",
      maintainerCanModify: false,
    });
    await work(pullJob());
    expect(stub.requests[0]).toMatchObject({
      repo: "https://github.com/contributor/widgets.git",
      noCommit: true,
      push: false,
    });
    expect(finalComment()).toContain("fork that does not allow edits from maintainers");
    expect(finalComment()).toContain("```diff\ndiff --git a/src/parse.ts");
  });

  it("refuses to work on a closed pull request", async () => {
    const { fake, stub, work, finalComment } = setup();
    fake.state.pulls[34] = samplePull({ state: "closed", merged: true });
    await work(pullJob());
    expect(stub.requests).toHaveLength(0);
    expect(finalComment()).toContain("is merged");
  });
});

describe("worker: review comments", () => {
  const reviewJob = (suggest: boolean) =>
    sampleJob({
      target: { kind: "review", number: 34, commentId: 88001, path: "src/parse.ts", line: 3, startLine: 2 },
      command: { kind: "fix", instructions: "use a loop", suggest },
      headSha: "a".repeat(40),
      comment: {
        id: 88001,
        htmlUrl: "https://github.com/acme/widgets/pull/34#discussion_r88001",
        kind: "review-comment",
      },
    });
  const changed = { path: "src/parse.ts", before: "one\ntwo\nthree\nfour\n", after: "one\nTWO\nTHREE\nextra\nfour\n" };

  it("answers --suggest with a tested suggestion block of the commented lines", async () => {
    const { fake, stub, work, finalComment } = setup(
      successReport({ commits: [], pushed: false, changedFiles: [changed] }),
    );
    await work(reviewJob(true));
    expect(stub.requests[0]).toMatchObject({
      focus: { path: "src/parse.ts", startLine: 2, endLine: 3 },
      noCommit: true,
      push: false,
    });
    const reply = fake.calls.find((c) => c.method === "replyToReviewComment");
    expect(reply?.args.slice(1, 3)).toEqual([34, 88001]);
    expect(String(reply?.args[3])).toContain("```suggestion\nTWO\nTHREE\nextra\n```");
    expect(String(reply?.args[3])).toContain("Tests pass: `npm test`");
    expect(finalComment()).toContain("Posted a suggestion");
  });

  it("falls back to a patch when the change reaches outside the commented lines", async () => {
    const wide = { path: "src/parse.ts", before: "one\ntwo\nthree\nfour\n", after: "ONE\ntwo\nthree\nfour\n" };
    const { fake, work, finalComment } = setup(successReport({ commits: [], pushed: false, changedFiles: [wide] }));
    await work(reviewJob(true));
    expect(fake.methods()).not.toContain("replyToReviewComment");
    expect(finalComment()).toContain("outside 2-3");
    expect(finalComment()).toContain("```diff");
  });

  it("commits on the head branch with the lines as focus without --suggest", async () => {
    const { stub, work } = setup();
    await work(reviewJob(false));
    expect(stub.requests[0]).toMatchObject({
      focus: { path: "src/parse.ts", startLine: 2, endLine: 3 },
      noCommit: false,
      push: { lease: "a".repeat(40) },
    });
  });

  it("explains that --suggest needs a review comment", async () => {
    const { stub, work, finalComment } = setup();
    await work(sampleJob({ command: { kind: "fix", instructions: "x", suggest: true } }));
    expect(stub.requests).toHaveLength(0);
    expect(finalComment()).toContain("needs a review comment");
  });
});

describe("worker: records", () => {
  it("drops a job record that does not validate", async () => {
    const { fake, work, log } = setup();
    await work({ version: 2, id: "x" });
    expect(fake.calls).toEqual([]);
    expect(log.lines.join("\n")).toContain("invalid job record");
  });
});
