/**
 * Durable file primitives: a new file is complete and fsync'd before it is renamed or linked into place, and the
 * folder is synced after, so a reader never sees half a file and a rename survives power loss.
 */
import { open, unlink } from "node:fs/promises";
import { errorCode } from "./errno.js";

/** Files hold job payloads and dedupe facts: only the service's own user reads them. */
export const FILE_MODE = 0o600;

/** Makes a rename or link inside `dir` survive power loss (kill -9 alone does not need it). */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes and fsyncs a new file; the caller renames or links it into place, so readers never see it half-written. */
export async function writeSynced(file: string, content: string): Promise<void> {
  const handle = await open(file, "wx", FILE_MODE);
  try {
    await handle.writeFile(content, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function removeIfPresent(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
}
