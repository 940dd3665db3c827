/**
 * An in-memory git sandbox: a working tree (a Map), commits with full snapshots, and the WorkTree the engine
 * writes through. Enough git for the loop's decisions, none of git's cost.
 */
import { createTwoFilesPatch } from "diff";
import type { FileState } from "../../../src/apply/snapshot.js";
import type { WorkTree, WriteResult } from "../../../src/agent/deps.js";
import type { Identity } from "../../../src/agent/types.js";
import type {
  CloneOptions,
  GitSandboxFactory,
  PushResult,
  Sandbox,
  SubmoduleOutcome,
} from "../../../src/ports/git-sandbox.js";

type Files = Map<string, string>;

export interface MemoryCommit {
  readonly sha: string;
  readonly parent: string | undefined;
  readonly message: string;
  readonly author: Identity;
  readonly files: ReadonlyMap<string, string>;
}

export interface MemoryPush {
  readonly branch: string;
  readonly lease: string | null;
  readonly head: string;
}

export class MemorySandbox implements Sandbox {
  readonly baseBranch: string;
  readonly baseSha: string;
  readonly submodules: SubmoduleOutcome[] = [];
  readonly work: Files;
  readonly commits = new Map<string, MemoryCommit>();
  branch: string;
  head: string;
  disposed = false;
  readonly pushes: MemoryPush[] = [];
  private counter = 0;

  constructor(
    readonly dir: string,
    files: ReadonlyMap<string, string>,
    branch: string,
    private readonly remote: { branches: Map<string, string>; pushResult?: PushResult },
    message = "initial",
  ) {
    this.baseBranch = branch;
    this.branch = branch;
    const root: MemoryCommit = {
      sha: this.nextSha(),
      parent: undefined,
      message,
      author: { name: "x", email: "x@y" },
      files: new Map(files),
    };
    this.commits.set(root.sha, root);
    this.baseSha = root.sha;
    this.head = root.sha;
    this.work = new Map(files);
  }

  private nextSha(): string {
    this.counter++;
    return `${this.dir.length.toString(16)}${this.counter.toString(16)}`.padEnd(40, "0");
  }

  private filesAt(rev: string): ReadonlyMap<string, string> {
    const sha = rev === "HEAD" ? this.head : rev;
    const commit = this.commits.get(sha);
    if (!commit) throw new Error(`unknown revision ${rev}`);
    return commit.files;
  }

