import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGitSandboxFactory } from "../../../src/adapters/git-sandbox.js";
import type { Sandbox } from "../../../src/ports/git-sandbox.js";
import {
  commitFile,
  git,
  makeBareRemote,
  makeNodeRepo,
  type BareRemote,
  type TempRepo,
} from "../../fakes/git-repos.js";

const BOT = { name: "patchsmith[bot]", email: "123+patchsmith[bot]@users.noreply.github.com" };
const factory = createGitSandboxFactory();

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function track<T extends TempRepo | BareRemote>(thing: T): T {
  cleanups.push(() => {
    thing.cleanup();
  });
  return thing;
}

async function cloneOf(repo: string): Promise<Sandbox> {
  const sandbox = await factory.clone({ repo });
  cleanups.push(() => sandbox.dispose());
  return sandbox;
}

async function nodeSandbox(): Promise<{ repo: TempRepo; sandbox: Sandbox }> {
  const repo = track(makeNodeRepo());
  return { repo, sandbox: await cloneOf(repo.dir) };
}

/** Commits what changed on disk, as the engine's writes would be committed. */
async function commitWorking(sandbox: Sandbox, message: string, author = BOT): Promise<string | undefined> {
  const files = new Map<string, string | null>();
  for (const path of await sandbox.changedPaths()) {
    const full = join(sandbox.dir, path);
    files.set(path, existsSync(full) ? readFileSync(full, "utf8") : null);
  }
  return sandbox.commitFiles(files, message, author);
}

function fixBug(sandbox: Sandbox, repo: TempRepo): void {
  const path = join(sandbox.dir, repo.bug!.path);
  writeFileSync(path, readFileSync(path, "utf8").replace(repo.bug!.buggy, repo.bug!.fixed));
}

describe("working-tree operations", () => {
  it("lists files, reports changes (modified, untracked, deleted) and resets them all", async () => {
    const { repo, sandbox } = await nodeSandbox();
    expect((await sandbox.listFiles()).sort()).toEqual([
      ".gitignore",
      "README.md",
      "package.json",
      "src/stats.js",
      "test/stats.test.js",
    ]);
    expect(await sandbox.changedPaths()).toEqual([]);

    fixBug(sandbox, repo);
    mkdirSync(join(sandbox.dir, "new dir"));
    writeFileSync(join(sandbox.dir, "new dir", "a file.txt"), "x\n");
    unlinkSync(join(sandbox.dir, "README.md"));
    writeFileSync(join(sandbox.dir, "node_modules.log"), "ignored? no\n");
    expect((await sandbox.changedPaths()).sort()).toEqual([
      "README.md",
      "new dir/a file.txt",
      "node_modules.log",
      "src/stats.js",
    ]);

    mkdirSync(join(sandbox.dir, "node_modules"));
    writeFileSync(join(sandbox.dir, "node_modules", "junk.js"), "1\n");
    await sandbox.resetHard();
    expect(await sandbox.changedPaths()).toEqual([]);
    expect(existsSync(join(sandbox.dir, "README.md"))).toBe(true);
    expect(existsSync(join(sandbox.dir, "new dir"))).toBe(false);
    expect(existsSync(join(sandbox.dir, "node_modules"))).toBe(false);
  });

  it("counts each term's occurrences per file, case-insensitively, in one pass", async () => {
    const { sandbox } = await nodeSandbox();
    const counts = await sandbox.termCounts(["mean", "Max", "mean"]);
    // src/stats.js: "mean" in a comment ("Arithmetic mean") and the function name; "max" in its name and Math.max.
    expect(counts.get("src/stats.js")).toEqual(
      new Map([
        ["mean", 2],
        ["max", 2],
      ]),
    );
    expect(counts.get("test/stats.test.js")?.get("mean")).toBe(3);
    expect(counts.has("README.md")).toBe(false);
    expect((await sandbox.termCounts(["meanwhilex", "--version"])).size).toBe(0);
    expect((await sandbox.termCounts([])).size).toBe(0);
    const sizes = await sandbox.fileSizes();
    expect(sizes.get("package.json")).toBe(readFileSync(join(sandbox.dir, "package.json")).length);
  });

  it("diffs the working tree including new files, and two revisions", async () => {
    const { repo, sandbox } = await nodeSandbox();
    fixBug(sandbox, repo);
    writeFileSync(join(sandbox.dir, "NEW.md"), "brand new\n");
    const working = await sandbox.diff(sandbox.baseSha);
    expect(working.patch).toContain(`-${repo.bug!.buggy}`);
    expect(working.patch).toContain(`+${repo.bug!.fixed}`);
    expect(working.patch).toContain("+++ b/NEW.md");
    expect(working.stat).toMatch(/2 files changed/);

    const sha = await commitWorking(sandbox, "Fix mean", BOT);
    const between = await sandbox.diff(sandbox.baseSha, sha);
    expect(between.patch).toBe(working.patch);
    expect(await sandbox.diff(sha!)).toEqual({ patch: "", stat: "" });
  });

  it("shows a file at a revision, undefined when absent", async () => {
    const { repo, sandbox } = await nodeSandbox();
    expect(await sandbox.show("HEAD", "src/stats.js")).toContain(repo.bug!.buggy);
    expect(await sandbox.show("HEAD", "./package.json")).toContain('"tiny-stats"');
    expect(await sandbox.show("HEAD", "missing.js")).toBeUndefined();
    expect(await sandbox.show("HEAD", "src")).toBeUndefined();
    expect(await sandbox.show("0000000000000000000000000000000000000000", "src/stats.js")).toBeUndefined();
    await expect(sandbox.show("--output=/tmp/x", "a")).rejects.toThrow(/revision/);
  });
});

