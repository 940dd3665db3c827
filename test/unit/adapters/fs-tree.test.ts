import {
  chmod,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  writeFile,
  lstat,
  readlink,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFsTree } from "../../../src/adapters/fs-tree.js";

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), "patchsmith-fs-tree-"));
  root = path.join(base, "root");
  outside = path.join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), "secret\n");
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const put = async (rel: string, content: string | Buffer) => {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), content);
};

describe("read", () => {
  it("reads text, keeping a BOM and CRLF byte for byte", async () => {
    await put("a.txt", "\uFEFFone\r\ntwo\n");
    expect(await createFsTree(root).read("a.txt")).toEqual({
      kind: "text",
      content: "\uFEFFone\r\ntwo\n",
      executable: false,
    });
  });

  it("reports missing files, binary files, folders and special cases", async () => {
    await put("bin.dat", Buffer.from([0x89, 0x50, 0x00, 0x01]));
    await put("latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await mkdir(path.join(root, "dir"));
    await put("file.txt", "x\n");
    const tree = createFsTree(root);
    expect(await tree.read("nope.txt")).toEqual({ kind: "missing" });
    expect(await tree.read("deep/er/nope.txt")).toEqual({ kind: "missing" });
    expect(await tree.read("bin.dat")).toEqual({ kind: "binary" });
    expect(await tree.read("latin1.txt")).toEqual({ kind: "binary" });
    expect(await tree.read("dir")).toMatchObject({
      kind: "unreadable",
      message: expect.stringContaining("folder") as unknown,
    });
    expect(await tree.read("file.txt/child")).toMatchObject({
      kind: "unreadable",
      message: expect.stringContaining("file.txt is a file") as unknown,
    });
  });

  it("refuses paths that escape by text before touching the disk", async () => {
    const tree = createFsTree(root);
    for (const p of ["../outside/secret.txt", "/etc/passwd", "a/../../outside/secret.txt", ".git/config"]) {
      expect((await tree.read(p)).kind).toBe("unsafe");
    }
  });

  it("refuses a symlinked file or folder that leads outside the root", async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
    await symlink(outside, path.join(root, "out"));
    const tree = createFsTree(root);
    expect(await tree.read("link.txt")).toMatchObject({
      kind: "unsafe",
      message: expect.stringContaining("outside the root") as unknown,
    });
    expect(await tree.read("out/secret.txt")).toMatchObject({ kind: "unsafe" });
    expect(await tree.read("out/new.txt")).toMatchObject({ kind: "unsafe" });
  });

  it("follows symlinks that stay inside the root, and distrusts dangling ones", async () => {
    await put("real/a.txt", "inside\n");
    await symlink(path.join(root, "real"), path.join(root, "alias"));
    await symlink("real/a.txt", path.join(root, "rel-link.txt"));
    await symlink(path.join(root, "gone.txt"), path.join(root, "dangling.txt"));
    const tree = createFsTree(root);
    // realPath names the file the link leads to, so callers can see two paths are one file.
    expect(await tree.read("alias/a.txt")).toEqual({
      kind: "text",
      content: "inside\n",
      executable: false,
      realPath: "real/a.txt",
    });
    expect(await tree.read("rel-link.txt")).toEqual({
      kind: "text",
      content: "inside\n",
      executable: false,
      realPath: "real/a.txt",
    });
    expect(await tree.read("alias/new.txt")).toEqual({ kind: "missing", realPath: "real/new.txt" });
    expect(await tree.read("real/a.txt")).toEqual({ kind: "text", content: "inside\n", executable: false });
    expect((await tree.read("dangling.txt")).kind).toBe("unsafe");
  });

  it("refuses in-root symlinks that lead into .git, whatever the case of the link or its target", async () => {
    await put(".git/config", "[core]\n");
    await mkdir(path.join(root, ".git/hooks"));
    await symlink(".git", path.join(root, "g"));
    await symlink(".git/config", path.join(root, "cfg"));
    await put("sub/.GIT/HEAD", "ref\n");
    await symlink("sub/.GIT", path.join(root, "upper"));
    const tree = createFsTree(root);
    for (const p of ["g/config", "g/hooks/pre-commit", "cfg", "upper/HEAD"]) {
      expect(await tree.read(p)).toMatchObject({
        kind: "unsafe",
        message: expect.stringContaining(".git folder") as unknown,
      });
    }
  });

  it("works when the root itself is reached through a symlink", async () => {
    await put("a.txt", "x\n");
    await symlink(root, path.join(base, "root-link"));
    const tree = createFsTree(path.join(base, "root-link"));
    expect(await tree.read("a.txt")).toEqual({ kind: "text", content: "x\n", executable: false });
    expect((await tree.read("../outside/secret.txt")).kind).toBe("unsafe");
  });
});

