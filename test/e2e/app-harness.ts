/**
 * Runs `node dist/cli.js serve` as a real process against a fake GitHub (REST under /api/v3 via GHE_HOST and
 * GHE_PROTOCOL, real git over smart HTTP) and the fake OpenAI server, and delivers signed webhooks to it. Shared by
 * the app's e2e test files; each file starts its own app (so per-process caches such as the bot identity start cold).
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHmac, generateKeyPairSync } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { git, makeNodeRepo, type TempRepo } from "../fakes/git-repos.js";
import { FakeGitHub, type RecordedCall, type Refusal } from "../fakes/github-api.js";
import { startFakeOpenAI, type FakeOpenAIServer, type ScriptStep } from "../fakes/openai-server.js";
import { BUILT_CLI } from "../global-build.js";

export const SECRET = "e2e-webhook-secret-0123456789";
export const API_KEY = "sk-e2e-app-secret-0123456789abcdefghij";
export const BUGGY = "  return total / (values.length - 1);";
export const FIXED = "  return total / values.length;";
export const FIX_REPLY = [
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
export const INSTRUCTION = "make mean divide the total by the number of values";

export interface Harness {
  readonly root: string;
  readonly github: FakeGitHub;
  readonly openai: FakeOpenAIServer;
  /** The running app process's base URL (a new one after each `restart`). */
  readonly appUrl: string;
  /** The app's data folder (PATCHSMITH_DATA_DIR, by default under HOME = `root`); the queue is in `<dataDir>/queue`. */
  readonly dataDir: string;
  /** What the model answers next. */
  modelStep: ScriptStep;
  /** Everything every app process of this harness printed, in order. */
  output(): string;
  /** The running app process's id (for /proc). */
  pid(): number;
  /** Sends a signal to the app process; resolves when it has exited. */
  kill(signal: NodeJS.Signals): Promise<AppExit>;
  /** Starts one more app process beside the running one, on the same data folder; resolves when it exits. */
  launchBeside(): Promise<{ readonly code: number | null; readonly output: string }>;
  /** Starts a new app process with the same HOME, data folder, key and fakes (the previous one must have exited). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface AppExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

let counter = 0;
export const nextId = (): number => ++counter;

export async function startHarness(
  options: {
    refusals?: Refusal[];
    /** Extra environment for the app process. */
    env?: Readonly<Record<string, string>>;
    /** The app's TMPDIR under `root`, so clones left by a killed process are removed with it. */
    tmpInRoot?: boolean;
    /** The shared queue: `serve --workers 0` takes the webhooks and this many `patchsmith worker` processes run. */
    redis?: { readonly url: string; readonly workers: number };
  } = {},
): Promise<Harness> {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const root = mkdtempSync(path.join(tmpdir(), "patchsmith-e2e-app-"));
  const github = new FakeGitHub({ projectRoot: path.join(root, "repos"), privateKey });
  github.refusals = options.refusals ?? [];
  await github.start();
  const openai = await startFakeOpenAI([], {
    apiKey: API_KEY,
    whenExhausted: (request) => {
      const step = harness.modelStep;
      return typeof step === "function" ? step(request) : step;
    },
  });
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: root,
    APP_ID: "1",
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET: SECRET,
    PORT: "0",
    HOST: "127.0.0.1",
    GHE_HOST: new URL(github.url).host,
    GHE_PROTOCOL: "http",
    OPENAI_BASE_URL: openai.url,
    OPENAI_API_KEY: API_KEY,
    PATCHSMITH_MODEL: "fake-model",
    PATCHSMITH_THROTTLE: "off",
    PATCHSMITH_RECONCILE_SECONDS: "0",
    PATCHSMITH_LOG_LEVEL: "warn",
    // One JSON object per line, levels as words: what the tests read back.
    LOG_FORMAT: "json",
    LOG_LEVEL_IN_STRING: "true",
    ...(options.tmpInRoot === true ? { TMPDIR: path.join(root, "tmp") } : {}),
    ...(options.redis === undefined ? {} : { PATCHSMITH_REDIS_URL: options.redis.url }),
    ...options.env,
  };
  const serveArgs = options.redis === undefined ? [] : ["--workers", "0"];
  const workerCount = options.redis?.workers ?? 0;
  if (env.TMPDIR !== undefined) mkdirSync(env.TMPDIR, { recursive: true });
  let output = "";
  let current = await launchApp(
    root,
    env,
    (text) => {
      output += text;
    },
    serveArgs,
  );
  const launchWorkers = () =>
    Promise.all(
      Array.from({ length: workerCount }, () =>
        launchApp(
          root,
          env,
          (text) => {
            output += text;
          },
          ["worker"],
        ),
      ),
    );
  let workers = await launchWorkers();
  // GitHub redelivers to the running app.
  const target = (): void => {
    github.webhookTarget = { url: `${current.url}/api/github/webhooks`, secret: SECRET };
  };
  target();
  const exitedOf = (p: RunningProcess): boolean => p.app.exitCode !== null || p.app.signalCode !== null;
  const exited = (): boolean => exitedOf(current);
  const killOne = (p: RunningProcess, signal: NodeJS.Signals): Promise<AppExit> => {
    if (!exitedOf(p)) p.app.kill(signal);
    return p.exit;
  };
  // With the shared queue, the workers go down with the app (each with the same signal).
  const kill = async (signal: NodeJS.Signals): Promise<AppExit> => {
    const all = await Promise.all([killOne(current, signal), ...workers.map((w) => killOne(w, signal))]);
    return all[0];
  };
  // A literal, not Object.assign: the appUrl getter must stay a getter (it follows restarts).
  const harness: Harness = {
    root,
    github,
    openai,
    modelStep: FIX_REPLY,
    get appUrl() {
      return current.url;
    },
    dataDir: env.PATCHSMITH_DATA_DIR ?? path.join(root, ".local", "state", "patchsmith"),
    output: () => output,
    pid: () => current.app.pid ?? -1,
    kill,
    launchBeside() {
      return new Promise((resolve) => {
        const second = spawn(process.execPath, [BUILT_CLI, "serve"], {
          cwd: root,
          env,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let text = "";
        const timer = setTimeout(() => second.kill("SIGKILL"), 30_000);
        second.stdout.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        second.stderr.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        second.once("close", (code) => {
          clearTimeout(timer);
          resolve({ code, output: text });
        });
      });
    },
    async restart() {
      if (!exited()) throw new Error("restart: the app is still running (kill it first)");
      output += "\n--- restart ---\n";
      current = await launchApp(
        root,
        env,
        (text) => {
          output += text;
        },
        serveArgs,
      );
      workers = await launchWorkers();
      target();
    },
    async stop() {
      // A job stuck on a held model answer would keep a SIGTERM-ed app waiting: after a while, kill it outright.
      const exit = kill("SIGTERM");
      const timer = setTimeout(() => void kill("SIGKILL"), 15_000);
      await exit;
      clearTimeout(timer);
      await github.close();
      await openai.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return harness;
}

interface RunningProcess {
  readonly app: ChildProcess;
  readonly url: string;
  readonly exit: Promise<AppExit>;
}

async function launchApp(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  print: (text: string) => void,
  args: readonly string[] = [],
): Promise<RunningProcess> {
  let seen = "";
  const command = args[0] === "worker" ? args : ["serve", ...args];
  const app: ChildProcess = spawn(process.execPath, [BUILT_CLI, ...command], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exit = new Promise<AppExit>((resolve) => {
    app.once("exit", (code, signal) => {
      resolve({ code, signal });
    });
  });
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString("utf8");
      seen += text;
      print(text);
      const match = /listening on (http:\/\/\S+?)\/api\/github\/webhooks/.exec(seen);
      if (match?.[1] !== undefined) resolve(match[1]);
      if (command[0] === "worker" && seen.includes("worker ready")) resolve("");
    };
    app.stdout!.on("data", onData);
    app.stderr!.on("data", onData);
    void exit.then(({ code }) => {
      reject(new Error(`the app exited (${code ?? "signal"}):\n${seen}`));
    });
  });
  return { app, url, exit };
}

/** A fresh repository `acme/<name>` with the planted bug and a config file; returns its full name. */
/** Publishes a repository made elsewhere on the fake GitHub as `acme/<name>`, with issue #1 and mia's write access. */
export function publishRepo(h: Harness, work: TempRepo, name: string): string {
  const bare = h.github.gitDir(`acme/${name}`);
  mkdirSync(path.dirname(bare), { recursive: true });
  git(h.root, ["clone", "--quiet", "--bare", "--", work.dir, bare]);
  h.github.addRepo({ owner: "acme", name, defaultBranch: "main" });
  h.github.permissions.set(`acme/${name}:maintainer-mia`, "write");
  return `acme/${name}`;
}

export function createRepo(
  h: Harness,
  config = "test: node --test\n",
  branches: Record<string, "bot-commit" | "copy"> = {},
): string {
  const name = `widgets-${String(nextId())}`;
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
  const full = publishRepo(h, work, name);
  work.cleanup();
  h.github.issues.set(`${full}#1`, { title: "The mean is off", body: "mean([2, 4, 6]) gives 6." });
  return full;
}

export function addPull(
  h: Harness,
  full: string,
  number: number,
  headRef: string,
  headRepo = full,
  maintainerCanModify = false,
): void {
  h.github.pulls.set(`${full}#${String(number)}`, {
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

export const user = (login: string, type = "User") => ({
  login,
  id: login === "maintainer-mia" ? 777 : 999,
  type,
});

export function issueComment(
  h: Harness,
  full: string,
  number: number,
  body: string,
  options: { pull?: boolean; login?: string; type?: string; id?: number } = {},
) {
  const [owner, name] = full.split("/");
  const id = options.id ?? nextId() * 100;
  return {
    action: "created",
    issue: { number, title: "t", ...(options.pull === true ? { pull_request: { url: "x" } } : {}) },
    comment: {
      id,
      body,
      html_url: `${h.github.url}/${full}/issues/${String(number)}#issuecomment-${String(id)}`,
      user: user(options.login ?? "maintainer-mia", options.type),
    },
    repository: { name, full_name: full, owner: { login: owner } },
    sender: user(options.login ?? "maintainer-mia", options.type),
    installation: { id: 42 },
  };
}

export async function deliver(
  h: Harness,
  event: string,
  payload: unknown,
  options: { id?: string; signature?: string | null } = {},
): Promise<number> {
  const body = JSON.stringify(payload);
  const signature =
    options.signature === undefined
      ? `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`
      : options.signature;
  const response = await fetch(`${h.appUrl}/api/github/webhooks`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": options.id ?? `delivery-${String(nextId())}`,
      ...(signature === null ? {} : { "x-hub-signature-256": signature }),
    },
    body,
  });
  await response.text();
  return response.status;
}

/**
 * Polls `probe` until it gives a value. Gives up after 90 s without one; with `progress`, only after 90 s in which
 * what it returns did not change: a long queue on a slow machine keeps moving and is waited for, a stuck one is not
 * (the test's own timeout still bounds the whole).
 */
export async function waitFor<T>(
  h: Harness,
  what: string,
  probe: () => T | undefined,
  progress?: () => string,
): Promise<T> {
  const patience = 90_000;
  let deadline = Date.now() + patience;
  let seen = progress?.();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    const now = progress?.();
    if (now !== seen) {
      seen = now;
      deadline = Date.now() + patience;
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}\n${h.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const callsOf = (h: Harness, full: string): RecordedCall[] =>
  h.github.calls.filter((c) => c.path.startsWith(`/repos/${full}/`));

export const completedCheck = (h: Harness, full: string) =>
  waitFor(h, "the check run to complete", () =>
    callsOf(h, full).find(
      (c) => c.method === "PATCH" && c.path.includes("/check-runs/") && c.body.status === "completed",
    ),
  );

export const commentsOf = (h: Harness, full: string): string[] =>
  [...h.github.comments.values()].filter((c) => c.repo === full).map((c) => c.body);

/** Checks that calls matching each pattern come in this order. */
export function expectOrder(calls: RecordedCall[], patterns: RegExp[]): void {
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

export function gitLog(h: Harness, full: string, ref: string): string {
  return execFileSync("git", ["log", "--format=%an <%ae>%n%B%x1e", ref], {
    cwd: h.github.gitDir(full),
    encoding: "utf8",
  });
}

/** The repo-scoped installation tokens the fake issued for `full` (the ones git used). */
export function repoTokens(h: Harness, full: string): string[] {
  const name = full.split("/")[1] ?? "";
  return [...h.github.tokens.entries()].filter(([, scope]) => scope?.includes(name) === true).map(([t]) => t);
}

/** True when git over HTTP accepts the token for `full` (ls-remote; async: the fake serves from this process). */
export async function gitAccepts(h: Harness, full: string, token: string): Promise<boolean> {
  const header = `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;
  const args = ["-c", `http.extraHeader=${header}`, "ls-remote", `${h.github.url}/git/${full}.git`];
  return new Promise((resolve) => {
    execFile("git", args, { env: { PATH: process.env.PATH, GIT_TERMINAL_PROMPT: "0" } }, (error) => {
      resolve(error === null);
    });
  });
}
