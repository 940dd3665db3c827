/**
 * The real TestRunner: `sh -c COMMAND` in the clone with a scrubbed environment, a timeout that kills the whole
 * process tree, the output's tail kept in bounded memory, and (when available) a bubblewrap sandbox without network.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestSummary } from "../agent/types.js";
import type { TestRunner, TestRunRequest } from "../ports/test-runner.js";
import { DEFAULT_ENV_ALLOW_LIST, redactSecrets, scrubEnv } from "../core/redact.js";
import { parseFailingTests } from "./test-output.js";
import { TailBuffer } from "./test-runner-tail.js";
import {
  bwrapArgs,
  findHiddenPaths,
  hasGitDir,
  privateDirsFor,
  probeBwrap,
  SANDBOX_HOME,
  type BwrapProbe,
} from "./test-runner-sandbox.js";

export type SandboxMode = "bwrap" | "none" | "auto";

export interface TestRunnerOptions {
  /** "auto" (default) uses bubblewrap when a probe run works, else runs unsandboxed with a warning. */
  readonly sandbox?: SandboxMode;
  readonly bwrapBinary?: string;
  /** Extra files or folders to hide inside the sandbox (beyond the usual credential places). */
  readonly hidePaths?: readonly string[];
  /** Extra variable names the tests may see; names that look secret are still dropped. */
  readonly allowEnv?: readonly string[];
  /** Known secret values to redact from the output tail (token shapes are always redacted). */
  readonly secrets?: readonly string[];
}

export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;

/** After the command exits, how long stragglers holding the output pipe open get before we stop reading. */
const CLOSE_GRACE_MS = 2_000;

export const UNSANDBOXED_WARNING =
  "tests ran without a sandbox (bubblewrap unavailable): they had network access, could read files this process " +
  "can read, and a process that double-forks into its own session can outlive the timeout";

export interface SandboxedTestSummary extends TestSummary {
  readonly sandbox: "bwrap" | "none";
  readonly warning?: string;
}

export interface SandboxedTestRunner extends TestRunner {
  run(request: TestRunRequest): Promise<SandboxedTestSummary>;
  /** Which sandbox runs will use (probing once on first call). */
  describe(): Promise<{ readonly sandbox: "bwrap" | "none"; readonly warning?: string; readonly detail: string }>;
}

interface Resolved {
  readonly sandbox: "bwrap" | "none";
  readonly warning?: string;
  readonly detail: string;
}

async function resolveMode(mode: SandboxMode, binary: string): Promise<Resolved> {
  if (mode === "none") return { sandbox: "none", warning: UNSANDBOXED_WARNING, detail: "sandbox disabled" };
  const probe: BwrapProbe = await probeBwrap(binary);
  if (probe.ok) return { sandbox: "bwrap", detail: probe.detail };
  if (mode === "bwrap") {
    throw new Error(
      `the test sandbox (bubblewrap) is required but does not work here (${probe.detail}); install it ` +
        "(apt-get install bubblewrap) and allow user namespaces (Docker: see the Dockerfile), or set " +
        "PATCHSMITH_TEST_SANDBOX=none to run tests without a sandbox, which is unsafe for untrusted code",
    );
  }
  return { sandbox: "none", warning: `${UNSANDBOXED_WARNING} (${probe.detail})`, detail: probe.detail };
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    // detached: the child leads its own process group, so this reaches every descendant that did not setsid().
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

export function createTestRunner(options: TestRunnerOptions = {}): SandboxedTestRunner {
  const binary = options.bwrapBinary ?? "bwrap";
  let resolved: Promise<Resolved> | undefined;
  const describe = (): Promise<Resolved> => (resolved ??= resolveMode(options.sandbox ?? "auto", binary));

  async function run(request: TestRunRequest): Promise<SandboxedTestSummary> {
    const mode = await describe();
    const env: Record<string, string> = {
      ...scrubEnv(process.env, [...DEFAULT_ENV_ALLOW_LIST, ...(options.allowEnv ?? [])]),
      TERM: "dumb",
      CI: "true",
      NO_COLOR: "1",
    };
    // stderr joins stdout inside the shell, so the tail interleaves both exactly as written.
    const script = `exec 2>&1\n${request.command}`;
    let argv: string[];
    let home: string | undefined;
    if (mode.sandbox === "bwrap") {
      const plan = {
        cwd: request.cwd,
        privateDirs: privateDirsFor(request.cwd),
        hidden: await findHiddenPaths(process.env, options.hidePaths ?? []),
        hasGitDir: await hasGitDir(request.cwd),
      };
      env.HOME = SANDBOX_HOME;
      env.TMPDIR = "/tmp";
      argv = [binary, ...bwrapArgs(plan), "sh", "-c", script];
    } else {
      home = await mkdtemp(join(tmpdir(), "patchsmith-home-"));
      env.HOME = home;
      argv = ["sh", "-c", script];
    }
    try {
      const outcome = await execute(argv, request, env);
      const tail = redactSecrets(outcome.tail, options.secrets ?? []);
      return {
        command: request.command,
        passed: outcome.exitCode === 0 && !outcome.timedOut,
        exitCode: outcome.exitCode,
        timedOut: outcome.timedOut,
        failing: parseFailingTests(tail),
        tail,
        durationMs: outcome.durationMs,
        sandbox: mode.sandbox,
        ...(mode.warning === undefined ? {} : { warning: mode.warning }),
      };
    } finally {
      if (home !== undefined) await rm(home, { recursive: true, force: true });
    }
  }

  return { run, describe };
}

interface Outcome {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly tail: string;
  readonly durationMs: number;
}

function execute(argv: readonly string[], request: TestRunRequest, env: Record<string, string>): Promise<Outcome> {
  const [file, ...args] = argv;
  if (file === undefined) throw new Error("empty command line");
  const tail = new TailBuffer(request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  const started = performance.now();
  return new Promise<Outcome>((resolve, reject) => {
    const child = spawn(file, args, { cwd: request.cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let timedOut = false;
    let exitCode: number | null = null;
    let finished = false;
    let exitedAt: number | undefined;
    const onData = (chunk: Buffer): void => {
      tail.push(chunk);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);

    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, request.timeoutMs);
    let grace: NodeJS.Timeout | undefined;

    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (grace !== undefined) clearTimeout(grace);
      const durationMs = Math.round((exitedAt ?? performance.now()) - started);
      resolve({ exitCode, timedOut, tail: tail.text(), durationMs });
    };
    child.on("error", (error) => {
      clearTimeout(timer);
      finished = true;
      reject(error);
    });
    child.on("exit", (code) => {
      exitCode = code;
      exitedAt = performance.now();
      // Background children a test left behind (e.g. a server) die with the group; with bwrap the PID namespace
      // already took them.
      killGroup(child.pid);
      grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, CLOSE_GRACE_MS);
    });
    child.on("close", finish);
  });
}
