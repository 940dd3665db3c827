/**
 * Runs a repository's own commands (its set-up and its tests) as untrusted code: an unprivileged user that is never
 * root, an allow-listed view of the file system, no secrets, memory/process/CPU limits, the whole process tree
 * ended, a bounded output. Set-up may reach the network (package registries), tests never.
 */

/** Variables the sandbox itself decides: a request's `env` (the repo config's, CI's) cannot change them. */
export const RESERVED_NAMES = new Set([
  "PATH",
  "HOME",
  "TMPDIR",
  "USER",
  "LOGNAME",
  "GIT_CONFIG_GLOBAL",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "http_proxy",
  "https_proxy",
  "NO_PROXY",
  "no_proxy",
  "ALL_PROXY",
  "all_proxy",
  "npm_config_proxy",
  "npm_config_https_proxy",
  "NODE_USE_ENV_PROXY",
  "npm_config_offline",
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
]);

/** What one run of a command ended as. */
export interface RunSummary {
  readonly command: string;
  /** Exit code 0, in time, within the limits. */
  readonly passed: boolean;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /**
   * The output, stdout and stderr interleaved as written, redacted; only its last `maxOutputBytes` are kept (enough
   * for a test runner's failure blocks and summary, bounded however much a suite prints), without terminal control
   * sequences (colours).
   */
  readonly output: string;
  /** Bytes cut from the front of `output`. */
  readonly droppedBytes: number;
  readonly durationMs: number;
  /** A sandbox limit the command ran into (it was stopped, or could not fork or allocate). */
  readonly limit?: LimitHit;
  /** `host:port` a command with network asked for and the egress allow-list refused. */
  readonly refusedHosts?: readonly string[];
  /** `host:port` the allow-list admits but that could not be reached from the host (no such name, no route). */
  readonly unreachableHosts?: readonly string[];
}

export type LimitKind = "memory" | "processes" | "cpu-time" | "disk";

export interface LimitHit {
  readonly kind: LimitKind;
  /** For people and the model: "the command used more than 4 GiB of memory". */
  readonly message: string;
}

/** The repository's package caches: read-write while it sets up, read-only while its tests run. */
export interface CacheMount {
  /** The folder on the host (one per repository, so one repository cannot poison another's). */
  readonly dir: string;
  readonly writable: boolean;
  /** Variables that point the package managers at the cache, given where the command sees it. */
  readonly env: (root: string) => Readonly<Record<string, string>>;
}

export interface SandboxRunRequest {
  readonly command: string;
  /** The clone: the only host folder the command may write (its `.git` stays read-only). */
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Maximum bytes of output kept, the last ones (default 2 MiB). */
  readonly maxOutputBytes?: number;
  /** Network through the operator's egress allow-list (set-up); default none (tests). */
  readonly network?: boolean;
  /** Extra variables (the repo config's `env`, a virtual environment). Names that look secret are dropped. */
  readonly env?: Readonly<Record<string, string>>;
  /** Folders put in front of PATH (a virtual environment's `bin`, inside the clone). */
  readonly path?: readonly string[];
  /** Small commands put on PATH, name → command line to run with the arguments (e.g. pnpm → `corepack pnpm`). */
  readonly shims?: Readonly<Record<string, string>>;
  readonly cache?: CacheMount;
}

export interface SandboxDescription {
  readonly sandbox: "bwrap" | "none";
  /** Set when commands run without the sandbox (the CLI's fallback): what that exposes. */
  readonly warning?: string;
  /** One line for the start-up log: the bwrap version, the sandbox user, the limits and how they are enforced. */
  readonly detail: string;
}

export interface SandboxRunner {
  run(request: SandboxRunRequest): Promise<RunSummary>;
  /**
   * Gives a folder the sandbox user wrote back to patchsmith's own user (a clone that is kept, to be used with git
   * afterwards). A no-op when the sandbox user is patchsmith's own.
   */
  reclaim(dir: string): Promise<void>;
  /** How commands will run (probes once); throws when a required sandbox does not work here. */
  describe(): Promise<SandboxDescription>;
}
