/**
 * Submodules of the clone, with real git over smart HTTP: checked out after the clone (relative URLs resolve on
 * the origin's server), the token sent to the origin's host only, a local path refused, a failure reported per
 * path and never fatal.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGitSandboxFactory } from "../../../src/adapters/git-sandbox.js";
import { gitlinkPaths, uncheckedSubmodules } from "../../../src/adapters/git-submodules.js";
import { git, writeFiles } from "../../fakes/git-repos.js";
import { startGitHttpServer, type GitHttpServer } from "../../fakes/git-http-server.js";

const TOKEN = "ghs_submoduleTestToken0123456789abcdef";
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "patchsmith-submodules-"));
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** A bare repository at `<root>/<path>` holding the files; returns its HEAD commit. */
function bareRepo(
  root: string,
  path: string,
  files: Record<string, string>,
  links: Record<string, string> = {},
): string {
  const work = join(tempDir(), "work");
  writeFiles(work, files);
  git(work, ["init", "--quiet", "--initial-branch=main"]);
  git(work, ["add", "--all"]);
  for (const [at, sha] of Object.entries(links))
    git(work, ["update-index", "--add", "--cacheinfo", `160000,${sha},${at}`]);
  git(work, ["commit", "--quiet", "-m", "initial"]);
  const bare = join(root, path);
  mkdirSync(bare, { recursive: true });
  git(root, ["clone", "--quiet", "--bare", work, bare]);
  return git(work, ["rev-parse", "HEAD"]).trim();
}

interface Served {
  readonly server: GitHttpServer;
  readonly root: string;
  readonly authorizations: Array<string | undefined>;
}

async function serve(): Promise<Served> {
  const root = tempDir();
  const authorizations: Array<string | undefined> = [];
  const server = await startGitHttpServer({
    projectRoot: root,
    authorize: (authorization) => {
      authorizations.push(authorization);
      return "reader";
    },
  });
  cleanups.push(() => server.close());
  return { server, root, authorizations };
}

describe("submodules of the clone", () => {
  it("checks out a relative and another host's submodule, sending the token to the origin's host only", async () => {
    const origin = await serve();
    const elsewhere = await serve();
    const lib = bareRepo(origin.root, "acme/lib.git", { "lib.txt": "library\n" });
    const ext = bareRepo(elsewhere.root, "other/ext.git", { "ext.txt": "external\n" });
    bareRepo(
      origin.root,
      "acme/app.git",
      {
        "README.md": "# app\n",
        ".gitmodules": [
          '[submodule "lib"]',
          "\tpath = vendor/lib",
          "\turl = ../lib.git",
          '[submodule "ext"]',
          "\tpath = vendor/ext",
          `\turl = ${elsewhere.server.url}/other/ext.git`,
          "",
        ].join("\n"),
      },
      { "vendor/lib": lib, "vendor/ext": ext },
    );

    const sandbox = await createGitSandboxFactory().clone({ repo: `${origin.server.url}/acme/app.git`, token: TOKEN });
    cleanups.push(() => sandbox.dispose());
    expect(sandbox.submodules).toEqual([
      { path: "vendor/ext", ok: true },
      { path: "vendor/lib", ok: true },
    ]);
    expect(readFileSync(join(sandbox.dir, "vendor/lib/lib.txt"), "utf8")).toBe("library\n");
    expect(readFileSync(join(sandbox.dir, "vendor/ext/ext.txt"), "utf8")).toBe("external\n");
    expect(origin.authorizations.filter((a) => a !== undefined).length).toBeGreaterThan(0);
    expect(elsewhere.authorizations.length).toBeGreaterThan(0);
    expect(elsewhere.authorizations.every((a) => a === undefined)).toBe(true);
    // The token is in no file of the clone, submodules' git folders included.
    const files = readdirSync(sandbox.dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      expect(readFileSync(join(file.parentPath, file.name), "latin1")).not.toContain("submoduleTestToken");
    }
  });

  it("refuses a submodule on the local file system, reports it and still clones the rest", async () => {
    const origin = await serve();
    const local = tempDir();
    const secret = bareRepo(local, "private.git", { "secret.txt": "host-only\n" });
    bareRepo(
      origin.root,
      "acme/app.git",
      {
        "README.md": "# app\n",
        ".gitmodules": ['[submodule "p"]', "\tpath = vendor/p", `\turl = ${join(local, "private.git")}`, ""].join("\n"),
      },
      { "vendor/p": secret },
    );
    const sandbox = await createGitSandboxFactory().clone({ repo: `${origin.server.url}/acme/app.git` });
    cleanups.push(() => sandbox.dispose());
    expect(sandbox.submodules).toHaveLength(1);
    expect(sandbox.submodules[0]).toMatchObject({ path: "vendor/p", ok: false });
    expect(sandbox.submodules[0]!.message).toMatch(/transport 'file' not allowed|not allowed/);
    expect(readFileSync(join(sandbox.dir, "README.md"), "utf8")).toBe("# app\n");
  });

  it("reads gitlinks and unchecked submodules from git's output", () => {
    expect(gitlinkPaths("100644 abc 0\tREADME.md\u0000160000 def 0\tvendor/lib\u0000")).toEqual(["vendor/lib"]);
    expect(uncheckedSubmodules("-abc123 vendor/lib\n abc456 vendor/ok (heads/main)\n+abc789 vendor/moved\n")).toEqual([
      "vendor/lib",
    ]);
  });
});