  checkoutNewBranch(name: string): Promise<void> {
    this.branch = name;
    return Promise.resolve();
  }
  headSha(): Promise<string> {
    return Promise.resolve(this.head);
  }
  listFiles(): Promise<string[]> {
    return Promise.resolve([...this.filesAt("HEAD").keys()].sort());
  }
  termCounts(terms: readonly string[]): Promise<Map<string, Map<string, number>>> {
    const counts = new Map<string, Map<string, number>>();
    for (const [path, content] of this.work) {
      const lower = content.toLowerCase();
      for (const term of terms) {
        const count = lower.split(term.toLowerCase()).length - 1;
        if (count === 0) continue;
        let perFile = counts.get(path);
        if (perFile === undefined) counts.set(path, (perFile = new Map<string, number>()));
        perFile.set(term.toLowerCase(), count);
      }
    }
    return Promise.resolve(counts);
  }
  searchCode(text: string, limit: number): Promise<Array<{ path: string; line: number; text: string }>> {
    const found: Array<{ path: string; line: number; text: string }> = [];
    for (const [path, content] of [...this.work].sort(([a], [b]) => a.localeCompare(b))) {
      content.split("\n").forEach((line, i) => {
        if (line.toLowerCase().includes(text.toLowerCase())) found.push({ path, line: i + 1, text: line });
      });
    }
    return Promise.resolve(found.slice(0, limit));
  }
  fileSizes(): Promise<Map<string, number>> {
    return Promise.resolve(new Map([...this.filesAt("HEAD")].map(([p, c]) => [p, Buffer.byteLength(c)])));
  }
  changedPaths(): Promise<string[]> {
    const head = this.filesAt("HEAD");
    const paths = new Set([...head.keys(), ...this.work.keys()]);
    return Promise.resolve([...paths].filter((p) => head.get(p) !== this.work.get(p)).sort());
  }
  /** Like git's: the commit holds HEAD plus exactly `files`, whatever the working tree holds. */
  commitFiles(
    files: ReadonlyMap<string, string | null>,
    message: string,
    author: Identity,
  ): Promise<string | undefined> {
    const next = new Map(this.filesAt("HEAD"));
    for (const [path, content] of files) {
      if (content === null) next.delete(path);
      else next.set(path, content);
    }
    const head = this.filesAt("HEAD");
    const same = next.size === head.size && [...next].every(([p, c]) => head.get(p) === c);
    if (same) return Promise.resolve(undefined);
    const commit: MemoryCommit = { sha: this.nextSha(), parent: this.head, message, author, files: next };
    this.commits.set(commit.sha, commit);
    this.head = commit.sha;
    return Promise.resolve(commit.sha);
  }
  discardExcept(keep: ReadonlySet<string>): Promise<void> {
    const head = this.filesAt("HEAD");
    for (const path of [...this.work.keys()]) if (!keep.has(path) && !head.has(path)) this.work.delete(path);
    for (const [path, content] of head) if (!keep.has(path)) this.work.set(path, content);
    return Promise.resolve();
  }
  resetHard(): Promise<void> {
    this.work.clear();
    for (const [p, c] of this.filesAt("HEAD")) this.work.set(p, c);
    return Promise.resolve();
  }
  keepSetupOutput(): Promise<{ kept: string[]; restored: string[] }> {
    return Promise.resolve({ kept: [], restored: [] });
  }
  diff(from: string, to?: string): Promise<{ patch: string; stat: string }> {
    const a = this.filesAt(from);
    const b = to === undefined ? this.work : this.filesAt(to);
    const paths = [...new Set([...a.keys(), ...b.keys()])].filter((p) => a.get(p) !== b.get(p)).sort();
    const patch = paths.map((p) => createTwoFilesPatch(`a/${p}`, `b/${p}`, a.get(p) ?? "", b.get(p) ?? "")).join("");
    const stat = paths.map((p) => ` ${p} | changed`).join("\n");
    return Promise.resolve({ patch, stat });
  }
  show(rev: string, path: string): Promise<string | undefined> {
    return Promise.resolve(this.filesAt(rev).get(path));
  }
  revert(): Promise<string> {
    return Promise.reject(new Error("not used by the fix loop"));
  }
  async log(range: string, limit = Infinity) {
    const [from, to] = range.split("..");
    const out: Array<{ sha: string; subject: string; body: string; authorName: string }> = [];
    let sha: string | undefined = to === undefined || to === "" || to === "HEAD" ? this.head : to;
    while (sha !== undefined && sha !== from && out.length < limit) {
      const commit: MemoryCommit = this.commits.get(sha)!;
      const [subject = "", ...body] = commit.message.split("\n");
      out.push({ sha, subject, body: body.join("\n").trim(), authorName: commit.author.name });
      sha = commit.parent;
    }
    return Promise.resolve(out);
  }
  push(branch: string, lease: string | null): Promise<PushResult> {
    this.pushes.push({ branch, lease, head: this.head });
    if (this.remote.pushResult) return Promise.resolve(this.remote.pushResult);
    const current = this.remote.branches.get(branch) ?? null;
    if (current !== lease) return Promise.resolve({ ok: false, reason: "rejected-stale", message: "stale info" });
    this.remote.branches.set(branch, this.head);
    return Promise.resolve({ ok: true });
  }
  readonly fetched: Array<{ readonly localRepo: string; readonly branch: string; readonly head: string }> = [];
  branchExistsOnOrigin(name: string): Promise<boolean> {
    return Promise.resolve(this.remote.branches.has(name));
  }
  fetchInto(localRepo: string, branch: string): Promise<PushResult> {
    this.fetched.push({ localRepo, branch, head: this.head });
    return Promise.resolve({ ok: true });
  }
  dispose(): Promise<void> {
    this.disposed = true;
    return Promise.resolve();
  }

  /** The engine's view of the working tree. */
  tree(): WorkTree {
    return {
      read: (path): Promise<FileState> => {
        const content = this.work.get(path);
        return Promise.resolve(content === undefined ? { kind: "missing" } : { kind: "text", content });
      },
      commit: (writes): Promise<WriteResult> => {
        for (const [path, content] of writes) {
          if (content === null) this.work.delete(path);
          else this.work.set(path, content);
        }
        return Promise.resolve({ ok: true, written: [...writes.keys()] });
      },
    };
  }
}

/** Clones of one in-memory repository; remembers every sandbox it handed out. */
export class MemoryGitFactory implements GitSandboxFactory {
  readonly sandboxes: MemorySandbox[] = [];
  readonly remote: { branches: Map<string, string>; pushResult?: PushResult } = { branches: new Map() };
  failClone: Error | undefined;
  /** The message of the commit every clone starts at. */
  headMessage = "initial";
  /** What every clone reports of its submodules. */
  submodules: SubmoduleOutcome[] = [];

  constructor(
    private readonly files: Readonly<Record<string, string>>,
    private readonly defaultBranch = "main",
  ) {}

  clone(options: CloneOptions): Promise<Sandbox> {
    if (this.failClone) return Promise.reject(this.failClone);
    const sandbox = new MemorySandbox(
      `/memory/clone-${this.sandboxes.length + 1}`,
      new Map(Object.entries(this.files)),
      options.branch ?? this.defaultBranch,
      this.remote,
      this.headMessage,
    );
    if (!this.remote.branches.has(sandbox.baseBranch)) this.remote.branches.set(sandbox.baseBranch, sandbox.baseSha);
    sandbox.submodules.push(...this.submodules);
    this.sandboxes.push(sandbox);
    return Promise.resolve(sandbox);
  }

  get last(): MemorySandbox {
    const last = this.sandboxes[this.sandboxes.length - 1];
    if (!last) throw new Error("no clone yet");
    return last;
  }

  /** For FixDeps.files. */
  readonly workTree = (dir: string): WorkTree => {
    const sandbox = this.sandboxes.find((s) => s.dir === dir);
    if (!sandbox) throw new Error(`no sandbox at ${dir}`);
    return sandbox.tree();
  };
}