describe("commit", () => {
  it("reads whether a file is executable, and sets or clears the execute bits where `modes` says", async () => {
    await put("run.sh", "#!/bin/sh\n");
    await chmod(path.join(root, "run.sh"), 0o640);
    await put("tool.sh", "#!/bin/sh\n");
    await chmod(path.join(root, "tool.sh"), 0o755);
    const tree = createFsTree(root);
    expect(await tree.read("tool.sh")).toMatchObject({ kind: "text", executable: true });
    const result = await tree.commit(
      new Map([
        ["run.sh", "#!/bin/sh\n"],
        ["tool.sh", "#!/bin/sh\n"],
        ["bin/new.sh", "#!/bin/sh\n"],
        ["plain.txt", "x\n"],
      ]),
      new Map([
        ["run.sh", true],
        ["tool.sh", false],
        ["bin/new.sh", true],
      ]),
    );
    expect(result.ok).toBe(true);
    const modeOf = async (p: string): Promise<number> => (await stat(path.join(root, p))).mode & 0o777;
    // Execute where it may be read (not for others here), and never write added.
    expect(await modeOf("run.sh")).toBe(0o750);
    expect(await modeOf("tool.sh")).toBe(0o644);
    // A new file: as `chmod +x` leaves it under the umask.
    expect((await modeOf("bin/new.sh")) & 0o100).toBe(0o100);
    expect((await modeOf("plain.txt")) & 0o111).toBe(0);
  });

  it("a file deleted by one commit and written again by a later one of the same tree gets its mode back", async () => {
    await put("a.sh", "#!/bin/sh\n");
    await chmod(path.join(root, "a.sh"), 0o755);
    const tree = createFsTree(root);
    expect(
      (
        await tree.commit(
          new Map([
            ["a.sh", null],
            ["b.sh", "#!/bin/sh\n"],
          ]),
          new Map([["b.sh", true]]),
        )
      ).ok,
    ).toBe(true);
    // Undone: the move goes back as contents alone.
    expect(
      (
        await tree.commit(
          new Map([
            ["a.sh", "#!/bin/sh\n"],
            ["b.sh", null],
          ]),
        )
      ).ok,
    ).toBe(true);
    expect((await stat(path.join(root, "a.sh"))).mode & 0o777).toBe(0o755);
    // Written again by a fresh tree, a path this one never deleted is a plain new file.
    await createFsTree(root).commit(new Map([["c.sh", "x\n"]]));
    expect((await stat(path.join(root, "c.sh"))).mode & 0o111).toBe(0);
  });

  it("writes, creates parents, deletes, and keeps an existing file's mode", async () => {
    await put("run.sh", "#!/bin/sh\necho old\n");
    await chmod(path.join(root, "run.sh"), 0o775);
    await put("old.txt", "bye\n");
    const tree = createFsTree(root);
    const result = await tree.commit(
      new Map<string, string | null>([
        ["run.sh", "#!/bin/sh\necho new\n"],
        ["src/deep/new.ts", "export {};\n"],
        ["old.txt", null],
      ]),
    );
    expect(result).toEqual({ ok: true, written: ["run.sh", "src/deep/new.ts", "old.txt"] });
    expect(await readFile(path.join(root, "run.sh"), "utf8")).toBe("#!/bin/sh\necho new\n");
    expect((await stat(path.join(root, "run.sh"))).mode & 0o777).toBe(0o775);
    expect(await readFile(path.join(root, "src/deep/new.ts"), "utf8")).toBe("export {};\n");
    await expect(stat(path.join(root, "old.txt"))).rejects.toThrow();
    // No temp files are left behind.
    expect((await readdir(root)).filter((n) => n.includes("patchsmith"))).toEqual([]);
  });

  it("writes through an in-root symlink, keeping the link", async () => {
    await put("real.txt", "old\n");
    await symlink("real.txt", path.join(root, "alias.txt"));
    const result = await createFsTree(root).commit(new Map([["alias.txt", "new\n"]]));
    expect(result.ok).toBe(true);
    expect((await lstat(path.join(root, "alias.txt"))).isSymbolicLink()).toBe(true);
    expect(await readFile(path.join(root, "real.txt"), "utf8")).toBe("new\n");
  });

  it("refuses to write through a symlink that leaves the root, even one planted after reading", async () => {
    const tree = createFsTree(root);
    expect(await tree.read("sub/x.txt")).toEqual({ kind: "missing" });
    // TOCTOU: the folder appears as a symlink to the outside between read and write.
    await symlink(outside, path.join(root, "sub"));
    const result = await tree.commit(new Map([["sub/x.txt", "pwned\n"]]));
    expect(result).toMatchObject({ ok: false, path: "sub/x.txt", rolledBack: true });
    expect(await readdir(outside)).toEqual(["secret.txt"]);
  });

  it("refuses an outside symlink as the file itself and leaves its target alone", async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
    const result = await createFsTree(root).commit(new Map([["link.txt", "pwned\n"]]));
    expect(result.ok).toBe(false);
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("secret\n");
  });

  it("refuses paths that escape by text", async () => {
    const result = await createFsTree(root).commit(new Map([["../outside/new.txt", "x\n"]]));
    expect(result.ok).toBe(false);
    expect(await readdir(outside)).toEqual(["secret.txt"]);
  });

  it("rolls back everything already written when a later write fails", async () => {
    await put("a.txt", "a-old\n");
    await chmod(path.join(root, "a.txt"), 0o666);
    await put("gone.txt", "still here\n");
    await put("blocker", "i am a file\n");
    await symlink("a.txt", path.join(root, "link-to-a"));
    const tree = createFsTree(root);
    const result = await tree.commit(
      new Map<string, string | null>([
        ["a.txt", "a-new\n"],
        ["gone.txt", null],
        ["new/dir/made.txt", "fresh\n"],
        ["link-to-a", null],
        // Its parent is a file: this write fails after the four above succeeded.
        ["blocker/child.txt", "never\n"],
      ]),
    );
    expect(result).toMatchObject({ ok: false, path: "blocker/child.txt", rolledBack: true });
    if (!result.ok) expect(result.message).toContain("nothing was changed");
    expect(await readFile(path.join(root, "a.txt"), "utf8")).toBe("a-old\n");
    expect((await stat(path.join(root, "a.txt"))).mode & 0o777).toBe(0o666);
    expect(await readFile(path.join(root, "gone.txt"), "utf8")).toBe("still here\n");
    expect(await readlink(path.join(root, "link-to-a"))).toBe("a.txt");
    expect((await readdir(root)).sort()).toEqual(["a.txt", "blocker", "gone.txt", "link-to-a"]);
  });
});