describe("commits", () => {
  it("commits everything as the bot (author and committer), and nothing to commit is undefined", async () => {
    const { repo, sandbox } = await nodeSandbox();
    expect(await commitWorking(sandbox, "Nothing", BOT)).toBeUndefined();
    fixBug(sandbox, repo);
    writeFileSync(join(sandbox.dir, "CHANGELOG.md"), "- fixed mean\n");
    const message = "Fix mean\n\nDivide by the count.\n\nCo-authored-by: Alice <alice@example.com>";
    const sha = await commitWorking(sandbox, message, BOT);
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await sandbox.headSha()).toBe(sha);
    const fields = git(sandbox.dir, ["log", "-1", "--format=%an|%ae|%cn|%ce|%P|%B"]).trimEnd();
    expect(fields).toBe(`${BOT.name}|${BOT.email}|${BOT.name}|${BOT.email}|${repo.headSha}|${message}`);
    expect(await sandbox.changedPaths()).toEqual([]);

    const log = await sandbox.log(`${sandbox.baseSha}..HEAD`);
    expect(log).toEqual([
      {
        sha,
        subject: "Fix mean",
        body: "Divide by the count.\n\nCo-authored-by: Alice <alice@example.com>",
        authorName: BOT.name,
      },
    ]);
    // A limit keeps the newest commits only.
    expect((await sandbox.log("HEAD", 1)).map((c) => c.sha)).toEqual([sha]);
    expect((await sandbox.log("HEAD", 2)).map((c) => c.sha)).toEqual([sha, repo.headSha]);
  });

  it("commits exactly the given bytes: what a test added to the file, new files and a nested repository stay out", async () => {
    const { repo, sandbox } = await nodeSandbox();
    const path = repo.bug!.path;
    const engineWrote = readFileSync(join(sandbox.dir, path), "utf8").replace(repo.bug!.buggy, repo.bug!.fixed);
    // What a hostile test does after the engine wrote the file.
    writeFileSync(join(sandbox.dir, path), `${engineWrote}// appended by a test\n`);
    writeFileSync(join(sandbox.dir, "artifact.log"), "junk\n");
    mkdirSync(join(sandbox.dir, "nested"));
    git(join(sandbox.dir, "nested"), ["init", "--quiet"]);
    writeFileSync(join(sandbox.dir, "nested", "x.txt"), "x\n");
    git(join(sandbox.dir, "nested"), ["add", "x.txt"]);
    git(join(sandbox.dir, "nested"), ["commit", "--quiet", "-m", "nested"]);

    const sha = await sandbox.commitFiles(new Map([[path, engineWrote]]), "Fix mean", BOT);
    expect(git(sandbox.dir, ["show", `${sha!}:${path}`])).toBe(engineWrote);
    expect(git(sandbox.dir, ["diff-tree", "--no-commit-id", "--name-only", "-r", sha!]).trim()).toBe(path);
    // Nothing to change is no commit.
    expect(await sandbox.commitFiles(new Map([[path, engineWrote]]), "again", BOT)).toBeUndefined();

    await sandbox.discardExcept(new Set([path]));
    expect(existsSync(join(sandbox.dir, "artifact.log"))).toBe(false);
    expect(existsSync(join(sandbox.dir, "nested"))).toBe(false);
    // The kept path is the caller's to put back (the loop writes the engine's bytes again).
    expect(readFileSync(join(sandbox.dir, path), "utf8")).toContain("appended by a test");
  });

  it("puts back what a test staged: an added file, a rename and a staged edit", async () => {
    const { sandbox } = await nodeSandbox();
    const tracked = git(sandbox.dir, ["ls-files"]).trim().split("\n");
    const [first, second] = tracked;
    writeFileSync(join(sandbox.dir, "staged-new.txt"), "new\n");
    git(sandbox.dir, ["add", "staged-new.txt"]);
    git(sandbox.dir, ["mv", first!, "renamed.tmp"]);
    writeFileSync(join(sandbox.dir, second!), "staged edit\n");
    git(sandbox.dir, ["add", second!]);

    await sandbox.discardExcept(new Set());
    expect(git(sandbox.dir, ["status", "--porcelain"])).toBe("");
    expect(existsSync(join(sandbox.dir, "staged-new.txt"))).toBe(false);
    expect(existsSync(join(sandbox.dir, "renamed.tmp"))).toBe(false);
    expect(existsSync(join(sandbox.dir, first!))).toBe(true);
  });

  it("keeps the executable bit of an edited script, and deletes a path given as null", async () => {
    const repo = track(makeNodeRepo({ files: { "bin/run.sh": "#!/bin/sh\necho one\n" } }));
    git(repo.dir, ["update-index", "--chmod=+x", "bin/run.sh"]);
    git(repo.dir, ["commit", "--quiet", "-m", "exec"]);
    const sandbox = await cloneOf(repo.dir);
    const sha = await sandbox.commitFiles(
      new Map<string, string | null>([
        ["bin/run.sh", "#!/bin/sh\necho two\n"],
        ["README.md", null],
      ]),
      "Edit",
      BOT,
    );
    expect(git(sandbox.dir, ["ls-tree", sha!, "bin/run.sh"])).toMatch(/^100755 /);
    expect(git(sandbox.dir, ["ls-tree", sha!, "README.md"])).toBe("");
  });

  it("records the executable bit a change sets: a new script, a moved one, one made plain", async () => {
    const repo = track(
      makeNodeRepo({ files: { "bin/old.sh": "#!/bin/sh\necho one\n", "bin/tool.sh": "#!/bin/sh\n" } }),
    );
    git(repo.dir, ["update-index", "--chmod=+x", "bin/old.sh", "bin/tool.sh"]);
    git(repo.dir, ["commit", "--quiet", "-m", "exec"]);
    const sandbox = await cloneOf(repo.dir);
    const sha = await sandbox.commitFiles(
      new Map<string, string | null>([
        ["bin/old.sh", null],
        ["bin/new.sh", "#!/bin/sh\necho one\n"],
        ["bin/made.sh", "#!/bin/sh\n"],
        ["bin/tool.sh", "#!/bin/sh\n"],
        ["notes.txt", "plain\n"],
      ]),
      "Modes",
      BOT,
      new Map([
        ["bin/new.sh", true],
        ["bin/made.sh", true],
        ["bin/tool.sh", false],
      ]),
    );
    const modeOf = (path: string): string => git(sandbox.dir, ["ls-tree", sha!, path]).split(" ")[0]!;
    expect(modeOf("bin/new.sh")).toBe("100755");
    expect(modeOf("bin/made.sh")).toBe("100755");
    expect(modeOf("bin/tool.sh")).toBe("100644");
    expect(modeOf("notes.txt")).toBe("100644");
    // A mode change alone is a change worth a commit.
    const again = await sandbox.commitFiles(
      new Map([["notes.txt", "plain\n"]]),
      "Mode",
      BOT,
      new Map([["notes.txt", true]]),
    );
    expect(again).toBeDefined();
    expect(git(sandbox.dir, ["ls-tree", again!, "notes.txt"]).split(" ")[0]).toBe("100755");
  });

  it("never runs hooks planted in the clone, not even through core.hooksPath", async () => {
    const { repo, sandbox } = await nodeSandbox();
    const marker = join(sandbox.dir, "..", `hook-ran-${process.pid}-${Date.now()}`);
    const hook = `#!/bin/sh\ntouch '${marker}'\n`;
    for (const dir of [join(sandbox.dir, ".git", "hooks"), join(sandbox.dir, "planted-hooks")]) {
      mkdirSync(dir, { recursive: true });
      for (const name of ["pre-commit", "commit-msg", "post-commit", "pre-push", "post-checkout"]) {
        writeFileSync(join(dir, name), hook);
        chmodSync(join(dir, name), 0o755);
      }
    }
    git(sandbox.dir, ["config", "core.hooksPath", "planted-hooks"]);
    fixBug(sandbox, repo);
    await sandbox.checkoutNewBranch("patchsmith/fix-mean");
    await commitWorking(sandbox, "Fix", BOT);
    expect(existsSync(marker)).toBe(false);
    rmSync(marker, { force: true });
  });

  it("reverts a commit as the bot", async () => {
    const { repo, sandbox } = await nodeSandbox();
    fixBug(sandbox, repo);
    const fix = await commitWorking(sandbox, "Fix mean", BOT);
    const revert = await sandbox.revert(fix!, BOT);
    expect(await sandbox.headSha()).toBe(revert);
    expect(readFileSync(join(sandbox.dir, repo.bug!.path), "utf8")).toContain(repo.bug!.buggy);
    const [latest] = await sandbox.log("HEAD~1..HEAD");
    expect(latest?.subject).toBe('Revert "Fix mean"');
    expect(latest?.body).toContain(`This reverts commit ${fix!}.`);
    expect(git(sandbox.dir, ["log", "-1", "--format=%an|%cn"]).trim()).toBe(`${BOT.name}|${BOT.name}`);
  });

  it("creates or resets a branch, and refuses bad names", async () => {
    const { sandbox } = await nodeSandbox();
    await sandbox.checkoutNewBranch("patchsmith/issue-7");
    expect(git(sandbox.dir, ["symbolic-ref", "--short", "HEAD"]).trim()).toBe("patchsmith/issue-7");
    await sandbox.checkoutNewBranch("patchsmith/issue-7");
    await expect(sandbox.checkoutNewBranch("bad..name")).rejects.toThrow();
    await expect(sandbox.checkoutNewBranch("-f")).rejects.toThrow(/branch name/);
  });
});

