/**
 * The disk a sandboxed run writes: the clone (and, during set-up, the package cache; and the file its output goes
 * to) lives on the service's own volume, where its job store and delivery journal are too, and no mount option bounds what a test suite writes
 * there. So the free space of those volumes is watched while the run goes on (polled with the CPU time, four
 * times a second): a run that takes more than its share, or leaves too little for the service, is stopped like
 * one that ran out of memory, and the clone it filled is removed with the job.
 */
import { stat, statfs } from "node:fs/promises";

/** What a volume has free: bytes an unprivileged writer may still use, and files (inodes; 0 where not counted). */
export interface FreeSpace {
  readonly bytes: number;
  readonly files: number;
  readonly filesTotal: number;
}

/** What a run must leave free for the service: this much, or half of what there was when it started if less. */
export const DISK_RESERVE_BYTES = 1024 ** 3;
export const FILES_RESERVE = 100_000;

/**
 * Whether a run has taken too much of a volume (pure): more than `diskBytes` of its free space since it started,
 * or so much that less than the reserve is left (a volume already short of it at the start keeps half of what it
 * had, so a nearly full machine still runs small suites). Files count the same way, where the volume counts them.
 */
export function diskExhausted(start: FreeSpace, now: FreeSpace, diskBytes: number): boolean {
  if (start.bytes - now.bytes > diskBytes) return true;
  if (now.bytes < Math.min(DISK_RESERVE_BYTES, start.bytes / 2)) return true;
  return start.filesTotal > 0 && now.files < Math.min(FILES_RESERVE, start.files / 2);
}

async function freeSpace(path: string): Promise<FreeSpace> {
  const info = await statfs(path);
  return { bytes: info.bavail * info.bsize, files: info.ffree, filesTotal: info.files };
}

export interface DiskWatch {
  /** True once a watched volume has been taken too much of. */
  readonly exhausted: () => Promise<boolean>;
}

/** Watches the volumes holding `paths` (each volume once), from now on. */
export async function watchDisk(paths: readonly string[], diskBytes: number): Promise<DiskWatch> {
  const volumes = new Map<number, { path: string; start: FreeSpace }>();
  for (const path of paths) {
    const { dev } = await stat(path);
    if (!volumes.has(dev)) volumes.set(dev, { path, start: await freeSpace(path) });
  }
  return {
    exhausted: async () => {
      for (const { path, start } of volumes.values()) {
        // A volume that cannot be asked any more (the run removed the folder) tells nothing.
        const now = await freeSpace(path).catch(() => undefined);
        if (now !== undefined && diskExhausted(start, now, diskBytes)) return true;
      }
      return false;
    },
  };
}
