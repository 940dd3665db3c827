/**
 * The GitHub App end to end: `node dist/cli.js serve` as a real process, signed webhooks over HTTP, a fake GitHub
 * (REST under /api/v3 via GHE_HOST/GHE_PROTOCOL, real git over smart HTTP) and the fake OpenAI server.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHmac, generateKeyPairSync } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, makeNodeRepo } from "../fakes/git-repos.js";
import { FakeGitHub, type RecordedCall } from "../fakes/github-api.js";
import { startFakeOpenAI, type FakeOpenAIServer, type ScriptStep } from "../fakes/openai-server.js";
import { BUILT_CLI } from "../global-build.js";

const SECRET = "e2e-webhook-secret-0123456789";
const API_KEY = "sk-e2e-app-secret-0123456789abcdefghij";
const BUGGY = "  return total / (values.length - 1);";
const FIXED = "  return total / values.length;";
const FIX_REPLY = [
  "src/stats.js",
  "```",
  "<<<<<<< SEARCH",
  BUGGY,
  "=======",
  FIXED,
  ">>>>>>> REPLACE",
  "```",
  "COMMIT: fix(stats): divide by the count",
].join("\n");
const INSTRUCTION = "make mean divide the total by the number of values";

let root: string;
let github: FakeGitHub;
let openai: FakeOpenAIServer;
let app: ChildProcess;
let appUrl = "";
let appOutput = "";
/** What the model answers next (each test sets it). */
let modelStep: ScriptStep = FIX_REPLY;
let counter = 0;

beforeAll(async () => {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  root = mkdtempSync(path.join(tmpdir(), "patchsmith-e2e-app-"));
  github = new FakeGitHub({ projectRoot: path.join(root, "repos"), privateKey });
  await github.start();
  openai = await startFakeOpenAI([], {
    apiKey: API_KEY,
    whenExhausted: (request) => (typeof modelStep === "function" ? modelStep(request) : modelStep),
  });
  const ghe = new URL(github.url).host;
  app = spawn(process.execPath, [BUILT_CLI, "serve"], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: root,
      APP_ID: "1",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: SECRET,
      PORT: "0",
      HOST: "127.0.0.1",
      GHE_HOST: ghe,
      GHE_PROTOCOL: "http",
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: API_KEY,
      PATCHSMITH_MODEL: "fake-model",
      PATCHSMITH_THROTTLE: "off",
      PATCHSMITH_LOG_LEVEL: "warn",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  appUrl = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      appOutput += chunk.toString("utf8");
      const match = /listening on (http:\/\/\S+?)\/api\/github\/webhooks/.exec(appOutput);
      if (match?.[1] !== undefined) resolve(match[1]);
    };
    app.stdout!.on("data", onData);
    app.stderr!.on("data", onData);
    app.once("exit", (code) => {
      reject(new Error(`the app exited (${code ?? "signal"}):\n${appOutput}`));
    });
  });
}, 300_000);

afterAll(async () => {
  if (app.exitCode === null) {
    const exited = new Promise((resolve) => app.once("exit", resolve));
    app.kill("SIGTERM");
    await exited;
  }
  await github.close();
  await openai.close();
  rmSync(root, { recursive: true, force: true });
});

/** A fresh repository `acme/<name>` with the planted bug and a config file; returns its full name. */
function createRepo(config = "test: node --test\n", branches: Record<string, "bot-commit" | "copy"> = {}): string {
  const name = `widgets-${++counter}`;
  const work = makeNodeRepo({ files: { ".github/patchsmith.yml": config } });
  for (const [branch, kind] of Object.entries(branches)) {
    git(work.dir, ["checkout", "--quiet", "-b", branch, "main"]);
    if (kind === "bot-commit") {
      writeFileSync(path.join(work.dir, "NOTES.md"), "written by the bot\n");
      git(work.dir, ["add", "NOTES.md"]);
      git(work.dir, [
        "commit",
        "--quiet",
        "--author=patchsmith[bot] <4100+patchsmith[bot]@users.noreply.127.0.0.1>",
        "-m",
        "docs: bot notes",
      ]);
    }
  }
  git(work.dir, ["checkout", "--quiet", "main"]);
  const bare = github.gitDir(`acme/${name}`);
  mkdirSync(path.dirname(bare), { recursive: true });
  git(root, ["clone", "--quiet", "--bare", "--", work.dir, bare]);
  work.cleanup();
  github.addRepo({ owner: "acme", name, defaultBranch: "main" });
  github.permissions.set(`acme/${name}:maintainer-mia`, "write");
  github.issues.set(`acme/${name}#1`, { title: "The mean is off", body: "mean([2, 4, 6]) gives 6." });
  return `acme/${name}`;
}

