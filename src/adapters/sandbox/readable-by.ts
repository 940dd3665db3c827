/**
 * Whether the sandbox's user can read a host path shown to it: a folder of wheels that only the service's own user
 * may enter (`/root` is 0700) is mounted, but pip inside finds it empty. Mounting cannot change that, so the
 * operator is told where the sandbox is described at start-up.
 */
import { stat } from "node:fs/promises";
import { dirname } from "node:path";

interface Owner {
  readonly uid: number;
  readonly gid: number;
}

const READ = 4;
const SEARCH = 1;

/** The permission bits (rwx) of `mode` that apply to `who` on a path owned by `owner`. Pure. */
export function bitsFor(mode: number, owner: Owner, who: Owner): number {
  if (who.uid === 0) return 7;
  if (owner.uid === who.uid) return (mode >> 6) & 7;
  if (owner.gid === who.gid) return (mode >> 3) & 7;
  return mode & 7;
}

/**
 * The paths of `paths` that `who` cannot read: a file it may not read, a folder it may not list and enter, or one
 * under a folder it may not enter. A path that does not exist is not reported (it is nobody's to read).
 */
export async function unreadableBy(paths: readonly string[], who: Owner): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    try {
      const info = await stat(path);
      const own = bitsFor(info.mode, info, who);
      let readable = info.isDirectory() ? (own & (READ | SEARCH)) === (READ | SEARCH) : (own & READ) === READ;
      for (let folder = dirname(path); readable; folder = dirname(folder)) {
        const above = await stat(folder);
        readable = (bitsFor(above.mode, above, who) & SEARCH) === SEARCH;
        if (folder === dirname(folder)) break;
      }
      if (!readable) out.push(path);
    } catch {
      // Gone, or not ours to stat: nothing the sandbox could read either way; not worth a warning.
    }
  }
  return out;
}