describe("commit into .git or onto one file twice", () => {
  beforeEach(async () => {
    await put(".git/config", "[core]\n");
    await put(".git/HEAD", "ref: refs/heads/main\n");
    await mkdir(path.join(root, ".git/hooks"));
    await symlink(".git", path.join(root, "g"));
    await symlink(".git/HEAD", path.join(root, "head"));
  });

  const gitFiles = async () => (await readdir(path.join(root, ".git"), { recursive: true })).sort();

  it("refuses to create, write, move onto or delete through a symlink into .git, changing nothing", async () => {
    const before = await gitFiles();
    await put("ok.txt", "fine\n");
    const attempts: Array<[string, string | null]> = [
      ["g/hooks/pre-commit", "#!/bin/sh\necho pwned\n"],
      ["g/config", "[core]\n\thooksPath = /tmp\n"],
      ["head", "ref: refs/heads/evil\n"],
      ["g/HEAD", null],
    ];
    for (const write of attempts) {
      const result = await createFsTree(root).commit(new Map([["ok.txt", "changed\n"], write]));
      expect(result).toMatchObject({ ok: false, path: write[0], rolledBack: true });
      if (!result.ok) expect(result.message).toContain(".git folder");
    }
    expect(await gitFiles()).toEqual(before);
    expect(await readFile(path.join(root, ".git/HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
    expect(await readFile(path.join(root, "ok.txt"), "utf8")).toBe("fine\n");
  });

  it("refuses two writes that are one file through a symlink, before writing either", async () => {
    await put("a.txt", "one\n");
    await symlink("a.txt", path.join(root, "b.txt"));
    await put("src/x.ts", "x\n");
    await symlink("src", path.join(root, "lib"));
    const tree = createFsTree(root);
    const pairs: Array<Array<[string, string | null]>> = [
      [
        ["a.txt", "A\n"],
        ["b.txt", "B\n"],
      ],
      [
        ["src/x.ts", "X\n"],
        ["lib/x.ts", null],
      ],
      [
        ["lib/new.ts", "1\n"],
        ["src/new.ts", "2\n"],
      ],
    ];
    for (const writes of pairs) {
      const result = await tree.commit(new Map(writes));
      expect(result).toMatchObject({ ok: false, path: writes[1]![0], rolledBack: true });
      if (!result.ok) expect(result.message).toContain("same file on disk");
    }
    expect(await readFile(path.join(root, "a.txt"), "utf8")).toBe("one\n");
    expect(await readFile(path.join(root, "src/x.ts"), "utf8")).toBe("x\n");
    expect((await readdir(path.join(root, "src"))).sort()).toEqual(["x.ts"]);
    // Deleting a link removes only the link, so it does not collide with writing the file it pointed to.
    expect(
      await tree.commit(
        new Map([
          ["a.txt", "A\n"],
          ["b.txt", null],
        ]),
      ),
    ).toEqual({ ok: true, written: ["a.txt", "b.txt"] });
  });
});

describe("listFiles", () => {
  it("lists regular files, skipping .git and node_modules", async () => {
    await put("a.txt", "");
    await put("src/b.ts", "");
    await put(".git/config", "");
    await put("node_modules/x/index.js", "");
    expect(await createFsTree(root).listFiles()).toEqual(["a.txt", "src/b.ts"]);
    expect(await createFsTree(root).listFiles(1)).toEqual(["a.txt"]);
  });
});

describe("hasFile", () => {
  it("answers for one path what listFiles would list, without walking the tree", async () => {
    await put("a.txt", "");
    await put("src/b.ts", "");
    await put(".git/config", "");
    await put("node_modules/x/index.js", "");
    const tree = createFsTree(root);
    expect(["a.txt", "src/b.ts", "./src//b.ts"].map((p) => tree.hasFile(p))).toEqual([true, true, true]);
    const absent = ["src", "missing.txt", ".git/config", "node_modules/x/index.js", "../a.txt", "/etc/passwd", ""];
    expect(absent.map((p) => tree.hasFile(p))).toEqual(absent.map(() => false));
  });
});
