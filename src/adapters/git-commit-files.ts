/**
 * A commit made from given bytes, not from the working tree: a private index starts from HEAD's tree, each path
 * gets a blob hashed from the content the engine wrote (through `--path`, so the repository's attributes apply as
 * `git add` would apply them), then a tree, a commit and a compare-and-swap of HEAD. Whatever a test left on disk
 * (lines appended to an edited file, new files, a nested repository) cannot reach the commit.
 */
import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { GitRunner } from "./git-exec.js";

/** Modes a regular file keeps; anything else an edited path had (a symlink, a gitlink) becomes a plain file. */
const FILE_MODES = new Set(["100644", "100755"]);

async function modeAtHead(git: GitRunner, path: string): Promise<string> {
  const listing = await git.run(["ls-tree", "HEAD", "--", path]);
  const mode = /^(\d{6}) /.exec(listing)?.[1];
  return mode !== undefined && FILE_MODES.has(mode) ? mode : "100644";
}

export async function commitFiles(
  git: GitRunner,
  dir: string,
  files: ReadonlyMap<string, string | null>,
  message: string,
  identity: Readonly<Record<string, string>>,
): Promise<string | undefined> {
  const id = randomUUID();
  const index = join(dir, ".git", `patchsmith-index-${id}`);
  const blob = join(dir, ".git", `patchsmith-blob-${id}`);
  const withIndex = { GIT_INDEX_FILE: index };
  try {
    const parent = (await git.run(["rev-parse", "--verify", "HEAD^{commit}"])).trim();
    await git.run(["read-tree", parent], withIndex);
    for (const [path, content] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
      if (content === null) {
        await git.run(["update-index", "--force-remove", "--", path], withIndex);
        continue;
      }
      await writeFile(blob, content);
      const sha = (await git.run(["hash-object", "-w", `--path=${path}`, "--", blob])).trim();
      const mode = await modeAtHead(git, path);
      await git.run(["update-index", "--add", "--cacheinfo", `${mode},${sha},${path}`], withIndex);
    }
    const tree = (await git.run(["write-tree"], withIndex)).trim();
    if (tree === (await git.run(["rev-parse", `${parent}^{tree}`])).trim()) return undefined;
    const commit = (await git.run(["commit-tree", tree, "-p", parent, "-m", message.trim()], identity)).trim();
    await git.run(["update-ref", "-m", "patchsmith: commit", "HEAD", commit, parent]);
    // The real index follows HEAD for these paths, so status shows only what differs from the new commit.
    if (files.size > 0) await git.run(["reset", "--quiet", commit, "--", ...files.keys()]);
    return commit;
  } finally {
    await rm(index, { force: true });
    await rm(blob, { force: true });
  }
}