describe("push", () => {
  async function remoteSandbox(): Promise<{ repo: TempRepo; remote: BareRemote; sandbox: Sandbox }> {
    const repo = track(makeNodeRepo());
    const remote = track(makeBareRemote(repo));
    return { repo, remote, sandbox: await cloneOf(remote.url) };
  }
  const remoteSha = (remote: BareRemote, branch: string): string =>
    git(remote.dir, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]).trim();

  it("pushes a new branch with a null lease, and refuses when it already exists", async () => {
    const { repo, remote, sandbox } = await remoteSandbox();
    await sandbox.checkoutNewBranch("patchsmith/fix");
    fixBug(sandbox, repo);
    const sha = await commitWorking(sandbox, "Fix", BOT);
    expect(await sandbox.push("patchsmith/fix", null)).toEqual({ ok: true });
    expect(remoteSha(remote, "patchsmith/fix")).toBe(sha);

    // Pushing exactly what is already there is a no-op git reports as up to date; anything new must be refused.
    expect(await sandbox.push("patchsmith/fix", null)).toEqual({ ok: true });
    writeFileSync(join(sandbox.dir, "MORE.md"), "more\n");
    await commitWorking(sandbox, "More", BOT);
    const again = await sandbox.push("patchsmith/fix", null);
    expect(again).toMatchObject({ ok: false, reason: "rejected-stale" });
    expect(remoteSha(remote, "patchsmith/fix")).toBe(sha);
  });

  it("pushes with a correct lease, and a stale lease is rejected without touching the remote", async () => {
    const { repo, remote, sandbox } = await remoteSandbox();
    fixBug(sandbox, repo);
    const mine = await commitWorking(sandbox, "Fix", BOT);
    expect(await sandbox.push("main", sandbox.baseSha)).toEqual({ ok: true });
    expect(remoteSha(remote, "main")).toBe(mine);

    // Someone else pushes meanwhile; our next push still leases on the SHA we read before.
    const other = await cloneOf(remote.url);
    writeFileSync(join(other.dir, "OTHER.md"), "other\n");
    const theirs = await commitWorking(other, "Other", BOT);
    expect(await other.push("main", mine!)).toEqual({ ok: true });

    writeFileSync(join(sandbox.dir, "MINE.md"), "mine\n");
    await commitWorking(sandbox, "Mine", BOT);
    const stale = await sandbox.push("main", mine!);
    expect(stale).toMatchObject({ ok: false, reason: "rejected-stale" });
    expect(stale.message).toContain("stale info");
    expect(remoteSha(remote, "main")).toBe(theirs);
  });

  it("never forces: a lease the branch does not descend from is refused before pushing", async () => {
    const { remote, sandbox } = await remoteSandbox();
    const other = await cloneOf(remote.url);
    writeFileSync(join(other.dir, "OTHER.md"), "other\n");
    const theirs = await commitWorking(other, "Other", BOT);
    expect(await other.push("main", other.baseSha)).toEqual({ ok: true });
    git(sandbox.dir, ["fetch", "--quiet", "origin", "main"]);

    writeFileSync(join(sandbox.dir, "MINE.md"), "mine\n");
    await commitWorking(sandbox, "Mine", BOT);
    // The lease matches the remote exactly, so git alone would force-update it: the adapter must refuse.
    const result = await sandbox.push("main", theirs!);
    expect(result).toMatchObject({ ok: false, reason: "error" });
    expect(result.message).toMatch(/rewrite history/);
    expect(remoteSha(remote, "main")).toBe(theirs);
  });

  it("reports a refused push to a non-bare origin's checked-out branch as an error", async () => {
    const repo = track(makeNodeRepo());
    const sandbox = await cloneOf(repo.dir);
    fixBug(sandbox, repo);
    await commitWorking(sandbox, "Fix", BOT);
    const result = await sandbox.push("main", repo.headSha);
    expect(result).toMatchObject({ ok: false, reason: "error" });
    expect(git(repo.dir, ["rev-parse", "HEAD"]).trim()).toBe(repo.headSha);
    commitFile(repo.dir, "x.md", "x\n");
  });
});
