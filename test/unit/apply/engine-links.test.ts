/** applyReply against trees with in-root symlinks: two names for one file, and links into .git. */
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyReply, dryRunSummary, planReply } from "../../../src/engine.js";
import type { EditResult } from "../../../src/core/result.js";

const block = (file: string, search: string, replace: string) =>
  `${file}\n\`\`\`\n<<<<<<< SEARCH\n${search}${search === "" ? "" : "\n"}=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "patchsmith-engine-links-"));
  await writeFile(path.join(root, "a.txt"), "one\ntwo\n");
  await symlink("a.txt", path.join(root, "b.txt"));
  await mkdir(path.join(root, ".git/hooks"), { recursive: true });
  await writeFile(path.join(root, ".git/HEAD"), "ref: refs/heads/main\n");
  await symlink(".git", path.join(root, "g"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const read = (rel: string) => readFile(path.join(root, rel), "utf8");
const TWO_NAMES = block("a.txt", "one", "ONE") + block("b.txt", "two", "TWO");

describe("two paths that are one file", () => {
  it("refuses the later path with unsafe-path and writes nothing (all or nothing)", async () => {
    const report = await applyReply(TWO_NAMES, { root });
    expect(report.results).toMatchObject([
      { ok: false, path: "a.txt", reason: "not-applied" },
      { ok: false, path: "b.txt", reason: "unsafe-path" },
    ]);
    const refused = report.results[1] as EditResult & { ok: false };
    expect(refused.message).toContain("b.txt is a symlink to a.txt, which this reply also edits; edit a.txt only");
    expect(report.written).toEqual([]);
    expect(await read("a.txt")).toBe("one\ntwo\n");
    expect((await lstat(path.join(root, "b.txt"))).isSymbolicLink()).toBe(true);
  });

  it("keeps the first path's edit in partial mode, so no edit is lost", async () => {
    const report = await applyReply(TWO_NAMES, { root, partial: true });
    expect(report.results.map((r) => r.ok)).toEqual([true, false]);
    expect(report.written).toEqual(["a.txt"]);
    expect(await read("a.txt")).toBe("ONE\ntwo\n");
  });

  it("sees through a symlinked folder, for new files too", async () => {
    await mkdir(path.join(root, "src"));
    await writeFile(path.join(root, "src/x.ts"), "x\n");
    await symlink("src", path.join(root, "lib"));
    const reply =
      block("lib/x.ts", "x", "y") +
      block("src/x.ts", "x", "z") +
      block("lib/n.ts", "", "1") +
      block("src/n.ts", "", "2");
    const report = await applyReply(reply, { root, partial: true });
    expect(report.results.map((r) => (r.ok ? "ok" : r.reason))).toEqual(["ok", "unsafe-path", "ok", "unsafe-path"]);
    const refused = report.results[1] as EditResult & { ok: false };
    expect(refused.message).toContain("src/x.ts and lib/x.ts are the same file (src/x.ts) through a symlink");
    expect(await read("src/x.ts")).toBe("y\n");
    expect(await read("src/n.ts")).toBe("1\n");
  });

  it("an edit through a link alone still writes through it", async () => {
    const report = await applyReply(block("b.txt", "two", "TWO"), { root });
    expect(report.written).toEqual(["b.txt"]);
    expect(await read("a.txt")).toBe("one\nTWO\n");
    expect((await lstat(path.join(root, "b.txt"))).isSymbolicLink()).toBe(true);
  });

  it("planReply uses the realPath a reader reports (the fix loop's path)", async () => {
    const states = new Map([
      ["a.txt", { kind: "text" as const, content: "one\n" }],
      ["b.txt", { kind: "text" as const, content: "one\n", realPath: "a.txt" }],
    ]);
    const plan = await planReply(
      block("a.txt", "one", "1") + block("b.txt", "one", "2"),
      (p) => Promise.resolve(states.get(p) ?? { kind: "missing" }),
      { partial: true },
    );
    expect(plan.results.map((r) => (r.ok ? "ok" : r.reason))).toEqual(["ok", "unsafe-path"]);
    expect(plan.files).toEqual(new Map([["a.txt", "1\n"]]));
  });
});

describe("symlinks into .git", () => {
  it("refuses creating, editing, deleting and moving through them", async () => {
    await writeFile(path.join(root, "c.txt"), "c\n");
    const reply = [
      block("g/hooks/pre-commit", "", "#!/bin/sh\necho pwned"),
      block("g/HEAD", "ref: refs/heads/main", "ref: refs/heads/evil"),
      "*** Begin Patch\n*** Delete File: g/HEAD\n*** Update File: c.txt\n*** Move to: g/hooks/post-checkout\n@@\n-c\n+c\n*** End Patch\n",
    ].join("\n");
    const report = await applyReply(reply, { root, partial: true });
    // An apply_patch update with a move is two results: the (harmless) content change and the refused move.
    expect(report.results.map((r) => (r.ok ? "ok" : r.reason))).toEqual([
      "unsafe-path",
      "unsafe-path",
      "unsafe-path",
      "ok",
      "unsafe-path",
    ]);
    expect(report.results[4]).toMatchObject({ edit: { kind: "rename", to: "g/hooks/post-checkout" } });
    expect(report.written.filter((p) => p.startsWith("g/"))).toEqual([]);
    expect(await readdir(path.join(root, ".git/hooks"))).toEqual([]);
    expect(await read(".git/HEAD")).toBe("ref: refs/heads/main\n");
    expect(await read("c.txt")).toBe("c\n");
  });
});

describe("dryRunSummary", () => {
  const ok = { ok: true } as EditResult;
  const bad = { ok: false, reason: "search-not-found" } as EditResult;
  const held = { ok: false, reason: "not-applied" } as EditResult;
  it("says what would apply and that nothing was written", () => {
    expect(dryRunSummary([ok, ok], false)).toBe("dry run: 2 edits would apply; nothing was written");
    expect(dryRunSummary([held, bad], false)).toBe(
      "dry run: 1 of 2 edits failed, so none would apply; nothing was written",
    );
    expect(dryRunSummary([ok, bad, bad], true)).toBe(
      "dry run: 2 of 3 edits failed and the other 1 would apply; nothing was written",
    );
    expect(dryRunSummary([bad], true)).toBe("dry run: all 1 edit failed; nothing was written");
    expect(dryRunSummary([], true)).toBe("dry run: the reply contains no edits; nothing was written");
  });
});
