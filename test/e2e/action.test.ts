/**
 * The bundled Action (action/index.js) run as the Actions runner runs it: `node` on the bundle, with the runner's
 * variables (GITHUB_EVENT_PATH pointing at a real-shaped event, a checkout in GITHUB_WORKSPACE, GITHUB_OUTPUT, ...)
 * and the inputs as INPUT_* variables, against the fake GitHub API (authenticated by the workflow's token only) and
 * the fake model over real sockets.
 */
import { execFile, execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeNodeRepo } from "../fakes/git-repos.js";
import { FakeGitHub } from "../fakes/github-api.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/openai-server.js";
import { BUILT_ACTION } from "../global-build.js";
import { API_KEY, BUGGY, FIX_REPLY, FIXED, user } from "./app-harness.js";

const TOKEN = "ghs_workflow0token0for0this0run0123456789";

let root: string;
let github: FakeGitHub;
let openai: FakeOpenAIServer;

beforeEach(async () => {
  root = mkdtempSync(path.join(tmpdir(), "patchsmith-e2e-action-"));
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  github = new FakeGitHub({ projectRoot: path.join(root, "repos"), privateKey });
  await github.start();
  // The workflow's token: valid for the repository, never minted by an app.
  github.tokens.set(TOKEN, undefined);
  openai = await startFakeOpenAI([FIX_REPLY], { apiKey: API_KEY });
});

afterEach(async () => {
  await openai.close();
  await github.close();
  rmSync(root, { recursive: true, force: true });
});

const git = (cwd: string, args: string[]): string => execFileSync("git", args, { cwd, encoding: "utf8" });

/** `acme/widgets` with the planted bug, a `feature` branch, and a checkout of `ref` as actions/checkout makes one. */
function publish(ref: string): { full: string; workspace: string } {
  const work = makeNodeRepo({ files: { ".github/patchsmith.yml": "test: node --test\n" } });
  git(work.dir, ["branch", "feature"]);
  const full = "acme/widgets";
  const bare = github.gitDir(full);
  mkdirSync(path.dirname(bare), { recursive: true });
  git(root, ["clone", "--quiet", "--bare", "--", work.dir, bare]);
  work.cleanup();
  github.addRepo({ owner: "acme", name: "widgets", defaultBranch: "main" });
  github.permissions.set(`${full}:maintainer-mia`, "write");
  github.issues.set(`${full}#1`, { title: "The mean is off", body: "mean([2, 4, 6]) gives 6." });
  const workspace = path.join(root, "workspace");
  git(root, ["clone", "--quiet", "--branch", ref, "--", bare, workspace]);
  return { full, workspace };
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly outputs: Record<string, string>;
  readonly summary: string;
}

