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

/** The modes of `paths` at `rev` (one `ls-tree` for all of them). */
async function modesAt(git: GitRunner, rev: string, paths: readonly string[]): Promise<Map<string, string>> {
  const modes = new Map<string, string>();
  if (paths.length === 0) return modes;
  for (const entry of (await git.run(["ls-tree", "-z", rev, "--", ...paths])).split("\0")) {
    const match = /^(\d{6}) \S+ \S+\t(.+)$/s.exec(entry);
    if (match?.[1] !== undefined && match[2] !== undefined && FILE_MODES.has(match[1])) modes.set(match[2], match[1]);
  }
  return modes;
}

export async function commitFiles(
  git: GitRunner,
  dir: string,
  files: ReadonlyMap<string, string | null>,
  message: string,
  identity: Readonly<Record<string, string>>,
  executable: ReadonlyMap<string, boolean> = new Map(),
): Promise<string | undefined> {
  const id = randomUUID();
  const index = join(dir, ".git", `patchsmith-index-${id}`);
  const blob = join(dir, ".git", `patchsmith-blob-${id}`);
  const withIndex = { GIT_INDEX_FILE: index };
  try {
    const [parent = "", parentTree = ""] = (await git.run(["rev-parse", "HEAD^{commit}", "HEAD^{tree}"]))
      .trim()
      .split("\n");
    await git.run(["read-tree", parent], withIndex);
    const sorted = [...files].sort(([a], [b]) => a.localeCompare(b));
    const modes = await modesAt(
      git,
      parent,
      sorted.map(([path]) => path),
    );
    const removed = sorted.filter(([, content]) => content === null).map(([path]) => path);
    if (removed.length > 0) await git.run(["update-index", "--force-remove", "--", ...removed], withIndex);
    const entries: string[] = [];
    for (const [path, content] of sorted) {
      if (content === null) continue;
      await writeFile(blob, content);
      const sha = (await git.run(["hash-object", "-w", `--path=${path}`, "--", blob])).trim();
      const set = executable.get(path);
      const mode = set === undefined ? (modes.get(path) ?? "100644") : set ? "100755" : "100644";
      entries.push("--cacheinfo", `${mode},${sha},${path}`);
    }
    if (entries.length > 0) await git.run(["update-index", "--add", ...entries], withIndex);
    const tree = (await git.run(["write-tree"], withIndex)).trim();
    if (tree === parentTree) return undefined;
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
