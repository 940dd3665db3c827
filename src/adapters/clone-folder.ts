/**
 * The folder the App's clones live in: one per data folder (there is one `serve` process per data folder), under
 * the OS temp dir so the test sandbox's private /tmp covers it. Whatever is in it at start-up was left by a process
 * that died mid-job (kill -9, a crash): it is removed, so killed jobs do not leak clones.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { lockDataFolder } from "./data-folder-lock.js";

export async function prepareCloneFolder(dataDir: string): Promise<string> {
  const id = createHash("sha256").update(resolve(dataDir)).digest("hex").slice(0, 12);
  const folder = join(tmpdir(), `patchsmith-app-${id}`);
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true, mode: 0o700 });
  return folder;
}

/** Removes the folder at a clean shutdown; a failure (something still open in it) only leaves it for the next start. */
export async function removeCloneFolder(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true }).catch(() => undefined);
}

/** A worker's folder is only swept once it is this old: a new one may not have taken its lock yet. */
const SWEEP_AFTER_MS = 60_000;

/**
 * The clone folder of a worker on the shared queue: many workers may run on one machine, so each has a folder of its
 * own, locked for as long as it runs. At start, the folders of workers that died (their lock's holder is gone) are
 * removed; live workers' folders are left alone.
 */
export async function prepareWorkerCloneFolder(): Promise<{ readonly folder: string; close(): Promise<void> }> {
  const root = tmpdir();
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (!name.startsWith("patchsmith-worker-")) continue;
    const path = join(root, name);
    const age = Date.now() - (await stat(path).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
    if (age < SWEEP_AFTER_MS) continue;
    const lock = await lockDataFolder(path).catch(() => undefined);
    if (lock !== undefined) await rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
  const folder = await mkdtemp(join(root, "patchsmith-worker-"));
  const lock = await lockDataFolder(folder);
  return {
    folder,
    async close() {
      await lock.release();
      await removeCloneFolder(folder);
    },
  };
}