/** Reads the runner's output file format: `name<<DELIMITER`, lines, `DELIMITER`. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^([\w-]+)<<(.+)$/.exec(lines[i]!);
    if (m === null) continue;
    const end = lines.indexOf(m[2]!, i + 1);
    outputs[m[1]!] = lines.slice(i + 1, end).join("\n");
    i = end;
  }
  return outputs;
}

async function runAction(
  event: string,
  payload: unknown,
  workspace: string,
  inputs: Record<string, string> = {},
): Promise<Run> {
  const runnerTemp = mkdtempSync(path.join(root, "runner-temp-"));
  const eventPath = path.join(runnerTemp, "event.json");
  writeFileSync(eventPath, JSON.stringify(payload));
  const outputFile = path.join(runnerTemp, "output");
  const summaryFile = path.join(runnerTemp, "summary");
  writeFileSync(outputFile, "");
  writeFileSync(summaryFile, "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: root,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_API_URL: `${github.url}/api/v3`,
    GITHUB_SERVER_URL: github.url,
    GITHUB_REPOSITORY: "acme/widgets",
    RUNNER_TEMP: runnerTemp,
    "INPUT_GITHUB-TOKEN": TOKEN,
    "INPUT_OPENAI-API-KEY": API_KEY,
    "INPUT_OPENAI-BASE-URL": openai.url,
    INPUT_MODEL: "fake-model",
    INPUT_SANDBOX: "auto",
    ...Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value])),
  };
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve) => {
      execFile(process.execPath, [BUILT_ACTION], { env, cwd: workspace, timeout: 60_000 }, (error, out, err) => {
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : null,
          stdout: out,
          stderr: err,
        });
      });
    },
  );
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputs(readFileSync(outputFile, "utf8")),
    summary: readFileSync(summaryFile, "utf8"),
  };
}

const comments = (full: string): string[] =>
  [...github.comments.values()].filter((c) => c.repo === full).map((c) => c.body);

const issueEvent = (full: string, number: number, body: string, pull = false) => ({
  action: "created",
  issue: { number, title: "t", ...(pull ? { pull_request: { url: "x" } } : {}) },
  comment: {
    id: 4100 + number,
    body,
    html_url: `${github.url}/${full}/issues/${String(number)}#issuecomment-${String(4100 + number)}`,
    user: user("maintainer-mia"),
  },
  repository: { name: "widgets", full_name: full, owner: { login: "acme" } },
  sender: user("maintainer-mia"),
});

describe("patchsmith as a GitHub Action", () => {
  it("turns /fix on an issue into a pull request with an attributed commit, and says so in its outputs", async () => {
    const { full, workspace } = publish("main");
    const run = await runAction(
      "issue_comment",
      issueEvent(full, 1, "/fix make the mean divide by the count"),
      workspace,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs.status).toBe("success");
    expect(run.outputs["pull-request"]).toMatch(/\/pull\/\d+$/);
    const branch = run.outputs.branch!;
    expect(branch).not.toBe("");
    const commits = run.outputs.commits!.split("\n");
    expect(commits).toHaveLength(1);
    // The commit is on GitHub, authored by the workflow's bot, with the requester as co-author and the trailers.
    const bare = github.gitDir(full);
    expect(git(bare, ["rev-parse", branch]).trim()).toBe(commits[0]);
    const message = git(bare, ["log", "-1", "--format=%an <%ae>%n%B", commits[0]!]);
    expect(message).toContain("github-actions[bot] <41898282+github-actions[bot]@users.noreply.");
    expect(message).toContain("Co-authored-by: maintainer-mia <777+maintainer-mia@users.noreply.");
    expect(message).toMatch(/Patchsmith-Request: \S+issuecomment-4101/);
    expect(git(bare, ["show", `${commits[0]!}:src/stats.js`])).toContain(FIXED);
    // 👀 on the command, one progress comment edited into the final report.
    expect(github.find(/^POST .*\/issues\/comments\/4101\/reactions$/)).toHaveLength(1);
    expect(comments(full)).toHaveLength(1);
    expect(comments(full)[0]).toContain("Opened pull request");
    expect(run.summary).toContain("### patchsmith: success");
    // The token never leaves the run: not in the comments, the outputs or the log.
    for (const text of [...comments(full), run.stdout, run.stderr, JSON.stringify(run.outputs)]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(API_KEY);
    }
  });

  it("commits to a pull request's own branch with a lease", async () => {
    const { full, workspace } = publish("feature");
    const head = github.branchSha(full, "feature")!;
    github.pulls.set(`${full}#3`, {
      number: 3,
      title: "Stats work",
      body: "",
      headRef: "feature",
      headRepo: full,
      baseRef: "main",
      maintainerCanModify: false,
      state: "open",
    });
    const run = await runAction(
      "issue_comment",
      issueEvent(full, 3, "/fix make the mean divide by the count", true),
      workspace,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs.status).toBe("success");
    expect(run.outputs.branch).toBe("feature");
    const after = github.branchSha(full, "feature")!;
    expect(run.outputs.commits).toBe(after);
    expect(git(github.gitDir(full), ["rev-parse", `${after}^`]).trim()).toBe(head);
    expect(run.outputs["pull-request"]).toBe("");
    expect(comments(full).at(-1)).toContain("Pushed 1 commit to `feature`");
  });

  it("reverts its own last commit on /undo, and answers /help", async () => {
    const { full, workspace } = publish("feature");
    const head = github.branchSha(full, "feature")!;
    github.pulls.set(`${full}#3`, {
      number: 3,
      title: "Stats work",
      body: "",
      headRef: "feature",
      headRepo: full,
      baseRef: "main",
      maintainerCanModify: false,
      state: "open",
    });
    const fixed = await runAction(
      "issue_comment",
      issueEvent(full, 3, "/fix make the mean divide by the count", true),
      workspace,
    );
    expect(fixed.outputs.status).toBe("success");
    const fix = github.branchSha(full, "feature")!;
    expect(fix).not.toBe(head);
    const undo = issueEvent(full, 3, "/undo", true);
    undo.comment.id = 4200;
    const undone = await runAction("issue_comment", undo, workspace);
    expect(undone.code, undone.stderr).toBe(0);
    const after = github.branchSha(full, "feature")!;
    expect(git(github.gitDir(full), ["rev-parse", `${after}^`]).trim()).toBe(fix);
    expect(git(github.gitDir(full), ["log", "-1", "--format=%an%n%B", after])).toContain(`This reverts commit ${fix}`);
    expect(git(github.gitDir(full), ["show", `${after}:src/stats.js`])).toContain(BUGGY);

    const help = issueEvent(full, 3, "/help", true);
    help.comment.id = 4300;
    // Without the sandbox (as on a runner that forbids it), the step summary says so.
    const helped = await runAction("issue_comment", help, workspace, { sandbox: "none" });
    expect(helped.code, helped.stderr).toBe(0);
    expect(helped.outputs.status).toBe("answered");
    expect(helped.summary).toMatch(/> Sandbox: .*without a sandbox/);
    expect(comments(full).some((body) => body.includes("/fix --suggest"))).toBe(true);
  });

  it("answers /fix --suggest on a review comment with a tested suggestion, pushing nothing", async () => {
    const { full, workspace } = publish("feature");
    const head = github.branchSha(full, "feature")!;
    github.pulls.set(`${full}#3`, {
      number: 3,
      title: "Stats work",
      body: "",
      headRef: "feature",
      headRepo: full,
      baseRef: "main",
      maintainerCanModify: false,
      state: "open",
    });
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
      repository: { name: "widgets", full_name: full, owner: { login: "acme" } },
      sender: user("maintainer-mia"),
    };
    const run = await runAction("pull_request_review_comment", payload, workspace);
    expect(run.code, run.stderr).toBe(0);
    const reply = github.find(/^POST .*\/pulls\/3\/comments\/880\/replies$/)[0];
    expect(String(reply?.body.body)).toContain(`\`\`\`suggestion\n${FIXED}\n\`\`\``);
    expect(github.branchSha(full, "feature")).toBe(head);
    expect(run.outputs.commits).toBe("");
  });

  it("answers a fork's pull request with the patch: the workflow token cannot push there", async () => {
    const { full, workspace } = publish("feature");
    github.pulls.set(`${full}#5`, {
      number: 5,
      title: "From a fork",
      body: "",
      headRef: "feature",
      headRepo: full.replace("acme/", "contributor/"),
      baseRef: "main",
      maintainerCanModify: true,
      state: "open",
    });
    // The fork lives at its own URL on the fake: make it, as a copy of the repository.
    const forkBare = github.gitDir("contributor/widgets");
    mkdirSync(path.dirname(forkBare), { recursive: true });
    git(root, ["clone", "--quiet", "--bare", "--", github.gitDir(full), forkBare]);
    github.addRepo({ owner: "contributor", name: "widgets", defaultBranch: "main" });
    const forkHead = github.branchSha("contributor/widgets", "feature");
    const run = await runAction(
      "issue_comment",
      issueEvent(full, 5, "/fix make the mean divide by the count", true),
      workspace,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(github.branchSha("contributor/widgets", "feature")).toBe(forkHead);
    const last = comments(full).at(-1) ?? "";
    expect(last).toContain("```diff");
    expect(last).toContain(`+${FIXED}`);
    expect(last).toContain(`-${BUGGY}`);
  });

  it("ignores a comment without a command and says why in its outputs", async () => {
    const { full, workspace } = publish("main");
    const run = await runAction("issue_comment", issueEvent(full, 1, "thanks, looks good"), workspace);
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs.status).toBe("ignored");
    expect(comments(full)).toEqual([]);
    expect(openai.chatRequests).toHaveLength(0);
  });

  it("refuses to start without a token, naming the input", async () => {
    const { full, workspace } = publish("main");
    const run = await runAction("issue_comment", issueEvent(full, 1, "/fix x"), workspace, { "github-token": "" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/::error::patchsmith: invalid input: 'github-token'/);
  });
});
