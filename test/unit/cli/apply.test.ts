import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_REPLY_BYTES, run } from "../../../src/cli/apply.js";

let dir: string;
let root: string;
let out: string;
let err: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "patchsmith-cli-apply-"));
  root = path.join(dir, "root");
  await mkdir(root);
  await writeFile(path.join(root, "a.txt"), "hello\nworld\n");
  out = "";
  err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const replyFile = async (content: string | Buffer): Promise<string> => {
  const file = path.join(dir, "reply.md");
  await writeFile(file, content);
  return file;
};

const EDIT = "a.txt\n```\n<<<<<<< SEARCH\nworld\n=======\nthere\n>>>>>>> REPLACE\n```\n";

describe("patchsmith apply: usage errors exit 2 and touch nothing", () => {
  it.each([
    [["--bogus"], "bogus"],
    [["--format", "yaml"], "unknown --format 'yaml'"],
    [["--root"], "--root"],
    [["one.md", "two.md"], "at most one REPLY"],
  ])("%j", async (argv, text) => {
    expect(await run(argv)).toBe(2);
    expect(err).toContain(text);
    expect(err).toContain("usage: patchsmith apply");
  });

  it("a root that does not exist or is a file", async () => {
    expect(await run(["--root", path.join(dir, "nope"), await replyFile(EDIT)])).toBe(2);
    expect(err).toContain("does not exist");
    expect(await run(["--root", path.join(root, "a.txt"), await replyFile(EDIT)])).toBe(2);
    expect(err).toContain("is not a folder");
  });

  it("an unreadable, oversized or binary REPLY", async () => {
    expect(await run(["--root", root, path.join(dir, "missing.md")])).toBe(2);
    expect(err).toContain("does not exist");
    expect(await run(["--root", root, dir])).toBe(2);
    expect(err).toContain("is not a file");
    expect(await run(["--root", root, await replyFile(Buffer.alloc(MAX_REPLY_BYTES + 1, 0x61))])).toBe(2);
    expect(err).toContain("larger than 8 MiB");
    expect(await run(["--root", root, await replyFile(Buffer.from([0x61, 0x00, 0x62]))])).toBe(2);
    expect(err).toContain("not text");
    expect(await readFile(path.join(root, "a.txt"), "utf8")).toBe("hello\nworld\n");
  });

  it("--help prints the help and exits 0", async () => {
    expect(await run(["--help"])).toBe(0);
    expect(out).toContain("--dry-run");
  });
});

describe("patchsmith apply: outcomes", () => {
  it("applies a reply and exits 0", async () => {
    expect(await run(["--root", root, await replyFile(EDIT)])).toBe(0);
    expect(await readFile(path.join(root, "a.txt"), "utf8")).toBe("hello\nthere\n");
    expect(out).toContain("✓ a.txt");
    expect(out).toContain("+there");
  });

  it("an empty reply or one without edits exits 1 with a result of its own reason", async () => {
    expect(await run(["--root", root, await replyFile("  \n")])).toBe(1);
    expect(out).toContain("no-edits");
    expect(out).toContain("the reply contains no edits: nothing was changed");
    out = "";
    expect(await run(["--root", root, "--json", await replyFile("Sure! I think the code is fine as it is.\n")])).toBe(
      1,
    );
    const report = JSON.parse(out) as { results: Array<{ ok: boolean; reason: string; message: string }> };
    expect(report).toMatchObject({ results: [{ ok: false, path: "", reason: "no-edits" }], written: [] });
    expect(report.results[0]!.message).toContain("SEARCH/REPLACE");
  });

  it("a dry run says so in JSON and in words, even for an empty reply", async () => {
    expect(await run(["--root", root, "--dry-run", "--json", await replyFile(EDIT)])).toBe(0);
    expect(JSON.parse(out)).toMatchObject({
      results: [{ ok: true, path: "a.txt" }],
      written: [],
      dryRun: true,
      summary: "dry run: 1 edit would apply; nothing was written",
    });
    out = "";
    expect(await run(["--root", root, "--dry-run", await replyFile(EDIT)])).toBe(0);
    expect(out).toContain("dry run: 1 edit would apply; nothing was written (1 file would change)");
    expect(out).not.toContain("edit applied");
    out = "";
    expect(await run(["--root", root, "--dry-run", "--json", await replyFile("  \n")])).toBe(1);
    expect(JSON.parse(out)).toMatchObject({
      results: [{ ok: false, reason: "no-edits" }],
      written: [],
      dryRun: true,
      summary: "dry run: the reply contains no edits; nothing was written",
    });
    expect(await readFile(path.join(root, "a.txt"), "utf8")).toBe("hello\nworld\n");
  });
});