function addPull(full: string, number: number, headRef: string, headRepo = full, maintainerCanModify = false): void {
  github.pulls.set(`${full}#${number}`, {
    number,
    title: "Stats work",
    body: "",
    headRef,
    headRepo,
    baseRef: "main",
    maintainerCanModify,
    state: "open",
  });
}

const user = (login: string, type = "User") => ({ login, id: login === "maintainer-mia" ? 777 : 999, type });

function issueComment(
  full: string,
  number: number,
  body: string,
  options: { pull?: boolean; login?: string; type?: string; id?: number } = {},
) {
  const [owner, name] = full.split("/");
  const id = options.id ?? ++counter * 100;
  return {
    action: "created",
    issue: { number, title: "t", ...(options.pull === true ? { pull_request: { url: "x" } } : {}) },
    comment: {
      id,
      body,
      html_url: `${github.url}/${full}/issues/${number}#issuecomment-${id}`,
      user: user(options.login ?? "maintainer-mia", options.type),
    },
    repository: { name, full_name: full, owner: { login: owner } },
    sender: user(options.login ?? "maintainer-mia", options.type),
    installation: { id: 42 },
  };
}

async function deliver(
  event: string,
  payload: unknown,
  options: { id?: string; signature?: string | null } = {},
): Promise<number> {
  const body = JSON.stringify(payload);
  const signature =
    options.signature === undefined
      ? `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`
      : options.signature;
  const response = await fetch(`${appUrl}/api/github/webhooks`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": options.id ?? `delivery-${++counter}`,
      ...(signature === null ? {} : { "x-hub-signature-256": signature }),
    },
    body,
  });
  await response.text();
  return response.status;
}

async function waitFor<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}\n${appOutput}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const callsOf = (full: string): RecordedCall[] => github.calls.filter((c) => c.path.startsWith(`/repos/${full}/`));
const completedCheck = (full: string) =>
  waitFor("the check run to complete", () =>
    callsOf(full).find((c) => c.method === "PATCH" && c.path.includes("/check-runs/") && c.body.status === "completed"),
  );
const commentsOf = (full: string) => [...github.comments.values()].filter((c) => c.repo === full).map((c) => c.body);

/** Index of the first call matching each pattern, checking that they come in this order. */
function expectOrder(calls: RecordedCall[], patterns: RegExp[]): void {
  let from = 0;
  for (const pattern of patterns) {
    const index = calls.findIndex((c, i) => i >= from && pattern.test(`${c.method} ${c.path}`));
    expect(
      index,
      `${pattern} after call ${from}: ${calls.map((c) => `${c.method} ${c.path}`).join(", ")}`,
    ).toBeGreaterThanOrEqual(from);
    from = index + 1;
  }
}

function log(full: string, ref: string): string {
  return execFileSync("git", ["log", "--format=%an <%ae>%n%B%x1e", ref], {
    cwd: github.gitDir(full),
    encoding: "utf8",
  });
}

