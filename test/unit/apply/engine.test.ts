import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyEdits, applyReply, renderRetryPrompt } from "../../../src/index.js";

const block = (file: string, search: string, replace: string) =>
  `${file}\n\`\`\`\n<<<<<<< SEARCH\n${search}${search === "" ? "" : "\n"}=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;

describe("applyEdits (library form)", () => {
  it("returns results and new contents, reading each normalised path once and writing nothing", async () => {
    const files = new Map([["src/a.ts", "const a = 1;\nconst b = 2;\n"]]);
    const asked: string[] = [];
    const read = (p: string) => {
      asked.push(p);
      return files.get(p);
    };
    const reply = [
      block("./src/a.ts", "const a = 1;", "const a = 10;"),
      block("src/a.ts", "const b = 2;", "const b = 20;"),
      block("src/new.ts", "", "export {};"),
    ].join("\n");
    const out = await applyEdits(reply, read);
    expect(out.results.map((r) => r.ok)).toEqual([true, true, true]);
    expect(out.files).toEqual(
      new Map([
        ["src/a.ts", "const a = 10;\nconst b = 20;\n"],
        ["src/new.ts", "export {};\n"],
      ]),
    );
    expect(asked).toEqual(["src/a.ts", "src/new.ts"]);
    expect(files.get("src/a.ts")).toBe("const a = 1;\nconst b = 2;\n");
    expect(out.summary).toBe("3 edits applied");
  });

  it("applies a block the reply repeats word for word once: an insertion lands once, a replacement is not refused", async () => {
    const content = "function total(items) {\n  return sum(items);\n}\n";
    const insertion = block("src/t.js", "  return sum(items);", '  log("total");\n  return sum(items);');
    const replacement = block("src/t.js", "function total(items) {", "function total(items = []) {");
    const out = await applyEdits([insertion, replacement, insertion, replacement].join("\n"), () => content);
    expect(out.files.get("src/t.js")).toBe('function total(items = []) {\n  log("total");\n  return sum(items);\n}\n');
    expect(out.results.map((r) => r.ok)).toEqual([true, true, true, true]);
    const [first, second, again, twice] = out.results;
    expect(first).not.toHaveProperty("repeatOf");
    expect(again).toMatchObject({ repeatOf: first!.edit!.origin.line });
    expect(twice).toMatchObject({ repeatOf: second!.edit!.origin.line });
    if (again!.ok) expect(again!.after).toBe(again!.before);
  });

  it("applies a block that changes nothing wherever its lines are, and says so; it is not found, it is refused", async () => {
    const content = "if (!user) {\n  return;\n}\nrun(user);\nif (!user) {\n  return;\n}\n";
    const guard = "if (!user) {\n  return;\n}";
    const change = block("src/u.js", "run(user);", "run(user, 1);");
    const out = await applyEdits([change, block("src/u.js", guard, guard)].join("\n"), () => content);
    expect(out.files.get("src/u.js")).toBe(content.replace("run(user);", "run(user, 1);"));
    expect(out.results[0]).not.toHaveProperty("changesNothing");
    expect(out.results[1]).toMatchObject({ ok: true, changesNothing: { at: [1, 5] } });
    const once = await applyEdits(block("src/u.js", "run(user);", "run(user);"), () => content);
    expect(once.results[0]).toMatchObject({ ok: true, changesNothing: { at: [4] } });
    expect(once.files.size).toBe(0);
    const absent = await applyEdits(block("src/u.js", "stop(user);", "stop(user);"), () => content);
    expect(absent.results[0]).toMatchObject({ ok: false, reason: "search-not-found" });
  });

  it("refuses edits of protected paths with forbidden-path, never reads them, and keeps the other edits in partial mode", async () => {
    const asked: string[] = [];
    const read = (p: string) => {
      asked.push(p);
      return p === "src/a.ts" ? "x = 1\n" : "on: push\n";
    };
    const reply = [
      block(".github/workflows/ci.yml", "on: push", "on: pull_request"),
      block("src/a.ts", "x = 1", "x = 2"),
      block(".github/workflows/new.yml", "", "on: push"),
    ].join("\n");
    const protect = (p: string) => (p.startsWith(".github/workflows/") ? "it is a workflow" : undefined);
    const out = await applyEdits(reply, read, { partial: true, protect });
    expect(out.results.map((r) => (r.ok ? "ok" : r.reason))).toEqual(["forbidden-path", "ok", "forbidden-path"]);
    expect(out.results[0]!.ok ? "" : out.results[0]!.message).toContain("it is a workflow");
    expect(asked).toEqual(["src/a.ts"]);
    expect([...out.files.keys()]).toEqual(["src/a.ts"]);
  });

  it("maps a reader's NUL content to binary-file and a throwing reader to unreadable-file", async () => {
    const read = (p: string) => {
      if (p === "bin.dat") return "PNG\0\0";
      throw new Error("EACCES: permission denied");
    };
    const out = await applyEdits(`${block("bin.dat", "PNG", "GIF")}\n${block("locked.ts", "x", "y")}`, read, {
      partial: true,
    });
    expect(out.results.map((r) => (r.ok ? "ok" : r.reason))).toEqual(["binary-file", "unreadable-file"]);
    expect(!out.results[1]!.ok && out.results[1]!.message).toContain("permission denied");
  });

  it("feeds failures and fresh contents into a retry prompt", async () => {
    const files = new Map([["a.py", "def f():\n    return 1\n"]]);
    const out = await applyEdits(block("a.py", "    return 2", "    return 3"), (p) => files.get(p));
    const fresh = new Map(out.results.filter((r) => !r.ok).map((r) => [r.path, files.get(r.path)] as const));
    const prompt = renderRetryPrompt(out.results, fresh);
    expect(prompt).toContain("a.py [search-not-found]");
    expect(prompt).toContain("2 |     return 1");
  });
});

describe("applyReply", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), "patchsmith-engine-"));
    await writeFile(path.join(root, "runscript"), "echo old\n");
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("recognises bare file names that exist in the tree", async () => {
    const reply = block("runscript", "echo old", "echo new");
    const offline = await applyEdits(reply, () => undefined);
    expect(offline.results[0]).toMatchObject({ ok: false, reason: "invalid-format" });
    const report = await applyReply(reply, { root });
    expect(report.results[0]).toMatchObject({ ok: true, path: "runscript" });
    expect(report.written).toEqual(["runscript"]);
    expect(await readFile(path.join(root, "runscript"), "utf8")).toBe("echo new\n");
  });

  it("a dry run reports the changes and writes nothing", async () => {
    const report = await applyReply(block("runscript", "echo old", "echo new"), { root, dryRun: true });
    expect(report).toMatchObject({ dryRun: true, written: [] });
    // The planner's own summary ("1 edit applied") would claim a change that was not made.
    expect(report.summary).toBe("dry run: 1 edit would apply; nothing was written");
    expect(report.changes).toEqual(new Map([["runscript", "echo new\n"]]));
    expect(await readFile(path.join(root, "runscript"), "utf8")).toBe("echo old\n");
  });
});
