/**
 * The GitHub App end to end: `node dist/cli.js serve` as a real process, signed webhooks over HTTP, a fake GitHub
 * (REST under /api/v3 via GHE_HOST/GHE_PROTOCOL, real git over smart HTTP) and the fake OpenAI server.
 */
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git } from "../fakes/git-repos.js";
import {
  API_KEY,
  FIXED,
  FIX_REPLY,
  INSTRUCTION,
  addPull,
  callsOf,
  commentsOf,
  completedCheck,
  createRepo,
  deliver,
  expectOrder,
  gitAccepts,
  gitLog,
  issueComment,
  repoTokens,
  startHarness,
  user,
  waitFor,
  type Harness,
} from "./app-harness.js";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 300_000);

afterAll(async () => {
  await h.stop();
});

describe("patchsmith serve", () => {
  it("turns /fix on an issue into a branch, attributed commits and a pull request", async () => {
    h.modelStep = FIX_REPLY;
    const full = createRepo(h);
    expect(await deliver(h, "issue_comment", issueComment(h, full, 1, `Thanks!\n\n/fix ${INSTRUCTION}`))).toBe(200);
    const done = await completedCheck(h, full);
    expect(done.body.conclusion).toBe("success");
    expectOrder(callsOf(h, full), [
      /^POST .*\/issues\/comments\/\d+\/reactions$/,
      /^POST .*\/issues\/1\/comments$/,
      /^POST .*\/check-runs$/,
      /^PATCH .*\/issues\/comments\/\d+$/,
      /^POST .*\/pulls$/,
      /^PATCH .*\/check-runs\/\d+$/,
    ]);
    const token = h.github.find(/access_tokens$/).find((c) => Array.isArray(c.body.repositories));
    expect(token?.body).toEqual({ repositories: [full.split("/")[1]], permissions: { contents: "write" } });

    const commits = gitLog(h, full, "patchsmith/issue-1");
    expect(commits).toMatch(
      /^patchsmith\[bot\] <4100\+patchsmith\[bot\]@users\.noreply\.127\.0\.0\.1>\nfix\(stats\): divide by the count/,
    );
    expect(commits).toContain("Co-authored-by: maintainer-mia <777+maintainer-mia@users.noreply.127.0.0.1>");
    expect(commits).toContain("Patchsmith-Model: fake-model");
    expect(commits).toMatch(
      /Patchsmith-Request: http:\/\/127\.0\.0\.1:\d+\/acme\/widgets-\d+\/issues\/1#issuecomment-\d+/,
    );
    const pull = h.github.find(/^POST .*\/pulls$/)[0]!.body;
    expect(pull).toMatchObject({ head: "patchsmith/issue-1", base: "main" });
    expect(String(pull.body)).toContain("Fixes #1");
    expect(String(pull.body)).toContain("@maintainer-mia");
    const final = commentsOf(h, full).at(-1)!;
    expect(final).toContain("✅ done");
    expect(final).toContain("Opened pull request");
    expect(final).toContain("| ❌ failed (exit 1");
    for (const secret of [...h.github.tokens.keys(), API_KEY])
      expect(JSON.stringify([...h.github.comments.values(), ...h.github.checkRuns.values()])).not.toContain(secret);

    // The token git used is revoked once the job is over (after the push and the pull request), with itself.
    const [gitToken] = repoTokens(h, full);
    expect(gitToken).toBeDefined();
    const revoke = await waitFor(h, "the token revocation", () =>
      h.github.calls.find((c) => c.method === "DELETE" && c.path === "/installation/token" && c.token === gitToken),
    );
    expect(h.github.calls.indexOf(revoke)).toBeGreaterThan(
      h.github.calls.indexOf(h.github.find(/^POST .*\/pulls$/)[0]!),
    );
    expect(h.github.revoked.has(gitToken!)).toBe(true);
    expect(await gitAccepts(h, full, gitToken!)).toBe(false);
    const live = [...h.github.tokens.keys()].find((t) => !h.github.revoked.has(t));
    expect(await gitAccepts(h, full, live!)).toBe(true);
    const api = await fetch(`${h.github.url}/api/v3/repos/${full}`, {
      headers: { authorization: `token ${gitToken!}` },
    });
    expect(api.status).toBe(401);
  });

  it("pushes a commit to a pull request's head branch, with a lease, and opens no pull request", async () => {
    h.modelStep = FIX_REPLY;
    const full = createRepo(h, undefined, { feature: "copy" });
    addPull(h, full, 2, "feature");
    const before = h.github.branchSha(full, "feature")!;
    await deliver(h, "issue_comment", issueComment(h, full, 2, `/fix ${INSTRUCTION}`, { pull: true }));
    expect((await completedCheck(h, full)).body.conclusion).toBe("success");
    const after = h.github.branchSha(full, "feature")!;
    expect(git(h.github.gitDir(full), ["rev-parse", `${after}^`]).trim()).toBe(before);
    expect(h.github.find(/^POST .*\/pulls$/).filter((c) => c.path.includes(full))).toEqual([]);
    expect(commentsOf(h, full).at(-1)).toContain("Pushed 1 commit to `feature`");
  });

  it("answers /fix --suggest on a review comment with a tested suggestion block", async () => {
    h.modelStep = FIX_REPLY;
    const full = createRepo(h, undefined, { feature: "copy" });
    addPull(h, full, 3, "feature");
    const head = h.github.branchSha(full, "feature")!;
    const [owner, name] = full.split("/");
    const payload = {
      action: "created",
      comment: {
        id: 880,
        body: "/fix --suggest divide by values.length",
        html_url: `${h.github.url}/${full}/pull/3#discussion_r880`,
        path: "src/stats.js",
        line: 10,
        start_line: null,
        side: "RIGHT",
        user: user("maintainer-mia"),
      },
      pull_request: { number: 3, head: { sha: head, ref: "feature" } },
      repository: { name, full_name: full, owner: { login: owner } },
      sender: user("maintainer-mia"),
      installation: { id: 42 },
    };
    await deliver(h, "pull_request_review_comment", payload);
    expect((await completedCheck(h, full)).body.conclusion).toBe("success");
    const reply = h.github.find(/^POST .*\/pulls\/3\/comments\/880\/replies$/)[0];
    expect(String(reply?.body.body)).toContain(`\`\`\`suggestion\n${FIXED}\n\`\`\``);
    expect(h.github.find(/^POST .*\/pulls\/comments\/880\/reactions$/)).toHaveLength(1);
    expect(h.github.branchSha(full, "feature")).toBe(head);
  });

  it("reverts patchsmith's last commit on /undo", async () => {
    const full = createRepo(h, undefined, { feature: "bot-commit" });
    addPull(h, full, 4, "feature");
    const head = h.github.branchSha(full, "feature")!;
    await deliver(h, "issue_comment", issueComment(h, full, 4, "/undo", { pull: true }));
    expect((await completedCheck(h, full)).body.conclusion).toBe("success");
    const after = h.github.branchSha(full, "feature")!;
    expect(git(h.github.gitDir(full), ["rev-parse", `${after}^`]).trim()).toBe(head);
    expect(gitLog(h, full, "-1")).not.toBe("");
    expect(git(h.github.gitDir(full), ["log", "-1", "--format=%an%n%B", after])).toContain(
      `This reverts commit ${head}`,
    );
  });

  it("explains once, politely, to a commenter without write access", async () => {
    const full = createRepo(h);
    h.github.permissions.set(`${full}:newcomer`, "read");
    await deliver(h, "issue_comment", issueComment(h, full, 1, "/fix everything", { login: "newcomer" }));
    await waitFor(h, "the explanation", () => commentsOf(h, full)[0]);
    await deliver(h, "issue_comment", issueComment(h, full, 1, "/fix again please", { login: "newcomer" }));
    // The webhook is answered before it is handled: wait for the second permission check, then for a later reply.
    await waitFor(h, "the second permission check", () =>
      callsOf(h, full).filter((c) => c.path.endsWith("/newcomer/permission")).length === 2 ? true : undefined,
    );
    await deliver(h, "issue_comment", issueComment(h, full, 1, "/help"));
    await waitFor(h, "the help reply", () => commentsOf(h, full).find((body) => body.includes("/fix --suggest")));
    expect(commentsOf(h, full)).toHaveLength(2);
    expect(commentsOf(h, full)[0]).toContain("Hi @newcomer");
    expect(callsOf(h, full).filter((c) => /reactions|check-runs/.test(c.path))).toHaveLength(1);
  });

  it("acknowledges pings and unrelated events without doing anything", async () => {
    const full = createRepo(h);
    const [owner, name] = full.split("/");
    const repository = { name, full_name: full, owner: { login: owner } };
    expect(await deliver(h, "ping", { zen: "Keep it logically awesome.", hook_id: 1, hook: { type: "App" } })).toBe(
      200,
    );
    expect(await deliver(h, "push", { ref: "refs/heads/main", repository, installation: { id: 42 } })).toBe(200);
    const issue = { number: 1, title: "t", body: "/fix in an issue body is not a command" };
    expect(await deliver(h, "issues", { action: "opened", issue, repository, installation: { id: 42 } })).toBe(200);
    expect(await deliver(h, "issue_comment", { ...issueComment(h, full, 1, "/help"), action: "deleted" })).toBe(200);
    expect(callsOf(h, full)).toEqual([]);
  });

  it("answers 200 and does nothing for a comment event without an installation", async () => {
    const full = createRepo(h);
    const { installation: _, ...payload } = issueComment(h, full, 1, "/help");
    expect(await deliver(h, "issue_comment", payload)).toBe(200);
    await waitFor(h, "the log line", () => (h.output().includes("no-installation") ? true : undefined));
    expect(callsOf(h, full)).toEqual([]);
  });

  it("accepts a minimal payload (no user types, pull_request as {}) and answers before doing the work", async () => {
    const full = createRepo(h, undefined, { feature: "copy" });
    addPull(h, full, 7, "feature");
    const [owner, name] = full.split("/");
    // The permission check is held until the webhook is answered: a handler that waited for it would only get
    // probot's "202 still processing" after 9 s.
    let answered: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      answered = resolve;
    });
    h.github.hold = (call) => (call.path.endsWith("/collaborators/maintainer-mia/permission") ? gate : undefined);
    const status = await deliver(h, "issue_comment", {
      action: "created",
      issue: { number: 7, pull_request: {} },
      comment: { id: 9107, body: "/help", user: { login: "maintainer-mia", id: 777 } },
      repository: { name, owner: { login: owner } },
      sender: { login: "maintainer-mia", id: 777 },
      installation: { id: 42 },
    });
    answered();
    expect(status).toBe(200);
    await waitFor(h, "the help reply", () => commentsOf(h, full).find((body) => body.includes("/fix --suggest")));
    h.github.hold = () => undefined;
    expect(h.github.find(/^POST .*\/issues\/comments\/9107\/reactions$/)).toHaveLength(1);
  });

  it("ignores bots without a single API call", async () => {
    const full = createRepo(h);
    expect(
      await deliver(
        h,
        "issue_comment",
        issueComment(h, full, 1, "/fix loop forever", { login: "other-bot[bot]", type: "Bot" }),
      ),
    ).toBe(200);
    expect(callsOf(h, full)).toEqual([]);
  });

  it("treats a duplicate delivery and a redelivered comment as no-ops", async () => {
    const full = createRepo(h);
    const payload = issueComment(h, full, 1, "/help");
    await deliver(h, "issue_comment", payload, { id: "same-delivery" });
    await deliver(h, "issue_comment", payload, { id: "same-delivery" });
    await deliver(h, "issue_comment", payload, { id: "another-delivery" });
    await waitFor(h, "the help comment", () => commentsOf(h, full)[0]);
    expect(h.github.find(/reactions$/).filter((c) => c.path.includes(`${full}/`))).toHaveLength(1);
    expect(commentsOf(h, full)).toHaveLength(1);
  });

  it("rejects unsigned and wrongly signed deliveries", async () => {
    const full = createRepo(h);
    const payload = issueComment(h, full, 1, "/help");
    expect(await deliver(h, "issue_comment", payload, { signature: null })).toBeGreaterThanOrEqual(400);
    expect(
      await deliver(h, "issue_comment", payload, { signature: `sha256=${"0".repeat(64)}` }),
    ).toBeGreaterThanOrEqual(400);
    expect(callsOf(h, full)).toEqual([]);
  });

  it("stops without pushing when someone pushed to the branch during the run", async () => {
    const full = createRepo(h, undefined, { feature: "copy" });
    addPull(h, full, 5, "feature");
    let human = "";
    h.modelStep = () => {
      const work = mkdtempSync(path.join(h.root, "human-"));
      git(h.root, ["clone", "--quiet", "--branch", "feature", "--", h.github.gitDir(full), work]);
      git(work, ["commit", "--quiet", "--allow-empty", "-m", "docs: a human was faster"]);
      git(work, ["push", "--quiet", "origin", "feature"]);
      human = git(work, ["rev-parse", "HEAD"]).trim();
      return FIX_REPLY;
    };
    await deliver(h, "issue_comment", issueComment(h, full, 5, `/fix ${INSTRUCTION}`, { pull: true }));
    expect((await completedCheck(h, full)).body.conclusion).toBe("failure");
    expect(h.github.branchSha(full, "feature")).toBe(human);
    expect(commentsOf(h, full).at(-1)).toContain("someone pushed meanwhile");
  });

  it("stops before any work when the head moved after the command", async () => {
    h.modelStep = FIX_REPLY;
    const full = createRepo(h, undefined, { feature: "copy" });
    addPull(h, full, 6, "feature");
    const requestsBefore = h.openai.chatRequests.length;
    h.github.onCall = (call) => {
      if (call.method === "POST" && call.path === `/repos/${full}/issues/6/comments`) {
        h.github.onCall = () => undefined;
        const work = mkdtempSync(path.join(h.root, "human-"));
        git(h.root, ["clone", "--quiet", "--branch", "feature", "--", h.github.gitDir(full), work]);
        git(work, ["commit", "--quiet", "--allow-empty", "-m", "feat: pushed right after the command"]);
        git(work, ["push", "--quiet", "origin", "feature"]);
      }
    };
    await deliver(h, "issue_comment", issueComment(h, full, 6, `/fix ${INSTRUCTION}`, { pull: true }));
    await waitFor(h, "the final comment", () => commentsOf(h, full).find((body) => body.includes("the branch moved")));
    expect(h.openai.chatRequests.length).toBe(requestsBefore);
  });

  it("reports a model failure, redacted, with a failed check run", async () => {
    h.modelStep = { status: 401, message: `Incorrect API key provided: ${API_KEY}` };
    const full = createRepo(h, "test: node --test\nbudget: { attempts: 1 }\n");
    await deliver(h, "issue_comment", issueComment(h, full, 1, `/fix ${INSTRUCTION}`));
    expect((await completedCheck(h, full)).body.conclusion).toBe("failure");
    const final = commentsOf(h, full).at(-1)!;
    expect(final).toContain("model-error");
    expect(final).toContain("Nothing was pushed.");
    expect(JSON.stringify([...h.github.comments.values(), ...h.github.checkRuns.values()])).not.toContain(API_KEY);
    expect(h.github.branchSha(full, "patchsmith/issue-1")).toBeUndefined();
  });

  it("refuses to touch a path the repository config forbids", async () => {
    h.modelStep = FIX_REPLY;
    const full = createRepo(h, "test: node --test\nbudget: { attempts: 1 }\npaths: { forbidden: ['src/**'] }\n");
    await deliver(h, "issue_comment", issueComment(h, full, 1, `/fix ${INSTRUCTION}`));
    expect((await completedCheck(h, full)).body.conclusion).toBe("failure");
    const final = commentsOf(h, full).at(-1)!;
    expect(final).toContain("patchsmith may not change paths matching src/**");
    expect(final).toContain("src/**");
    expect(h.github.branchSha(full, "patchsmith/issue-1")).toBeUndefined();
  });
});