describe("patchsmith serve", () => {
  it("turns /fix on an issue into a branch, attributed commits and a pull request", async () => {
    modelStep = FIX_REPLY;
    const full = createRepo();
    expect(await deliver("issue_comment", issueComment(full, 1, `Thanks!\n\n/fix ${INSTRUCTION}`))).toBe(200);
    const done = await completedCheck(full);
    expect(done.body.conclusion).toBe("success");
    expectOrder(callsOf(full), [
      /^POST .*\/issues\/comments\/\d+\/reactions$/,
      /^POST .*\/issues\/1\/comments$/,
      /^POST .*\/check-runs$/,
      /^PATCH .*\/issues\/comments\/\d+$/,
      /^POST .*\/pulls$/,
      /^PATCH .*\/check-runs\/\d+$/,
    ]);
    const token = github.find(/access_tokens$/).find((c) => Array.isArray(c.body.repositories));
    expect(token?.body).toEqual({ repositories: [full.split("/")[1]], permissions: { contents: "write" } });

    const commits = log(full, "patchsmith/issue-1");
    expect(commits).toMatch(
      /^patchsmith\[bot\] <4100\+patchsmith\[bot\]@users\.noreply\.127\.0\.0\.1>\nfix\(stats\): divide by the count/,
    );
    expect(commits).toContain("Co-authored-by: maintainer-mia <777+maintainer-mia@users.noreply.127.0.0.1>");
    expect(commits).toContain("Patchsmith-Model: fake-model");
    expect(commits).toMatch(
      /Patchsmith-Request: http:\/\/127\.0\.0\.1:\d+\/acme\/widgets-\d+\/issues\/1#issuecomment-\d+/,
    );
    const pull = github.find(/^POST .*\/pulls$/)[0]!.body;
    expect(pull).toMatchObject({ head: "patchsmith/issue-1", base: "main" });
    expect(String(pull.body)).toContain("Fixes #1");
    expect(String(pull.body)).toContain("@maintainer-mia");
    const final = commentsOf(full).at(-1)!;
    expect(final).toContain("✅ done");
    expect(final).toContain("Opened pull request");
    expect(final).toContain("| ❌ failed (exit 1");
    for (const secret of [...github.tokens.keys(), API_KEY])
      expect(JSON.stringify([...github.comments.values(), ...github.checkRuns.values()])).not.toContain(secret);
  });

  it("pushes a commit to a pull request's head branch, with a lease, and opens no pull request", async () => {
    modelStep = FIX_REPLY;
    const full = createRepo(undefined, { feature: "copy" });
    addPull(full, 2, "feature");
    const before = github.branchSha(full, "feature")!;
    await deliver("issue_comment", issueComment(full, 2, `/fix ${INSTRUCTION}`, { pull: true }));
    expect((await completedCheck(full)).body.conclusion).toBe("success");
    const after = github.branchSha(full, "feature")!;
    expect(git(github.gitDir(full), ["rev-parse", `${after}^`]).trim()).toBe(before);
    expect(github.find(/^POST .*\/pulls$/).filter((c) => c.path.includes(full))).toEqual([]);
    expect(commentsOf(full).at(-1)).toContain("Pushed 1 commit to `feature`");
  });

  it("answers /fix --suggest on a review comment with a tested suggestion block", async () => {
    modelStep = FIX_REPLY;
    const full = createRepo(undefined, { feature: "copy" });
    addPull(full, 3, "feature");
    const head = github.branchSha(full, "feature")!;
    const [owner, name] = full.split("/");
    const payload = {
      action: "created",
      comment: {
        id: 880,
        body: "/fix --suggest divide by values.length",
        html_url: `${github.url}/${full}/pull/3#discussion_r880`,
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
    await deliver("pull_request_review_comment", payload);
    expect((await completedCheck(full)).body.conclusion).toBe("success");
    const reply = github.find(/^POST .*\/pulls\/3\/comments\/880\/replies$/)[0];
    expect(String(reply?.body.body)).toContain(`\`\`\`suggestion\n${FIXED}\n\`\`\``);
    expect(github.find(/^POST .*\/pulls\/comments\/880\/reactions$/)).toHaveLength(1);
    expect(github.branchSha(full, "feature")).toBe(head);
  });

  it("reverts patchsmith's last commit on /undo", async () => {
    const full = createRepo(undefined, { feature: "bot-commit" });
    addPull(full, 4, "feature");
    const head = github.branchSha(full, "feature")!;
    await deliver("issue_comment", issueComment(full, 4, "/undo", { pull: true }));
    expect((await completedCheck(full)).body.conclusion).toBe("success");
    const after = github.branchSha(full, "feature")!;
    expect(git(github.gitDir(full), ["rev-parse", `${after}^`]).trim()).toBe(head);
    expect(log(full, "-1")).not.toBe("");
    expect(git(github.gitDir(full), ["log", "-1", "--format=%an%n%B", after])).toContain(`This reverts commit ${head}`);
  });

  it("explains once, politely, to a commenter without write access", async () => {
    const full = createRepo();
    github.permissions.set(`${full}:newcomer`, "read");
    await deliver("issue_comment", issueComment(full, 1, "/fix everything", { login: "newcomer" }));
    await waitFor("the explanation", () => commentsOf(full)[0]);
    await deliver("issue_comment", issueComment(full, 1, "/fix again please", { login: "newcomer" }));
    expect(commentsOf(full)).toHaveLength(1);
    expect(commentsOf(full)[0]).toContain("Hi @newcomer");
    expect(callsOf(full).filter((c) => /reactions|check-runs/.test(c.path))).toEqual([]);
  });

  it("ignores bots without a single API call", async () => {
    const full = createRepo();
    expect(
      await deliver(
        "issue_comment",
        issueComment(full, 1, "/fix loop forever", { login: "other-bot[bot]", type: "Bot" }),
      ),
    ).toBe(200);
    expect(callsOf(full)).toEqual([]);
  });

  it("treats a duplicate delivery and a redelivered comment as no-ops", async () => {
    const full = createRepo();
    const payload = issueComment(full, 1, "/help");
    await deliver("issue_comment", payload, { id: "same-delivery" });
    await deliver("issue_comment", payload, { id: "same-delivery" });
    await deliver("issue_comment", payload, { id: "another-delivery" });
    await waitFor("the help comment", () => commentsOf(full)[0]);
    expect(github.find(/reactions$/).filter((c) => c.path.includes(`${full}/`))).toHaveLength(1);
    expect(commentsOf(full)).toHaveLength(1);
  });

  it("rejects unsigned and wrongly signed deliveries", async () => {
    const full = createRepo();
    const payload = issueComment(full, 1, "/help");
    expect(await deliver("issue_comment", payload, { signature: null })).toBeGreaterThanOrEqual(400);
    expect(await deliver("issue_comment", payload, { signature: `sha256=${"0".repeat(64)}` })).toBeGreaterThanOrEqual(
      400,
    );
    expect(callsOf(full)).toEqual([]);
  });

  it("stops without pushing when someone pushed to the branch during the run", async () => {
    const full = createRepo(undefined, { feature: "copy" });
    addPull(full, 5, "feature");
    let human = "";
    modelStep = () => {
      const work = mkdtempSync(path.join(root, "human-"));
      git(root, ["clone", "--quiet", "--branch", "feature", "--", github.gitDir(full), work]);
      git(work, ["commit", "--quiet", "--allow-empty", "-m", "docs: a human was faster"]);
      git(work, ["push", "--quiet", "origin", "feature"]);
      human = git(work, ["rev-parse", "HEAD"]).trim();
      return FIX_REPLY;
    };
    await deliver("issue_comment", issueComment(full, 5, `/fix ${INSTRUCTION}`, { pull: true }));
    expect((await completedCheck(full)).body.conclusion).toBe("failure");
    expect(github.branchSha(full, "feature")).toBe(human);
    expect(commentsOf(full).at(-1)).toContain("someone pushed meanwhile");
  });

  it("stops before any work when the head moved after the command", async () => {
    modelStep = FIX_REPLY;
    const full = createRepo(undefined, { feature: "copy" });
    addPull(full, 6, "feature");
    const requestsBefore = openai.chatRequests.length;
    github.onCall = (call) => {
      if (call.method === "POST" && call.path === `/repos/${full}/issues/6/comments`) {
        github.onCall = () => undefined;
        const work = mkdtempSync(path.join(root, "human-"));
        git(root, ["clone", "--quiet", "--branch", "feature", "--", github.gitDir(full), work]);
        git(work, ["commit", "--quiet", "--allow-empty", "-m", "feat: pushed right after the command"]);
        git(work, ["push", "--quiet", "origin", "feature"]);
      }
    };
    await deliver("issue_comment", issueComment(full, 6, `/fix ${INSTRUCTION}`, { pull: true }));
    await waitFor("the final comment", () => commentsOf(full).find((body) => body.includes("the branch moved")));
    expect(openai.chatRequests.length).toBe(requestsBefore);
  });

  it("reports a model failure, redacted, with a failed check run", async () => {
    modelStep = { status: 401, message: `Incorrect API key provided: ${API_KEY}` };
    const full = createRepo("test: node --test\nbudget: { attempts: 1 }\n");
    await deliver("issue_comment", issueComment(full, 1, `/fix ${INSTRUCTION}`));
    expect((await completedCheck(full)).body.conclusion).toBe("failure");
    const final = commentsOf(full).at(-1)!;
    expect(final).toContain("model-error");
    expect(final).toContain("Nothing was pushed.");
    expect(JSON.stringify([...github.comments.values(), ...github.checkRuns.values()])).not.toContain(API_KEY);
    expect(github.branchSha(full, "patchsmith/issue-1")).toBeUndefined();
  });

  it("refuses to touch a path the repository config forbids", async () => {
    modelStep = FIX_REPLY;
    const full = createRepo("test: node --test\nbudget: { attempts: 1 }\npaths: { forbidden: ['src/**'] }\n");
    await deliver("issue_comment", issueComment(full, 1, `/fix ${INSTRUCTION}`));
    expect((await completedCheck(full)).body.conclusion).toBe("failure");
    const final = commentsOf(full).at(-1)!;
    expect(final).toContain("patchsmith may not change paths matching src/**");
    expect(final).toContain("src/**");
    expect(github.branchSha(full, "patchsmith/issue-1")).toBeUndefined();
  });
});
