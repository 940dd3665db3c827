/**
 * The throwaway clone: a fresh temp folder, the token only on the command line of each git call, blobless for
 * remote URLs, and nothing ever run in the caller's repository except git reading it.
 */
import { mkdir, mkdtemp, rm, chmod, readdir, lstat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isRemoteUrl } from "../core/repo-location.js";
import type { CloneOptions, SubmoduleOutcome } from "../ports/git-sandbox.js";
import { createGitRunner, GitCommandError, type GitRunner } from "./git-exec.js";
import { checkOutSubmodules } from "./git-submodules.js";

export interface ClonedRepo {
  readonly dir: string;
  readonly git: GitRunner;
  readonly baseBranch: string;
  readonly baseSha: string;
  readonly submodules: readonly SubmoduleOutcome[];
}

/** `https://host[:port]/`: where the token may go (its own host), or undefined for a local path or SSH. */
export function tokenScopeOf(source: string): string | undefined {
  try {
    const url = new URL(source);
    return /^https?:$/.test(url.protocol) ? `${url.protocol}//${url.host}/` : undefined;
  } catch {
    return undefined;
  }
}

export function cloneArgs(
  source: string,
  dir: string,
  branch: string | undefined,
  blobless: boolean,
  reference: string | undefined,
): string[] {
  const args = ["clone", "--quiet", "--single-branch"];
  // Objects found in the reference are not downloaded; a path that holds no repository is passed over.
  if (reference !== undefined) args.push(`--reference-if-able=${reference}`, "--dissociate");
  else if (blobless) args.push("--filter=blob:none");
  if (branch !== undefined) args.push("--branch", branch);
  // "--" keeps a repo string that starts with "-" from being read as an option.
  args.push("--", source, dir);
  return args;
}

async function emptyFolder(dir: string): Promise<void> {
  await removeTree(dir);
  await mkdir(dir, { recursive: true });
}

async function detectBranch(git: GitRunner): Promise<string> {
  try {
    return (await git.run(["symbolic-ref", "--quiet", "--short", "HEAD"])).trim();
  } catch {
    // A detached remote HEAD: ask the remote what its HEAD points at; otherwise stay on the detached commit.
  }
  try {
    const listing = await git.run(["ls-remote", "--symref", "origin", "HEAD"]);
    const match = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(listing);
    if (match?.[1] !== undefined) return match[1];
  } catch {
    // fall through
  }
  return "HEAD";
}

export async function cloneRepository(options: CloneOptions, gitBinary: string | undefined): Promise<ClonedRepo> {
  const remote = isRemoteUrl(options.repo);
  const source = remote ? options.repo : resolve(options.repo);
  if (options.branch?.startsWith("-") === true) {
    throw new GitCommandError(`not a usable branch name: ${JSON.stringify(options.branch)}`, "clone");
  }
  const dir = await mkdtemp(join(options.tempRoot ?? tmpdir(), "patchsmith-"));
  const reference = options.reference === undefined ? undefined : resolve(options.reference);
  const tokenScope = tokenScopeOf(source);
  const execOptions = {
    ...(gitBinary === undefined ? {} : { gitBinary }),
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(tokenScope === undefined ? {} : { tokenScope }),
  };
  // The clone command runs from the new folder, never from the caller's repository.
  const outer = createGitRunner(dir, execOptions);
  try {
    try {
      await outer.run(cloneArgs(source, dir, options.branch, remote, reference));
    } catch (error) {
      // Blobless needs server support; git usually just ignores the filter, but some servers refuse outright.
      if (!remote || !(error instanceof GitCommandError) || !/filter/i.test(error.message)) throw error;
      await emptyFolder(dir);
      await outer.run(cloneArgs(source, dir, options.branch, false, reference));
    }
    const git = createGitRunner(dir, execOptions);
    const baseBranch = options.branch ?? (await detectBranch(git));
    const baseSha = (await git.run(["rev-parse", "--verify", "HEAD^{commit}"])).trim();
    const submodules = await checkOutSubmodules(git);
    return { dir, git, baseBranch, baseSha, submodules };
  } catch (error) {
    await removeTree(dir);
    throw error;
  }
}

/** rm -rf that also copes with folders a test run made read-only. */
export async function removeTree(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true });
  } catch {
    await makeWritable(dir);
    await rm(dir, { recursive: true, force: true });
  }
}

async function makeWritable(path: string): Promise<void> {
  const stat = await lstat(path).catch(() => undefined);
  if (stat === undefined || !stat.isDirectory()) return;
  await chmod(path, 0o700).catch(() => undefined);
  for (const entry of await readdir(path).catch(() => [])) await makeWritable(join(path, entry));
}
