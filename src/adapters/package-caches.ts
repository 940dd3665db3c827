/** Package caches under one root folder (the data folder's `cache`, or the user's cache folder for the CLI). */
import { createHash } from "node:crypto";
import { access, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { PackageCaches } from "../ports/package-caches.js";

const WARM_MARKER = ".patchsmith-setup-ok";

/** A folder name for a key: readable, and unique by its hash (two keys that read alike stay apart). Pure. */
export function cacheFolderName(key: string): string {
  const readable = key
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(-60);
  const hash = createHash("sha256").update(key).digest("hex").slice(0, 12);
  return `${readable === "" ? "repo" : readable}-${hash}`;
}

export function createPackageCaches(root: string): PackageCaches {
  return {
    async folderFor(key) {
      const folder = join(root, cacheFolderName(key));
      await mkdir(folder, { recursive: true, mode: 0o700 });
      return folder;
    },
    async find(key) {
      const folder = join(root, cacheFolderName(key));
      try {
        await access(folder);
        return folder;
      } catch {
        return undefined;
      }
    },
    async isWarm(folder) {
      try {
        await access(join(folder, WARM_MARKER));
        return true;
      } catch {
        return false;
      }
    },
    async markWarm(folder) {
      await writeFile(join(folder, WARM_MARKER), `${new Date().toISOString()}\n`);
    },
  };
}
