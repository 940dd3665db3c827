/**
 * The resource limits of one sandboxed run (pure): memory, processes (tasks: threads count too, as the kernel counts
 * them) and CPU time, for the whole process tree, and the disk it may take (disk-watch.ts). Defaults fit the test
 * suites of real projects (a Jest run with workers, a Cargo build); the operator changes them with
 * PATCHSMITH_SANDBOX_MEMORY, _PROCESSES, _CPU_SECONDS and _DISK.
 */
import { formatBytes } from "../../core/bytes.js";
import type { LimitHit, LimitKind } from "../../ports/sandbox-runner.js";

export interface LimitSettings {
  readonly memoryBytes: number;
  readonly processes: number;
  readonly cpuSeconds: number;
  /** Free space of the clone's volume a run may take (what it writes, less what it deletes). */
  readonly diskBytes: number;
}

export const DEFAULT_LIMITS: LimitSettings = {
  memoryBytes: 4 * 1024 ** 3,
  processes: 1024,
  cpuSeconds: 30 * 60,
  diskBytes: 16 * 1024 ** 3,
};

/** The sentence a report and the model's prompt carry when a limit stopped the command. */
export function limitHit(kind: LimitKind, limits: LimitSettings, certain: boolean): LimitHit {
  const how = certain ? "" : "probably ";
  const message =
    kind === "memory"
      ? `the command ${how}used more than ${formatBytes(limits.memoryBytes)} of memory, the sandbox's limit`
      : kind === "processes"
        ? `the command ${how}tried to run more than ${String(limits.processes)} processes and threads at once, the sandbox's limit`
        : kind === "disk"
          ? `the command wrote more than ${formatBytes(limits.diskBytes)} to the disk, or left it nearly full, the sandbox's limit`
          : `the command ${how}used more than ${String(limits.cpuSeconds)} s of CPU time, the sandbox's limit`;
  return { kind, message };
}

/**
 * Without cgroups only the symptoms tell that an rlimit was hit (pure): SIGXCPU for CPU time, allocation failures
 * for memory, fork failures for processes. Unknown symptoms report nothing rather than a guess.
 */
export function guessLimitFromOutput(output: string, exitCode: number | null): LimitKind | undefined {
  if (exitCode === 128 + 24 || /\bCPU time limit exceeded\b/.test(output)) return "cpu-time";
  if (
    /JavaScript heap out of memory|allocation failed|Cannot allocate memory|MemoryError\b|std::bad_alloc|out of memory/i.test(
      output,
    )
  ) {
    return "memory";
  }
  if (
    /(fork|spawn|clone)[^\n]*(Resource temporarily unavailable|EAGAIN)|Cannot fork|retry: Resource temporarily/i.test(
      output,
    )
  ) {
    return "processes";
  }
  return undefined;
}
