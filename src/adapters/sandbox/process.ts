/**
 * Runs one command line as a child process group: held until `onStarted` has placed it (in its cgroup), the whole
 * group killed on timeout or when `shouldStop` says so, and the tail of its output kept.
 *
 * The output goes to a file, not a pipe: Node queues what a pipe or socket cannot take at once, and a program that
 * calls process.exit() right after printing (tsc, many test runners' exit paths) drops that queue whenever the
 * service is slow to read (measured: 278 of 5,000 lines arrived while the service's event loop was busy for 1.5 s).
 * To a file Node writes synchronously, and every other runtime's buffered output is flushed into it the same way.
 * The file is unlinked as soon as it is open (nothing sees it by name); only its last `maxOutputBytes` are read,
 * once the command has ended. It takes disk as the command prints, on the volume of `outputDir`, which the caller
 * watches with the clone's.
 */
import { randomUUID } from "node:crypto";
import { open, unlink, type FileHandle } from "node:fs/promises";
import { setPriority } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { tailText } from "../../core/tail-buffer.js";

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
  /** The folder the output file is made in. */
  readonly outputDir: string;
  /** Called with the held child's pid before it may run (it waits for a line on its stdin). */
  readonly onStarted?: (pid: number) => Promise<void>;
  /** Polled four times a second while the command runs; a reason ends the run. */
  readonly shouldStop?: () => Promise<string | undefined>;
}

/** The niceness of sandboxed commands (0 is the service's own; higher yields the CPU more). */
export const SANDBOX_NICENESS = 10;

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

/** The output file, open for appending (both stdout and stderr, in the order written) and already unlinked. */
async function openOutput(dir: string): Promise<FileHandle> {
  const path = join(dir, `output-${randomUUID()}`);
  const handle = await open(path, "ax+", 0o600);
  await unlink(path).catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  return handle;
}

/** The last `limit` bytes the command wrote, and how many came before them. */
async function readTail(output: FileHandle, limit: number): Promise<{ text: string; dropped: number }> {
  const { size } = await output.stat();
  const length = Math.min(size, Math.max(0, limit));
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await output.read(buffer, read, length - read, size - length + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return { text: tailText(buffer.subarray(0, read), size > length), dropped: size - length };
}

export async function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
  const output = await openOutput(request.outputDir);
  try {
    const ended = await runHeld(request, output.fd);
    const tail = await readTail(output, request.maxOutputBytes);
    const { notes, ...outcome } = ended;
    return { ...outcome, output: tail.text + notes.join(""), droppedBytes: tail.dropped };
  } finally {
    await output.close();
  }
}

interface Ended extends Omit<ProcessOutcome, "output" | "droppedBytes"> {
  /** What patchsmith itself has to say about the run, after the command's output. */
  readonly notes: readonly string[];
}

function runHeld(request: ProcessRequest, outputFd: number): Promise<Ended> {
  const [file, ...args] = heldArgv(request.argv);
  const started = performance.now();
  const notes: string[] = [];
  return new Promise<Ended>((resolve, reject) => {
    const child = spawn(file!, args, {
      cwd: request.cwd,
      env: { ...request.env },
      detached: true,
      stdio: ["pipe", outputFd, outputFd],
    });
    let timedOut = false;
    let stopped: string | undefined;
    let exitedAt: number | undefined;
    // stdio[0] is "pipe": the hold's release line goes through it.
    const input = child.stdin!;
    input.on("error", () => undefined);

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
    const stopTimers = (): void => {
      clearTimeout(timer);
      if (poll !== undefined) clearInterval(poll);
    };

    child.on("error", (error) => {
      stopTimers();
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
        input.end("\n");
      };
      if (request.onStarted === undefined || child.pid === undefined) release();
      else {
        request.onStarted(child.pid).then(release, (error: unknown) => {
          // A run that cannot be placed under its limits does not run at all.
          killGroup(child.pid);
          notes.push(`patchsmith: could not apply the sandbox's limits: ${String(error)}\n`);
        });
      }
    });
    child.on("exit", (exitCode, signal) => {
      exitedAt = performance.now();
      stopTimers();
      // Background children a command left behind (e.g. a server) die with the group; with bwrap the PID namespace
      // already took them. What they wrote until now is in the file; nothing waits for them.
      killGroup(child.pid);
      resolve({
        exitCode,
        signal,
        timedOut,
        ...(stopped === undefined ? {} : { stopped }),
        durationMs: Math.round(exitedAt - started),
        notes,
      });
    });
  });
}
