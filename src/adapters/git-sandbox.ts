/** The real GitSandboxFactory: throwaway clones driven through simple-git (see git-exec.ts for the hardening). */
import { appendFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Identity } from "../agent/types.js";
import type { CloneOptions, GitSandboxFactory, PushResult, Sandbox } from "../ports/git-sandbox.js";
import { cloneRepository, removeTree, type ClonedRepo } from "./git-clone.js";
import { assertRev, createGitRunner, GitCommandError, type GitRunner } from "./git-exec.js";
import { commitFiles } from "./git-commit-files.js";
import {
  classifyPushFailure,
  LOG_FORMAT,
  parseGrepLines,
  parseTermMatches,
  parseTreeSizes,
  parseLog,
  parseNulList,
  parseStatusEntries,
  parseStatusZ,
} from "./git-output.js";

export interface GitSandboxFactoryOptions {
  /** The git executable (default `git` on PATH). */
  readonly gitBinary?: string;
}

export function createGitSandboxFactory(options: GitSandboxFactoryOptions = {}): GitSandboxFactory {
  return {
    async clone(cloneOptions: CloneOptions): Promise<Sandbox> {
      return createSandbox(await cloneRepository(cloneOptions, options.gitBinary), options.gitBinary);
    },
  };
}

/** Author and committer both: commits are the bot's, whatever identity the machine's git config has. */
function identityEnv(identity: Identity): Record<string, string> {
  for (const value of [identity.name, identity.email]) {
    if (value.trim() === "" || /[<>\n\r\0]/.test(value)) {
      throw new GitCommandError(`not a usable identity: ${JSON.stringify(identity)}`, "commit");
    }
  }
  return {
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
  };
}

async function assertBranchName(git: GitRunner, name: string): Promise<string> {
  if (name.startsWith("-")) throw new GitCommandError(`not a usable branch name: ${JSON.stringify(name)}`, "branch");
  await git.run(["check-ref-format", "--branch", name]);
  return name;
}

