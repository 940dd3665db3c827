import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGitSandboxFactory } from "../../../src/adapters/git-sandbox.js";
import { cloneArgs } from "../../../src/adapters/git-clone.js";
import { GitCommandError } from "../../../src/adapters/git-exec.js";
import type { Sandbox } from "../../../src/ports/git-sandbox.js";
import {
  commitFile,
  git,
  makeBareRemote,
  makeNodeRepo,
  type BareRemote,
  type TempRepo,
} from "../../fakes/git-repos.js";

const TOKEN = "ghs_abcdefghijklmnopqrstuvwxyz0123456789";
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

async function clone(options: Parameters<typeof factory.clone>[0]): Promise<Sandbox> {
  const sandbox = await factory.clone(options);
  cleanups.push(() => sandbox.dispose());
  return sandbox;
}

function snapshot(dir: string): string {
  return [
    git(dir, ["status", "--porcelain", "--untracked-files=all", "--ignored"]),
    git(dir, ["for-each-ref", "--format=%(refname) %(objectname)"]),
    readFileSync(join(dir, ".git", "config"), "utf8"),
    readdirSync(join(dir, ".git")).sort().join(","),
    readFileSync(join(dir, "src/stats.js"), "utf8"),
  ].join("\n---\n");
}

describe("clone", () => {
  it("clones a local path without changing the caller's repository, and stores no token", async () => {
    const repo = track(makeNodeRepo());
    const before = snapshot(repo.dir);
    const sandbox = await clone({ repo: repo.dir, token: TOKEN });

    expect(sandbox.dir).not.toBe(repo.dir);
    expect(sandbox.dir.startsWith(tmpdir())).toBe(true);
    expect(sandbox.baseBranch).toBe("main");
    expect(sandbox.baseSha).toBe(repo.headSha);
    expect(readFileSync(join(sandbox.dir, "src/stats.js"), "utf8")).toContain(repo.bug?.buggy);
    const config = readFileSync(join(sandbox.dir, ".git", "config"), "utf8");
    expect(config).not.toContain(TOKEN);
    expect(config).not.toContain(Buffer.from(`x-access-token:${TOKEN}`).toString("base64"));
    expect(config).not.toMatch(/extraheader/i);

    await sandbox
      .commitFiles(new Map([["README.md", "changed\n"]]), "change", { name: "bot", email: "bot@example.com" })
      .catch(() => undefined);
    expect(snapshot(repo.dir)).toBe(before);
  });

  it("detects a default branch that is not main, and checks out a named branch", async () => {
    const repo = track(makeNodeRepo({ branch: "trunk" }));
    git(repo.dir, ["checkout", "--quiet", "-b", "feature"]);
    const featureSha = commitFile(repo.dir, "FEATURE.md", "feature\n");
    git(repo.dir, ["checkout", "--quiet", "trunk"]);

    const byDefault = await clone({ repo: repo.dir });
    expect(byDefault.baseBranch).toBe("trunk");
    expect(byDefault.baseSha).toBe(repo.headSha);

    const named = await clone({ repo: repo.dir, branch: "feature" });
    expect(named.baseBranch).toBe("feature");
    expect(named.baseSha).toBe(featureSha);
    expect(existsSync(join(named.dir, "FEATURE.md"))).toBe(true);
  });

  it("clones a file:// URL blobless and still reads old revisions (lazy fetch)", async () => {
    const repo = track(makeNodeRepo());
    commitFile(repo.dir, "src/stats.js", "export const replaced = true;\n");
    const remote = track(makeBareRemote(repo));
    git(remote.dir, ["config", "uploadpack.allowFilter", "true"]);

    const sandbox = await clone({ repo: remote.url, token: TOKEN });
    expect(git(sandbox.dir, ["config", "remote.origin.partialclonefilter"]).trim()).toBe("blob:none");
    expect(readFileSync(join(sandbox.dir, ".git", "config"), "utf8")).not.toContain(TOKEN);
    const old = await sandbox.show(repo.headSha, "src/stats.js");
    expect(old).toContain("export function mean");
  });

  it("borrows the objects of a local checkout, then owns them, and passes over a reference that is no repository", async () => {
    const repo = track(makeNodeRepo());
    commitFile(repo.dir, "src/stats.js", "export const replaced = true;\n");
    const remote = track(makeBareRemote(repo));

    const sandbox = await clone({ repo: remote.url, reference: repo.dir });
    // Dissociated: no alternates left pointing at the checkout, the history complete on its own.
    expect(existsSync(join(sandbox.dir, ".git", "objects", "info", "alternates"))).toBe(false);
    expect(git(sandbox.dir, ["config", "--get-all", "remote.origin.url"]).trim()).toBe(remote.url);
    expect(await sandbox.show(repo.headSha, "src/stats.js")).toContain("export function mean");
    expect(readFileSync(join(sandbox.dir, "src", "stats.js"), "utf8")).toContain("replaced");
    expect(git(sandbox.dir, ["fsck", "--connectivity-only"])).toBe("");

    // What lets it borrow: the reference and the dissociation, instead of the blobless filter.
    expect(cloneArgs(remote.url, "/tmp/x", undefined, true, repo.dir)).toEqual([
      "clone",
      "--quiet",
      "--single-branch",
      `--reference-if-able=${repo.dir}`,
      "--dissociate",
      "--",
      remote.url,
      "/tmp/x",
    ]);
    const elsewhere = await clone({ repo: remote.url, reference: join(tmpdir(), "no-such-checkout") });
    expect(readFileSync(join(elsewhere.dir, "src", "stats.js"), "utf8")).toContain("replaced");
  });

  it("refuses a missing branch, removes its temp folder, and rejects option-like input", async () => {
    const repo = track(makeNodeRepo());
    const tempRoot = mkdtempSync(join(tmpdir(), "patchsmith-root-"));
    cleanups.push(() => {
      rmSync(tempRoot, { recursive: true, force: true });
    });
    await expect(factory.clone({ repo: repo.dir, branch: "no-such-branch", tempRoot })).rejects.toBeInstanceOf(
      GitCommandError,
    );
    await expect(factory.clone({ repo: repo.dir, branch: "--upload-pack=touch /tmp/x", tempRoot })).rejects.toThrow(
      /branch/,
    );
    expect(readdirSync(tempRoot)).toEqual([]);
  });
});

