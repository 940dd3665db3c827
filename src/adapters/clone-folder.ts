/**
 * The folder the App's clones live in: one per data folder (there is one `serve` process per data folder), under
 * the OS temp dir so the test sandbox's private /tmp covers it. Whatever is in it at start-up was left by a process
 * that died mid-job (kill -9, a crash): it is removed, so killed jobs do not leak clones.
 */
import { createHash } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

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
