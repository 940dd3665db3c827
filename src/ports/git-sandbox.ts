/**
 * A throwaway clone the fix loop works in. The only way the agent touches git.
 * Implemented over simple-git in adapters/git-sandbox.ts; tokens are passed per command, never stored.
 */
/** A commit's author or committer. */
export interface Identity {
  readonly name: string;
  readonly email: string;
}

export interface CloneOptions {
  /** A local path or a clone URL. */
  readonly repo: string;
  /** Branch to check out; default: the remote's default branch. */
  readonly branch?: string;
  /** Token for HTTP remotes (sent as an Authorization header per command). */
  readonly token?: string;
  /** Parent folder for the temporary clone (default: the OS temp dir). */
  readonly tempRoot?: string;
  /**
   * A local repository whose objects the clone borrows instead of downloading them (a workflow's own checkout); the
   * clone stays a clone of `repo`, and copies what it borrowed so it does not depend on the other one afterwards.
   */
  readonly reference?: string;
}

export interface PushResult {
  readonly ok: boolean;
  /** "rejected-stale" when the remote moved (lease failed); "error" otherwise. */
  readonly reason?: "rejected-stale" | "error";
  readonly message?: string;
}

export interface SubmoduleOutcome {
  readonly path: string;
  readonly ok: boolean;
  /** Why it could not be checked out (git's message, redacted). */
  readonly message?: string;
}

export interface Sandbox {
  /** Absolute path of the clone's working tree. */
  readonly dir: string;
  /** The branch that was checked out and its SHA at clone time. */
  readonly baseBranch: string;
  readonly baseSha: string;
  /** The submodules at clone time, checked out or not. */
  readonly submodules: readonly SubmoduleOutcome[];
  /** Create (or reset to HEAD) a local branch and switch to it. */
  checkoutNewBranch(name: string): Promise<void>;
  headSha(): Promise<string>;
  /** Tracked files, relative, forward slashes (`git ls-files`). */
  listFiles(): Promise<string[]>;
  /**
   * How often each term occurs in each tracked text file (case-insensitive, as a substring, lower-cased terms;
   * at most a few hundred matching lines a file), for the lexical ranking. Files without any are absent.
   */
  termCounts(terms: readonly string[]): Promise<Map<string, Map<string, number>>>;
  /** Bytes of each tracked file at HEAD. */
  fileSizes(): Promise<Map<string, number>>;
  /** Lines of tracked text files holding `text` (case-insensitive), at most `limit`: where the model asked to look. */
  searchCode(
    text: string,
    limit: number,
  ): Promise<Array<{ readonly path: string; readonly line: number; readonly text: string }>>;
  /** Paths changed in the working tree (added, modified, deleted, renamed) relative to HEAD. */
  changedPaths(): Promise<string[]>;
  /**
   * Commits exactly these contents (null: delete) on top of HEAD, with the given author, whatever the working tree
   * holds (a test may have changed an edited file, or made files and nested repositories next to it): the commit
   * is built from the given bytes, never from the disk. Returns the new SHA, or undefined when nothing changes.
   */
  commitFiles(
    files: ReadonlyMap<string, string | null>,
    message: string,
    author: Identity,
    /** Per path of `files` whose executable bit the change sets; the others keep HEAD's mode (new ones 100644). */
    modes?: ReadonlyMap<string, boolean>,
  ): Promise<string | undefined>;
  /**
   * Puts the working tree back to HEAD everywhere but `keep` (and what set-up made): tracked files others changed are
   * restored, untracked files and nested repositories removed. Ignored files (build output) stay.
   */
  discardExcept(keep: ReadonlySet<string>): Promise<void>;
  /** Discard working-tree changes (back to HEAD), including untracked files, but not what set-up made. */
  resetHard(): Promise<void>;
  /**
   * After set-up: what it left in the working tree (dependencies, a virtual environment, build output) stays out of
   * git's sight from now on — never shown as changed, never committed, never cleaned — and tracked files it changed
   * are put back, so the tests check the repository as committed.
   */
  keepSetupOutput(): Promise<{ readonly kept: readonly string[]; readonly restored: readonly string[] }>;
  /** `git diff` and `git diff --stat` between two revisions (or rev..working tree when `to` is undefined). */
  diff(from: string, to?: string): Promise<{ readonly patch: string; readonly stat: string }>;
  /** File content at a revision, or undefined when absent. */
  show(rev: string, path: string): Promise<string | undefined>;
  /** Revert a commit with a new commit by `author`; returns the new SHA. */
  revert(sha: string, author: Identity): Promise<string>;
  /** Commit log of a range, newest first; at most `limit` commits when given. */
  log(
    range: string,
    limit?: number,
  ): Promise<
    Array<{ readonly sha: string; readonly subject: string; readonly body: string; readonly authorName: string }>
  >;
  /** Whether the origin has a branch of this name. */
  branchExistsOnOrigin(name: string): Promise<boolean>;
  /**
   * Fetches `branch` into the local repository the clone was made from (its refs only: working tree, index and HEAD
   * stay as they are). Never forced: an existing branch there must be an ancestor.
   */
  fetchInto(localRepo: string, branch: string): Promise<PushResult>;
  /** Push `branch` to origin with a lease on `expectedRemoteSha` (null: must not exist). Never forced. */
  push(branch: string, expectedRemoteSha: string | null): Promise<PushResult>;
  /** Remove the clone. */
  dispose(): Promise<void>;
}

export interface GitSandboxFactory {
  clone(options: CloneOptions): Promise<Sandbox>;
}
