/**
 * Under a root service the sandbox user is another uid: before each run it is given the clone's working tree (not
 * `.git`, which stays root's and is mounted read-only), so tests can write where they always do. Only entries it
 * does not own yet are changed: after the first run that is what patchsmith wrote or git restored since.
 */
import { lchown, lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

const BATCH = 64;

async function walk(dir: string, uid: number, gid: number, skipTop: string | undefined): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const todo = entries.filter((entry) => entry.name !== skipTop);
  for (let i = 0; i < todo.length; i += BATCH) {
    await Promise.all(
      todo.slice(i, i + BATCH).map(async (entry) => {
        const path = join(dir, entry.name);
        const info = await lstat(path).catch(() => undefined);
        if (info === undefined) return;
        if (info.uid !== uid || info.gid !== gid) await lchown(path, uid, gid).catch(() => undefined);
        if (entry.isDirectory()) await walk(path, uid, gid, undefined);
      }),
    );
  }
}

/** Gives `root` (and everything under it but `root/.git`, unless `withGit`) to uid:gid. */
export async function handOver(root: string, uid: number, gid: number, withGit = false): Promise<void> {
  const info = await lstat(root);
  if (info.uid !== uid || info.gid !== gid) await lchown(root, uid, gid);
  await walk(root, uid, gid, withGit ? undefined : ".git");
}
