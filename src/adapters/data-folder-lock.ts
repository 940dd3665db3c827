/**
 * One process per data folder. The embedded queue and the clone folder derived from the data folder are not safe to
 * share: a second `serve` on the same folder would run the same jobs and empty the first one's clone folder at
 * start. The lock is a file naming its holder (pid, the machine's boot id, the process's start time), created
 * exclusively; a holder that no longer runs (a crash, `kill -9`) is recognised at once and its lock taken over.
 *
 * Hand-written rather than proper-lockfile: that library tells a stale lock by its age (its holder refreshes the
 * mtime), so a restart right after a crash would wait out the staleness period; a pid with its start time says
 * at once whether the holder still runs. Limits: one machine (a folder shared over the network between machines is
 * not supported), Linux's /proc.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { errorCode } from "./errno.js";

export interface Holder {
  readonly pid: number;
  readonly bootId: string;
  /** The process's start time in clock ticks since boot (/proc/<pid>/stat, field 22): tells a reused pid apart. */
  readonly startTicks: string;
}

export interface DataFolderLock {
  release(): Promise<void>;
}

export class DataFolderBusy extends Error {
  constructor(
    readonly folder: string,
    readonly holder: Holder,
  ) {
    super(
      `another patchsmith process (pid ${String(holder.pid)}) already uses the data folder ${folder}; ` +
        "run one process per folder (set PATCHSMITH_DATA_DIR to another folder, or use the Redis queue to run many)",
    );
    this.name = "DataFolderBusy";
  }
}

const LOCK_FILE = "patchsmith.lock";

function readOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return fallback;
  }
}

/** Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces, so count from its closing paren. */
function startTicksOf(pid: number): string | undefined {
  const stat = readOr(`/proc/${String(pid)}/stat`, "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[19];
}

export function currentHolder(pid = process.pid): Holder {
  return {
    pid,
    bootId: readOr("/proc/sys/kernel/random/boot_id", "unknown"),
    startTicks: startTicksOf(pid) ?? "unknown",
  };
}

/** True while the process that wrote `holder` still runs on this machine. */
export function stillRuns(holder: Holder): boolean {
  const now = currentHolder(holder.pid);
  return now.bootId === holder.bootId && now.startTicks === holder.startTicks;
}

function parseHolder(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (typeof value.pid !== "number" || typeof value.bootId !== "string" || typeof value.startTicks !== "string")
      return undefined;
    return { pid: value.pid, bootId: value.bootId, startTicks: value.startTicks };
  } catch {
    return undefined;
  }
}

async function tryCreate(path: string, holder: Holder): Promise<boolean> {
  try {
    await writeFile(path, JSON.stringify(holder), { flag: "wx", mode: 0o600 });
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
}

/** Takes the data folder (made if missing, mode 0700) for this process, or throws DataFolderBusy naming its holder. */
export async function lockDataFolder(folder: string, holder: Holder = currentHolder()): Promise<DataFolderLock> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, LOCK_FILE);
  const lock: DataFolderLock = {
    async release() {
      // Only our own lock: never one a later process took over.
      const text = await readFile(path, "utf8").catch(() => "");
      if (text === JSON.stringify(holder)) await unlink(path).catch(() => undefined);
    },
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await tryCreate(path, holder)) return lock;
    const text = await readFile(path, "utf8").catch(() => undefined);
    if (text === undefined) continue; // released meanwhile: try again
    const held = parseHolder(text);
    if (held !== undefined && stillRuns(held)) throw new DataFolderBusy(folder, held);
    // A stale lock (or an unreadable one): moved aside under a unique name, then checked to be the one judged
    // stale. If another starter replaced it meanwhile, that fresh lock is put back and this process lets it be.
    const aside = `${path}.stale-${randomUUID()}`;
    try {
      await rename(path, aside);
    } catch (error) {
      if (errorCode(error) === "ENOENT") continue;
      throw error;
    }
    const moved = await readFile(aside, "utf8").catch(() => "");
    if (moved !== text) {
      await rename(aside, path).catch(() => undefined);
      const fresh = parseHolder(moved);
      if (fresh !== undefined) throw new DataFolderBusy(folder, fresh);
      continue;
    }
    await unlink(aside).catch(() => undefined);
  }
  throw new Error(`could not take the lock on the data folder ${folder}: it keeps changing`);
}
