/**
 * Runs one command line as a child process group: held until `onStarted` has placed it (in its cgroup), its output
 * kept in a bounded tail, the whole group killed on timeout or when `shouldStop` says so, and stragglers that keep
 * the output pipe open given a short grace after the command itself exits.
 */
import { setPriority } from "node:os";
import { spawn } from "node:child_process";
import { TailBuffer } from "../../core/tail-buffer.js";

export interface ProcessOutcome {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** Set when `shouldStop` ended the run (e.g. its CPU time ran out). */
  readonly stopped?: string;
  readonly output: string;
  readonly droppedBytes: number;
  readonly durationMs: number;
}

export interface ProcessRequest {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  /** Called with the held child's pid before it may run (it waits for a line on its stdin). */
  readonly onStarted?: (pid: number) => Promise<void>;
  /** Polled four times a second while the command runs; a reason ends the run. */
  readonly shouldStop?: () => Promise<string | undefined>;
}

/** The niceness of sandboxed commands (0 is the service's own; higher yields the CPU more). */
export const SANDBOX_NICENESS = 10;

/** After the command exits, how long stragglers holding the output pipe open get before we stop reading. */
const CLOSE_GRACE_MS = 2_000;
/**
 * How often `shouldStop` is asked. Its questions cost a file read or a statfs; a quarter second keeps what a fast
 * disk can write between two polls (about 1 GB) within the reserve disk-watch.ts keeps free.
 */
const POLL_MS = 250;

/** The command line that waits for one line on stdin, then becomes `argv` (its stdin then reads end-of-file). */
export function heldArgv(argv: readonly string[]): string[] {
  return ["/bin/sh", "-c", 'read -r _ || true; exec "$@"', "patchsmith-hold", ...argv];
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

export function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
  const [file, ...args] = heldArgv(request.argv);
  const tail = new TailBuffer(request.maxOutputBytes);
  const started = performance.now();
  return new Promise<ProcessOutcome>((resolve, reject) => {
    const child = spawn(file!, args, {
      cwd: request.cwd,
      env: { ...request.env },
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let timedOut = false;
    let stopped: string | undefined;
    let exitCode: number | null = null;
    let signal: NodeJS.Signals | null = null;
    let finished = false;
    let exitedAt: number | undefined;
    let grace: NodeJS.Timeout | undefined;
    const onData = (chunk: Buffer): void => {
      tail.push(chunk);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.stdin.on("error", () => undefined);

    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, request.timeoutMs);
    const poll =
      request.shouldStop === undefined
        ? undefined
        : setInterval(() => {
            void request.shouldStop?.().then((reason) => {
              if (reason === undefined || stopped !== undefined || exitedAt !== undefined) return;
              stopped = reason;
              killGroup(child.pid);
            });
          }, POLL_MS);

    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (poll !== undefined) clearInterval(poll);
      if (grace !== undefined) clearTimeout(grace);
      const durationMs = Math.round((exitedAt ?? performance.now()) - started);
      resolve({
        exitCode,
        signal,
        timedOut,
        ...(stopped === undefined ? {} : { stopped }),
        output: tail.text(),
        droppedBytes: tail.droppedBytes,
        durationMs,
      });
    };
    child.on("error", (error) => {
      clearTimeout(timer);
      if (poll !== undefined) clearInterval(poll);
      finished = true;
      reject(error);
    });
    child.on("spawn", () => {
      // Repository code yields the CPU to the service: set while the child is held, so everything it starts
      // inherits it, and answers to GitHub are not slowed by a busy test suite.
      if (child.pid !== undefined) {
        try {
          setPriority(child.pid, SANDBOX_NICENESS);
        } catch {
          // Not allowed here (a container without the capability to renice): it runs at the service's priority.
        }
      }
      const release = (): void => {
        child.stdin.end("\n");
      };
      if (request.onStarted === undefined || child.pid === undefined) release();
      else {
        request.onStarted(child.pid).then(release, (error: unknown) => {
          // A run that cannot be placed under its limits does not run at all.
          killGroup(child.pid);
          tail.push(Buffer.from(`patchsmith: could not apply the sandbox's limits: ${String(error)}\n`));
        });
      }
    });
    child.on("exit", (code, sig) => {
      exitCode = code;
      signal = sig;
      exitedAt = performance.now();
      // Background children a command left behind (e.g. a server) die with the group; with bwrap the PID namespace
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