describe("credentials over HTTP", () => {
  let server: Server | undefined;
  afterEach(async () => {
    const running = server;
    if (running !== undefined) {
      await new Promise<void>((resolve) => {
        running.close(() => {
          resolve();
        });
      });
    }
    server = undefined;
  });

  it("sends the token as a Basic header per command and never prints it", async () => {
    const seen: IncomingHttpHeaders[] = [];
    server = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(404).end("not here");
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    // The token in the path makes git's own error message contain it: the adapter must redact it.
    const url = `http://127.0.0.1:${port}/${TOKEN}/repo.git`;

    const error: unknown = await factory.clone({ repo: url, token: TOKEN }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitCommandError);
    const message = (error as Error).message;
    expect(message).toContain("[redacted]");
    expect(message).not.toContain(TOKEN);
    expect(seen.length).toBeGreaterThan(0);
    const expected = `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString("base64")}`;
    expect(seen.every((headers) => headers.authorization === expected)).toBe(true);
  });

  it("keeps the token off git's command line (readable by any local process), in the environment instead", async () => {
    const seen: IncomingHttpHeaders[] = [];
    server = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(404).end("not here");
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const dir = mkdtempSync(join(tmpdir(), "patchsmith-argv-"));
    try {
      // A git that records its arguments, then runs the real one.
      const log = join(dir, "argv.log");
      const wrapper = join(dir, "git");
      writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> ${log}\nexec git "$@"\n`, { mode: 0o755 });
      const wrapped = createGitSandboxFactory({ gitBinary: wrapper });
      await wrapped.clone({ repo: `http://127.0.0.1:${port}/repo.git`, token: TOKEN }).catch(() => undefined);
      const argv = readFileSync(log, "utf8");
      expect(argv).toContain("clone");
      expect(argv).not.toContain(Buffer.from(`x-access-token:${TOKEN}`).toString("base64"));
      expect(argv).not.toContain("extraHeader");
      // ... and the remote still got the header.
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]?.authorization).toBe(`Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString("base64")}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
