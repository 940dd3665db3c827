/** Runs the built CLI (`node dist/cli.js apply`) as a real process against temp trees. */
import { spawnSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILT_CLI } from "../global-build.js";

const cli = BUILT_CLI;

let dir: string;
let root: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "patchsmith-e2e-apply-"));
  root = path.join(dir, "root");
  await mkdir(path.join(root, "src"), { recursive: true });
  await writeFile(path.join(root, "src/math.ts"), "export function add(a: number, b: number) {\n  return a - b;\n}\n");
  await writeFile(path.join(root, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const apply = (args: string[], input?: string) => {
  const result = spawnSync(process.execPath, [cli, "apply", ...args], {
    cwd: dir,
    input: input ?? "",
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

const block = (file: string, search: string, replace: string) =>
  `${file}\n\`\`\`ts\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;
const GOOD = `Fix the sign:\n\n${block("src/math.ts", "  return a - b;", "  return a + b;")}`;
const BAD = block("src/math.ts", "  return a * b;", "  return 0;");

/** Real git in the tree under test; returns what it prints. */
const git = (...args: string[]) =>
  spawnSync("git", ["-c", "user.name=A", "-c", "user.email=a@example.com", ...args], {
    cwd: root,
    encoding: "utf8",
  }).stdout;

const replyFile = async (content: string) => {
  const file = path.join(dir, "reply.md");
  await writeFile(file, content);
  return file;
};
const math = () => readFile(path.join(root, "src/math.ts"), "utf8");
const ORIGINAL = "export function add(a: number, b: number) {\n  return a - b;\n}\n";

describe("patchsmith apply (built CLI)", () => {
  it("applies a reply, shows the diff and exits 0", async () => {
    const run = apply(["--root", root, await replyFile(GOOD)]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("✓ src/math.ts  exact");
    expect(run.stdout).toContain("-  return a - b;\n+  return a + b;");
    expect(run.stdout).not.toContain("\u001b[");
    expect(await math()).toBe(ORIGINAL.replace("a - b", "a + b"));
  });

  it("applies a git diff's modes: a new script executable, a moved script still so, a mode change alone", async () => {
    await mkdir(path.join(root, "bin"));
    await writeFile(path.join(root, "bin/old.sh"), "#!/bin/sh\n");
    await chmod(path.join(root, "bin/old.sh"), 0o755);
    await writeFile(path.join(root, "bin/tool.sh"), "#!/bin/sh\n");
    const diff = [
      "```diff",
      "diff --git a/bin/old.sh b/bin/new.sh",
      "similarity index 100%",
      "rename from bin/old.sh",
      "rename to bin/new.sh",
      "diff --git a/bin/tool.sh b/bin/tool.sh",
      "old mode 100644",
      "new mode 100755",
      "diff --git a/bin/made.sh b/bin/made.sh",
      "new file mode 100755",
      "--- /dev/null",
      "+++ b/bin/made.sh",
      "@@ -0,0 +1 @@",
      "+#!/bin/sh",
      "```",
    ].join("\n");
    const run = apply(["--root", root, await replyFile(diff)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("✓ bin/tool.sh  made executable (100755)");
    const executable = async (p: string): Promise<boolean> => ((await stat(path.join(root, p))).mode & 0o100) !== 0;
    expect(await executable("bin/new.sh")).toBe(true);
    expect(await executable("bin/tool.sh")).toBe(true);
    expect(await executable("bin/made.sh")).toBe(true);
    expect(await executable("src/math.ts")).toBe(false);
  });

  it("applies a patch mailed by git format-patch, signature and all", async () => {
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "init");
    await writeFile(path.join(root, "src/math.ts"), ORIGINAL.replace("a - b", "a + b"));
    git("commit", "-q", "-am", "fix: add adds");
    const patch = git("format-patch", "-1", "--stdout");
    expect(patch).toMatch(/\n-- \n\d+\.\d+/);
    git("reset", "-q", "--hard", "HEAD~1");
    const run = apply(["--root", root, await replyFile(patch)]);
    expect(run.stdout).toContain("✓ src/math.ts  exact");
    expect(run.code).toBe(0);
    expect(await math()).toBe(ORIGINAL.replace("a - b", "a + b"));
  });

  it("applies git's own diff of files whose names it quotes (non-ASCII bytes as octal, a double quote)", async () => {
    const names = ["docs/café notes.md", 'we"ird.txt'];
    await mkdir(path.join(root, "docs"));
    for (const name of names) await writeFile(path.join(root, name), "old\n");
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "init");
    for (const name of names) await writeFile(path.join(root, name), "new\n");
    const diff = git("diff");
    expect(diff).toContain('"a/docs/caf\\303\\251 notes.md"');
    git("checkout", "-q", ".");
    const run = apply(["--root", root, await replyFile(diff)]);
    expect(run.code).toBe(0);
    for (const name of names) expect(await readFile(path.join(root, name), "utf8")).toBe("new\n");
  });

  it("applies GNU diff -ruN over two copies of the tree: edits, a new file, a deleted one", async () => {
    const copy = path.join(dir, "old");
    const changed = path.join(dir, "new");
    for (const folder of [copy, changed]) {
      await mkdir(path.join(folder, "src"), { recursive: true });
      await writeFile(path.join(folder, "src/math.ts"), ORIGINAL);
    }
    await writeFile(path.join(copy, "gone.txt"), "bye\n");
    await writeFile(path.join(root, "gone.txt"), "bye\n");
    await writeFile(path.join(changed, "src/math.ts"), ORIGINAL.replace("a - b", "a + b"));
    await writeFile(path.join(changed, "src/extra.ts"), "export const x = 1;\n");
    const diff = spawnSync("diff", ["-ruN", "old", "new"], { cwd: dir, encoding: "utf8" }).stdout;
    expect(diff).toContain("1970-01-01");
    const run = apply(["--root", root, await replyFile(diff)]);
    expect(run.code).toBe(0);
    expect(await math()).toBe(ORIGINAL.replace("a - b", "a + b"));
    expect(await readFile(path.join(root, "src/extra.ts"), "utf8")).toBe("export const x = 1;\n");
    expect((await readdir(root)).sort()).toEqual(["logo.png", "src"]);
  });

  it("applies git's diff of a copy (git diff -C): the copy made and changed, its source kept", async () => {
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "init");
    await mkdir(path.join(root, "lib"));
    await writeFile(path.join(root, "lib/math.ts"), ORIGINAL.replace("a - b", "a + b"));
    git("add", ".");
    const diff = git("diff", "--cached", "-C", "--find-copies-harder");
    expect(diff).toContain("copy from src/math.ts");
    git("rm", "-q", "--cached", "lib/math.ts");
    await rm(path.join(root, "lib"), { recursive: true });
    const run = apply(["--root", root, await replyFile(diff)]);
    expect(run.stdout).toContain("✓ src/math.ts → lib/math.ts  copy");
    expect(run.code).toBe(0);
    expect(await math()).toBe(ORIGINAL);
    expect(await readFile(path.join(root, "lib/math.ts"), "utf8")).toBe(ORIGINAL.replace("a - b", "a + b"));
  });

  it("applies git's diff that deletes a binary file beside a text change", async () => {
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "init");
    git("rm", "-q", "logo.png");
    await writeFile(path.join(root, "src/math.ts"), ORIGINAL.replace("a - b", "a + b"));
    const diff = git("diff", "HEAD");
    expect(diff).toContain("Binary files a/logo.png and /dev/null differ");
    git("reset", "-q", "--hard");
    const run = apply(["--root", root, await replyFile(diff)]);
    expect(run.code).toBe(0);
    expect(await math()).toBe(ORIGINAL.replace("a - b", "a + b"));
    expect((await readdir(root)).sort()).toEqual([".git", "src"]);
  });

  it("refuses the whole reply when one edit fails: exit 1, JSON results, nothing written", async () => {
    const run = apply(["--root", root, "--json", await replyFile(`${GOOD}\n${BAD}`)]);
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as { results: Record<string, unknown>[]; written: string[] };
    expect(json.results.map((r) => r["reason"])).toEqual(["not-applied", "search-not-found"]);
    for (const r of json.results) {
      expect(Object.keys(r).sort()).toEqual(["message", "ok", "path", "reason"]);
      expect(r).toMatchObject({ ok: false, path: "src/math.ts" });
    }
    expect(json.written).toEqual([]);
    expect(await math()).toBe(ORIGINAL);
  });

  it("--partial keeps the edits that applied and still exits 1", async () => {
    const other = block(
      "src/math.ts",
      "export function add(a: number, b: number) {",
      "export function plus(a: number, b: number) {",
    );
    const run = apply(["--root", root, "--partial", "--json", await replyFile(`${other}\n${BAD}`)]);
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as { results: { ok: boolean; strategy?: string }[]; written: string[] };
    expect(json.results.map((r) => r.ok)).toEqual([true, false]);
    expect(json.results[0]).toEqual({ ok: true, path: "src/math.ts", strategy: "exact" });
    expect(json.written).toEqual(["src/math.ts"]);
    expect(await math()).toContain("function plus");
  });

  it("--dry-run shows the diff and writes nothing", async () => {
    const run = apply(["--root", root, "--dry-run", await replyFile(GOOD)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("+  return a + b;");
    expect(run.stdout).toContain("dry run: 1 edit would apply; nothing was written (1 file would change)");
    expect(run.stdout).not.toContain("edit applied");
    expect(await math()).toBe(ORIGINAL);
  });

  it("reads the reply from stdin, with '-' or no argument", async () => {
    expect(apply(["--root", root, "-"], GOOD).code).toBe(0);
    expect(await math()).toContain("a + b");
    const back = block("src/math.ts", "  return a + b;", "  return b + a;");
    expect(apply(["--root", root], back).code).toBe(0);
    expect(await math()).toContain("b + a");
  });

  it("reads a bare file name or a path under another folder as the one file it can mean, and names near ones", async () => {
    const bare = apply(["--root", root, await replyFile(block("math.ts", "  return a - b;", "  return a + b;"))]);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain("✓ src/math.ts  exact");
    expect(await math()).toBe(ORIGINAL.replace("a - b", "a + b"));
    const diff = "--- a/repo/src/math.ts\n+++ b/repo/src/math.ts\n@@ -2 +2 @@\n-  return a + b;\n+  return a * b;\n";
    expect(apply(["--root", root, await replyFile(diff)]).code).toBe(0);
    expect(await math()).toBe(ORIGINAL.replace("a - b", "a * b"));
    const typo = apply([
      "--root",
      root,
      "--json",
      await replyFile(block("src/mth.ts", "  return a * b;", "  return 0;")),
    ]);
    expect(typo.code).toBe(1);
    expect(JSON.parse(typo.stdout)).toMatchObject({
      results: [{ message: expect.stringContaining("Files named close to it: src/math.ts.") as unknown }],
    });
    // Two files of that name holding the lines: none is guessed, both are named.
    await mkdir(path.join(root, "lib"));
    await writeFile(path.join(root, "lib/math.ts"), ORIGINAL);
    await writeFile(path.join(root, "src/math.ts"), ORIGINAL);
    const two = apply(["--root", root, "--json", await replyFile(block("math.ts", "  return a - b;", "  return 0;"))]);
    expect(two.code).toBe(1);
    expect(JSON.parse(two.stdout)).toMatchObject({
      results: [{ message: expect.stringContaining("Files of that name: lib/math.ts, src/math.ts.") as unknown }],
    });
    expect(await readFile(path.join(root, "lib/math.ts"), "utf8")).toBe(ORIGINAL);
    // Only one of them holding the lines: that one.
    await writeFile(path.join(root, "src/math.ts"), ORIGINAL.replace("a - b", "a * b"));
    const one = apply(["--root", root, await replyFile(block("math.ts", "  return a * b;", "  return 0;"))]);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain("✓ src/math.ts  exact");
    expect(await math()).toBe(ORIGINAL.replace("a - b", "0"));
    expect(await readFile(path.join(root, "lib/math.ts"), "utf8")).toBe(ORIGINAL);
  });

  it("refuses to edit a binary file", async () => {
    const run = apply(["--root", root, "--json", await replyFile(block("logo.png", "PNG", "GIF"))]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ results: [{ ok: false, path: "logo.png", reason: "binary-file" }] });
  });

  it("an empty reply exits 1 and changes nothing", async () => {
    const run = apply(["--root", root], "");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("the reply contains no edits");
    expect(await math()).toBe(ORIGINAL);
  });

  it.each([
    [["--nope"], "nope"],
    [["--format", "xml"], "--format"],
    [["--root", "does-not-exist"], "does not exist"],
    [["missing-reply.md"], "does not exist"],
  ])("usage error %j exits 2", (args, text) => {
    const run = apply(args[0] === "--root" ? args : ["--root", root, ...args], GOOD);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(text);
  });

  it("never writes outside the root", async () => {
    const run = apply(["--root", root, "--json"], block("../escape.ts", "", "pwned"));
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ results: [{ ok: false, reason: "unsafe-path" }] });
    expect((await readdir(dir)).sort()).toEqual(["root"]);
  });

  it("refuses a second name for an edited file and a symlink into .git (partial keeps the safe edit)", async () => {
    await mkdir(path.join(root, ".git/hooks"), { recursive: true });
    await symlink(".git", path.join(root, "g"));
    await symlink("math.ts", path.join(root, "src/alias.ts"));
    const reply = [
      GOOD,
      block(
        "src/alias.ts",
        "export function add(a: number, b: number) {",
        "export function sum(a: number, b: number) {",
      ),
      block("g/hooks/pre-commit", "", "#!/bin/sh\necho pwned"),
    ].join("\n");
    const run = apply(["--root", root, "--partial", "--json", await replyFile(reply)]);
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as { results: { ok: boolean; reason?: string; message?: string }[] };
    expect(json.results.map((r) => r.reason ?? "ok")).toEqual(["ok", "unsafe-path", "unsafe-path"]);
    expect(json.results[1]?.message).toContain("edit src/math.ts only");
    expect(await math()).toBe(ORIGINAL.replace("a - b", "a + b"));
    expect(await readdir(path.join(root, ".git/hooks"))).toEqual([]);
  });

  it("an unexpected exception exits 1 as an internal error (2 stays for usage errors)", () => {
    // A preload that breaks process.stdin makes reading the reply throw something that is not a usage error.
    const preload = "data:text/javascript,Object.defineProperty(process,'stdin',{get(){throw new Error('boom')}})";
    const result = spawnSync(process.execPath, ["--import", preload, cli, "apply", "--root", root], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("patchsmith: internal error: Error: boom");
    expect(result.stdout).toBe("");
  });
});
