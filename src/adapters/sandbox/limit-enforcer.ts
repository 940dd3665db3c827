/**
 * Enforces a run's limits on its whole process tree: a cgroup of its own where the machine lets us make one (v2 in a
 * delegated subtree, or v1's memory, pids and cpuacct controllers, as root here), else rlimits through `prlimit`
 * (per process for memory, per user for processes). The run's first process is held (it waits on its stdin) until
 * it is inside its cgroup, so nothing it starts can escape the group.
 */
import { existsSync } from "node:fs";
import { appendFile, mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { LimitKind } from "../../ports/sandbox-runner.js";
import type { LimitSettings } from "./limits.js";

export type EnforcerKind = "cgroup-v2" | "cgroup-v1" | "rlimit" | "none";

export interface RunLimits {
  /** Put in front of the command line (prlimit), or nothing. */
  readonly prefix: readonly string[];
  /** Moves the held first process into the run's cgroup (a no-op with rlimits). */
  attach(pid: number): Promise<void>;
  /** CPU seconds the whole tree used so far, when the enforcer can tell. */
  cpuSeconds(): Promise<number | undefined>;
  /** Ends whatever is left of the tree and says which limit the run ran into, if any it can tell. */
  finish(): Promise<LimitKind | undefined>;
}

export interface LimitEnforcer {
  readonly kind: EnforcerKind;
  start(runId: string): Promise<RunLimits>;
}

const CGROUP_ROOT = "/sys/fs/cgroup";

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

/** `key value` lines (memory.events, pids.events, cpu.stat, memory.oom_control) → the value of `key`. Pure. */
export function statValue(text: string | undefined, key: string): number | undefined {
  if (text === undefined) return undefined;
  const match = new RegExp(`^${key}\\s+(\\d+)$`, "m").exec(text);
  return match === null ? undefined : Number(match[1]);
}

/** This process's cgroup path per v1 controller, and its v2 path (`0::`), from /proc/self/cgroup. Pure. */
export function ownCgroups(text: string): { readonly v1: ReadonlyMap<string, string>; readonly v2?: string } {
  const v1 = new Map<string, string>();
  let v2: string | undefined;
  for (const line of text.split("\n")) {
    const [, controllers, path] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
    if (controllers === undefined || path === undefined) continue;
    if (controllers === "") v2 = path;
    else for (const name of controllers.split(",")) v1.set(name, path);
  }
  return v2 === undefined ? { v1 } : { v1, v2 };
}

async function killAll(dir: string): Promise<void> {
  const procs = await readText(join(dir, "cgroup.procs"));
  for (const pid of (procs ?? "").split("\n").filter((p) => p !== "")) {
    try {
      process.kill(Number(pid), "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

/** rmdir a cgroup once its last process is reaped (a killed process takes a moment to leave it). */
async function removeGroup(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await rmdir(dir);
      return;
    } catch {
      await killAll(dir);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

async function tryMakeGroup(dir: string): Promise<boolean> {
  try {
    await mkdir(dir);
    return true;
  } catch {
    return false;
  }
}

function v1Enforcer(paths: { memory: string; pids: string; cpuacct: string }, limits: LimitSettings): LimitEnforcer {
  return {
    kind: "cgroup-v1",
    async start(runId) {
      const dirs = {
        memory: join(paths.memory, `patchsmith-${runId}`),
        pids: join(paths.pids, `patchsmith-${runId}`),
        cpuacct: join(paths.cpuacct, `patchsmith-${runId}`),
      };
      for (const dir of Object.values(dirs)) await mkdir(dir);
      await writeFile(join(dirs.memory, "memory.limit_in_bytes"), String(limits.memoryBytes));
      // With swap accounting, memory+swap gets the same limit: a run must not swap its way past it.
      const memsw = join(dirs.memory, "memory.memsw.limit_in_bytes");
      if (existsSync(memsw)) await writeFile(memsw, String(limits.memoryBytes)).catch(() => undefined);
      await writeFile(join(dirs.pids, "pids.max"), String(limits.processes));
      return {
        prefix: [],
        async attach(pid) {
          for (const dir of Object.values(dirs)) await appendFile(join(dir, "cgroup.procs"), `${String(pid)}\n`);
        },
        async cpuSeconds() {
          const ns = await readText(join(dirs.cpuacct, "cpuacct.usage"));
          return ns === undefined ? undefined : Number(ns) / 1e9;
        },
        async finish() {
          // Kernels before 4.13 have no oom_kill count: then any failed charge counts.
          const oomKills = statValue(await readText(join(dirs.memory, "memory.oom_control")), "oom_kill");
          const failcnt = Number((await readText(join(dirs.memory, "memory.failcnt")))?.trim() ?? "0");
          const forkFailures = statValue(await readText(join(dirs.pids, "pids.events")), "max") ?? 0;
          for (const dir of Object.values(dirs)) await killAll(dir);
          for (const dir of Object.values(dirs)) await removeGroup(dir);
          if (oomKills !== undefined ? oomKills > 0 : failcnt > 0) return "memory";
          return forkFailures > 0 ? "processes" : undefined;
        },
      };
    },
  };
}

function v2Enforcer(base: string, limits: LimitSettings): LimitEnforcer {
  return {
    kind: "cgroup-v2",
    async start(runId) {
      const dir = join(base, `patchsmith-run-${runId}`);
      await mkdir(dir);
      await writeFile(join(dir, "memory.max"), String(limits.memoryBytes));
      await writeFile(join(dir, "memory.swap.max"), "0").catch(() => undefined);
      await writeFile(join(dir, "pids.max"), String(limits.processes));
      return {
        prefix: [],
        async attach(pid) {
          await writeFile(join(dir, "cgroup.procs"), String(pid));
        },
        async cpuSeconds() {
          const usec = statValue(await readText(join(dir, "cpu.stat")), "usage_usec");
          return usec === undefined ? undefined : usec / 1e6;
        },
        async finish() {
          const oom = statValue(await readText(join(dir, "memory.events")), "oom_kill") ?? 0;
          const forkFailures = statValue(await readText(join(dir, "pids.events")), "max") ?? 0;
          await writeFile(join(dir, "cgroup.kill"), "1").catch(() => killAll(dir));
          await removeGroup(dir);
          if (oom > 0) return "memory";
          return forkFailures > 0 ? "processes" : undefined;
        },
      };
    },
  };
}

function rlimitEnforcer(limits: LimitSettings, prlimit: string): LimitEnforcer {
  const prefix = [
    prlimit,
    `--data=${String(limits.memoryBytes)}`,
    `--nproc=${String(limits.processes)}`,
    // Soft then hard: SIGXCPU first (a runtime may print why), SIGKILL five seconds later.
    `--cpu=${String(limits.cpuSeconds)}:${String(limits.cpuSeconds + 5)}`,
    "--",
  ];
  return {
    kind: "rlimit",
    start() {
      return Promise.resolve({
        prefix,
        attach: () => Promise.resolve(),
        cpuSeconds: () => Promise.resolve(undefined),
        finish: () => Promise.resolve(undefined),
      });
    },
  };
}

const noLimits: LimitEnforcer = {
  kind: "none",
  start: () =>
    Promise.resolve({
      prefix: [],
      attach: () => Promise.resolve(),
      cpuSeconds: () => Promise.resolve(undefined),
      finish: () => Promise.resolve(undefined),
    }),
};

/**
 * cgroup v2 needs a subtree whose controllers we may hand to children: our own cgroup, once this process has moved
 * into a leaf of it (v2 allows no processes in a group that distributes controllers).
 */
async function probeV2(own: string): Promise<string | undefined> {
  const base = join(CGROUP_ROOT, own);
  const controllers = (await readText(join(base, "cgroup.controllers")))?.split(/\s+/) ?? [];
  if (!controllers.includes("memory") || !controllers.includes("pids")) return undefined;
  const leaf = join(base, "patchsmith-service");
  try {
    if (!existsSync(leaf)) await mkdir(leaf);
    await writeFile(join(leaf, "cgroup.procs"), String(process.pid));
    const wanted = ["memory", "pids", ...(controllers.includes("cpu") ? ["cpu"] : [])];
    await writeFile(join(base, "cgroup.subtree_control"), wanted.map((c) => `+${c}`).join(" "));
    const probe = join(base, "patchsmith-probe");
    if (!(await tryMakeGroup(probe))) return undefined;
    const ok = existsSync(join(probe, "memory.max")) && existsSync(join(probe, "pids.max"));
    await rmdir(probe).catch(() => undefined);
    return ok ? base : undefined;
  } catch {
    return undefined;
  }
}

async function probeV1(
  v1: ReadonlyMap<string, string>,
): Promise<{ memory: string; pids: string; cpuacct: string } | undefined> {
  const paths: Record<string, string> = {};
  for (const controller of ["memory", "pids", "cpuacct"]) {
    const own = v1.get(controller);
    if (own === undefined) return undefined;
    const dir = join(CGROUP_ROOT, controller, own);
    const probe = join(dir, `patchsmith-probe-${String(process.pid)}`);
    if (!(await tryMakeGroup(probe))) return undefined;
    await rmdir(probe).catch(() => undefined);
    paths[controller] = dir;
  }
  return { memory: paths.memory!, pids: paths.pids!, cpuacct: paths.cpuacct! };
}

/** The best enforcer this machine offers: cgroup v2, cgroup v1, rlimits through prlimit, or nothing. */
export async function chooseEnforcer(
  limits: LimitSettings,
  prlimit: string | undefined,
  preference: "auto" | "rlimit" = "auto",
): Promise<LimitEnforcer> {
  if (preference === "rlimit") return prlimit === undefined ? noLimits : rlimitEnforcer(limits, prlimit);
  const own = ownCgroups((await readText("/proc/self/cgroup")) ?? "");
  if (own.v2 !== undefined && own.v1.size === 0) {
    const base = await probeV2(own.v2);
    if (base !== undefined) return v2Enforcer(base, limits);
  }
  if (own.v1.size > 0) {
    const paths = await probeV1(own.v1);
    if (paths !== undefined) return v1Enforcer(paths, limits);
  }
  return prlimit === undefined ? noLimits : rlimitEnforcer(limits, prlimit);
}