/** A path as a gitignore pattern that matches it alone, from the root (pure). */
export function anchoredPattern(path: string): string {
  return `/${path.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`)}`;
}

function createSandbox(repo: ClonedRepo, gitBinary: string | undefined): Sandbox {
  const { git, dir } = repo;
  // What set-up made: excluded from git's view, and spared by every clean.
  const setupPatterns: string[] = [];
  const head = async (): Promise<string> => (await git.run(["rev-parse", "--verify", "HEAD^{commit}"])).trim();

  /** Untracked files become intent-to-add so that a diff against the working tree shows new files too. */
  const includeUntracked = async (): Promise<void> => {
    const untracked = parseNulList(await git.run(["ls-files", "-z", "--others", "--exclude-standard"]));
    if (untracked.length > 0) await git.run(["add", "--intent-to-add", "--", ...untracked]);
  };

  const push = async (branch: string, lease: string | null): Promise<PushResult> => {
    await assertBranchName(git, branch);
    const ref = `refs/heads/${branch}`;
    if (lease !== null) {
      // A lease alone would still let git overwrite the remote when it sits at `lease` and we do not descend from
      // it (a forced update). We only ever fast-forward: refuse anything else before talking to the remote.
      let descends = false;
      try {
        const leaseSha = (await git.run(["rev-parse", "--verify", `${assertRev(lease)}^{commit}`])).trim();
        descends = (await git.run(["merge-base", leaseSha, ref])).trim() === leaseSha;
      } catch {
        descends = false;
      }
      if (!descends) {
        return {
          ok: false,
          reason: "error",
          message: `refusing to push ${branch}: it does not descend from ${lease}, so the push would rewrite history`,
        };
      }
    }
    try {
      await git.run(["push", "--no-verify", `--force-with-lease=${ref}:${lease ?? ""}`, "origin", `${ref}:${ref}`]);
      return { ok: true };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, reason: classifyPushFailure(message), message };
    }
  };

  return {
    dir,
    baseBranch: repo.baseBranch,
    baseSha: repo.baseSha,
    submodules: repo.submodules,
    async checkoutNewBranch(name) {
      await git.run(["checkout", "--quiet", "-B", await assertBranchName(git, name)]);
    },
    headSha: head,
    async listFiles() {
      return parseNulList(await git.run(["ls-files", "-z"]));
    },
    async termCounts(terms) {
      const wanted = [...new Set(terms.map((t) => t.toLowerCase()).filter((t) => t.trim() !== ""))];
      if (wanted.length === 0) return new Map();
      // One pass for every term: each match printed as `path NUL text`, counted here.
      const patterns = wanted.flatMap((term) => ["-e", term]);
      const output = await git.runGrep([
        "grep",
        "-o",
        "-i",
        "-I",
        "-F",
        "-z",
        "--no-color",
        "-m",
        "200",
        ...patterns,
        "--",
      ]);
      return parseTermMatches(output, new Set(wanted));
    },
    async searchCode(text, limit) {
      if (text.trim() === "") return [];
      const output = await git.runGrep([
        "grep",
        "-n",
        "-z",
        "-I",
        "-F",
        "-i",
        "--no-color",
        "-m",
        "5",
        "-e",
        text,
        "--",
      ]);
      return parseGrepLines(output).slice(0, limit);
    },
    async fileSizes() {
      return parseTreeSizes(await git.run(["ls-tree", "-r", "-l", "-z", "HEAD"]));
    },
    async changedPaths() {
      return parseStatusZ(await git.run(["status", "--porcelain=v1", "-z", "--untracked-files=all"]));
    },
    commitFiles: (files, message, author, modes) => commitFiles(git, dir, files, message, identityEnv(author), modes),
    async discardExcept(keep) {
      // One status for both kinds; nothing more when the tests changed nothing (the usual case).
      const status = () => git.run(["status", "--porcelain=v1", "-z", "--untracked-files=all"]);
      let entries = parseStatusEntries(await status());
      // The index is HEAD's (commits are built in a private one): whatever a test staged is unstaged first, so
      // that an added or renamed path is plain untracked and checkout never meets a path HEAD lacks.
      if (entries.some((e) => e.code[0] !== " " && e.code[0] !== "?")) {
        await git.run(["reset", "--quiet", "HEAD"]);
        entries = parseStatusEntries(await status());
      }
      const others = entries.filter((e) => !keep.has(e.path));
      const restore = others.filter((e) => e.code !== "??").map((e) => e.path);
      if (restore.length > 0) await git.run(["checkout", "HEAD", "--", ...restore]);
      if (others.some((e) => e.code === "??")) {
        // Without -x: ignored build output stays (a Cargo target/ would otherwise be rebuilt every attempt).
        const spared = [...setupPatterns, ...[...keep].map(anchoredPattern)];
        await git.run(["clean", "-ffdq", ...spared.flatMap((p) => ["-e", p])]);
      }
    },
    async resetHard() {
      await git.run(["reset", "--quiet", "--hard", "HEAD"]);
      // -x: ignored build output of a failed attempt must not leak into the next one; -ff: nested repositories too.
      await git.run(["clean", "-ffdxq", ...setupPatterns.flatMap((p) => ["-e", p])]);
    },
    async keepSetupOutput() {
      // A fresh clone has nothing untracked: everything now untracked or ignored is set-up's.
      const kept = parseNulList(await git.run(["ls-files", "-z", "--others", "--directory"]));
      if (kept.length > 0) {
        const patterns = kept.map(anchoredPattern);
        const exclude = join(dir, ".git", "info", "exclude");
        await mkdir(dirname(exclude), { recursive: true });
        await appendFile(exclude, `\n# made by the set-up step (patchsmith)\n${patterns.join("\n")}\n`);
        setupPatterns.push(...patterns);
      }
      const restored = parseNulList(await git.run(["diff", "--name-only", "-z"]));
      if (restored.length > 0) await git.run(["checkout", "HEAD", "--", ...restored]);
      return { kept, restored };
    },
    async diff(from, to) {
      const revs = [assertRev(from)];
      if (to === undefined) await includeUntracked();
      else revs.push(assertRev(to));
      const common = ["diff", "--no-color", "--no-ext-diff", "--no-textconv"];
      const patch = await git.run([...common, ...revs, "--"]);
      const stat = await git.run([...common, "--stat", ...revs, "--"]);
      return { patch, stat };
    },
    async show(rev, path) {
      const spec = `${assertRev(rev)}:${path.replace(/^\.\//, "")}`;
      try {
        if ((await git.run(["cat-file", "-t", spec])).trim() !== "blob") return undefined;
      } catch {
        return undefined;
      }
      return git.run(["cat-file", "blob", spec]);
    },
    async revert(sha, author) {
      const env = identityEnv(author);
      try {
        await git.run(["revert", "--no-edit", assertRev(sha)], env);
      } catch (error) {
        // A conflicting revert leaves the tree mid-revert; put it back before reporting.
        await git.run(["revert", "--abort"]).catch(() => undefined);
        throw error;
      }
      return head();
    },
    async log(range, limit) {
      const max = limit === undefined ? [] : [`--max-count=${String(Math.max(1, Math.floor(limit)))}`];
      return parseLog(await git.run(["log", `--format=${LOG_FORMAT}`, ...max, assertRev(range), "--"]));
    },
    push,
    async branchExistsOnOrigin(name) {
      await assertBranchName(git, name);
      const listing = await git.run(["ls-remote", "--heads", "origin", `refs/heads/${name}`]);
      return listing.trim() !== "";
    },
    async fetchInto(localRepo, branch) {
      await assertBranchName(git, branch);
      const ref = `refs/heads/${branch}`;
      // Run in the caller's repository, with our hardening: it only reads from the clone and writes one ref.
      const target = createGitRunner(localRepo, { ...(gitBinary === undefined ? {} : { gitBinary }) });
      try {
        await target.run([
          "-c",
          `safe.directory=${dir}`,
          "fetch",
          "--quiet",
          "--no-tags",
          "--no-write-fetch-head",
          "--",
          dir,
          `${ref}:${ref}`,
        ]);
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: "error", message: error instanceof Error ? error.message : String(error) };
      }
    },
    async dispose() {
      await removeTree(dir);
    },
  };
}
