import { describe, expect, it } from "vitest";
import { parseReply } from "../../../src/formats/registry.js";
import { as, edits, opList, parseOne, parseProblem, problems, reply } from "./helpers.js";

const MIXED = reply(
  "First the helper:", // 1
  "", // 2
  "src/util.py", // 3
  "```python", // 4
  "<<<<<<< SEARCH", // 5
  "def f(): return 1", // 6
  "=======", // 7
  "def f(): return 2", // 8
  ">>>>>>> REPLACE", // 9
  "```", // 10
  "", // 11
  "Then the config:", // 12
  "```diff", // 13
  "--- a/setup.cfg", // 14
  "+++ b/setup.cfg", // 15
  "@@ -1 +1 @@", // 16
  "-a = 1", // 17
  "+a = 2", // 18
  "```", // 19
  "", // 20
  "```", // 21
  "*** Begin Patch", // 22
  "*** Add File: NEWS.md", // 23
  "+hello", // 24
  "*** End Patch", // 25
  "```", // 26
  "", // 27
  "docs/index.md", // 28
  "```markdown", // 29
  "# Docs", // 30
  "```", // 31
);

describe("parseReply: detection per block", () => {
  it("reads mixed dialects in one reply, in reply order", () => {
    const items = parseReply(MIXED);
    expect(problems(items)).toEqual([]);
    expect(edits(items).map((e) => [e.kind, e.path, e.origin.format, e.origin.line])).toEqual([
      ["replace", "src/util.py", "editblock", 5],
      ["replace", "setup.cfg", "udiff", 16],
      ["create", "NEWS.md", "patch", 23],
      ["rewrite", "docs/index.md", "whole", 29],
    ]);
  });

  it.each([
    ["editblock", ["src/util.py"]],
    ["udiff", ["setup.cfg"]],
    ["patch", ["NEWS.md"]],
  ] as const)("with format %s only that dialect is recognised", (format, paths) => {
    const items = parseReply(MIXED, { format });
    expect(problems(items)).toEqual([]);
    expect(edits(items).map((e) => e.path)).toEqual(paths);
    expect(edits(items).every((e) => e.origin.format === format)).toBe(true);
  });

  it("with format whole, fences under a path are whole files and edit markers in them are problems", () => {
    const items = parseReply(MIXED, { format: "whole" });
    expect(items.map((i) => (i.type === "edit" ? i.edit.path : `problem@${i.problem.line}`))).toEqual([
      "problem@5",
      "docs/index.md",
    ]);
  });

  it("format 'auto' is the default", () => {
    expect(parseReply(MIXED, { format: "auto" })).toEqual(parseReply(MIXED));
  });

  it("with format whole, a fence under a path that holds SEARCH/REPLACE markers is a problem, not a rewrite", () => {
    const p = parseProblem(
      reply("a.py", "```python", "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE", "```"),
      { format: "whole" },
    );
    expect(p).toMatchObject({ format: "whole", line: 3 });
  });

  it("a fence is examined for its content before being taken as a whole file; its path serves the first block", () => {
    const text = reply(
      "src/a.py",
      "```python",
      "# a comment first",
      "<<<<<<< SEARCH",
      "a",
      "=======",
      "b",
      ">>>>>>> REPLACE",
      "```",
    );
    expect(parseOne(text)).toMatchObject({ kind: "replace", path: "src/a.py" });
  });

  it("a new fence's path beats the previous block's path", () => {
    const text = reply(
      "a.py",
      "<<<<<<< SEARCH",
      "a",
      "=======",
      "b",
      ">>>>>>> REPLACE",
      "b.py",
      "```python",
      "# then",
      "<<<<<<< SEARCH",
      "c",
      "=======",
      "d",
      ">>>>>>> REPLACE",
      "```",
    );
    expect(edits(parseReply(text)).map((e) => e.path)).toEqual(["a.py", "b.py"]);
  });

  it("finds blocks after an example fence that was never closed", () => {
    const text = reply(
      "```python",
      "example()",
      "",
      "src/a.py",
      "```python",
      "<<<<<<< SEARCH",
      "a",
      "=======",
      "b",
      ">>>>>>> REPLACE",
      "```",
    );
    expect(parseOne(text).path).toBe("src/a.py");
  });

  it("a fenced diff under a path line is a diff, not a whole file", () => {
    const text = reply("src/a.py", "```diff", "--- a/src/a.py", "+++ b/src/a.py", "@@ @@", "-a", "+b", "```");
    expect(parseOne(text).origin.format).toBe("udiff");
  });

  it("a whole file after a closed edit fence is still read", () => {
    const text = reply(
      "a.py",
      "```python",
      "<<<<<<< SEARCH",
      "a",
      "=======",
      "b",
      ">>>>>>> REPLACE",
      "```",
      "b.py",
      "```python",
      "B",
      "```",
    );
    expect(edits(parseReply(text)).map((e) => e.kind)).toEqual(["replace", "rewrite"]);
  });

  it("strips \\r from reply lines and keeps line numbers", () => {
    const crlf = MIXED.replaceAll("\n", "\r\n");
    expect(parseReply(crlf)).toEqual(parseReply(MIXED));
    const edit = parseOne(
      reply("a.ts", "<<<<<<< SEARCH", "x", "=======", "y", ">>>>>>> REPLACE").replaceAll("\n", "\r\n"),
    );
    expect(opList(edit)).toEqual(["-:x", "+:y"]);
  });

  it("prose with no blocks yields nothing", () => {
    expect(parseReply("I could not find the bug. Could you share src/app.py?")).toEqual([]);
  });
});

describe("parseReply: never throws", () => {
  it.each([
    ["empty", ""],
    ["newlines", "\n\n\n"],
    ["lone head", "<<<<<<< SEARCH"],
    ["lone divider", "======="],
    ["lone end", ">>>>>>> REPLACE"],
    ["lone fence", "```"],
    ["lone begin", "*** Begin Patch"],
    ["lone end patch", "*** End Patch"],
    ["lone update", "*** Update File:"],
    ["lone move", "*** Move to: x"],
    ["lone git header", "diff --git"],
    ["lone hunk", "@@"],
    ["header pair", "--- a\n+++ b"],
    ["heredoc", "apply_patch <<'EOF'"],
    ["nul bytes", "\0\0```\0\n<<<<<<< SEARCH\0"],
    ["only \\r", "\r\r\r"],
  ])("%s", (_name, text) => {
    expect(() => parseReply(text)).not.toThrow();
  });

  it("a lone head is a problem, not an edit", () => {
    expect(problems(parseReply("<<<<<<< SEARCH"))).toHaveLength(1);
  });

  it("parses a 10 MB reply of mixed blocks", () => {
    const unit = reply(MIXED, "some prose line that goes on for a while ...", "");
    const big = unit.repeat(Math.ceil(10_000_000 / unit.length));
    const items = parseReply(big);
    expect(edits(items).length).toBeGreaterThan(4 * 10_000);
    expect(as(edits(items)[0], "replace").path).toBe("src/util.py");
  });

  it("stays linear on pathological inputs", () => {
    const n = 50_000;
    const heads = parseReply("<<<<<<< SEARCH\n".repeat(n));
    expect(heads).toHaveLength(n);
    const fences = parseReply("```a\n".repeat(n) + "<<<<<<< SEARCH\n");
    expect(problems(fences)).toHaveLength(1);
    const hunks = parseReply("src/a.py\n```diff\n" + "@@\n-a\n+b\n".repeat(n) + "```\n");
    expect(edits(hunks)).toHaveLength(n);
    const updates = parseReply("*** Begin Patch\n" + "*** Update File: a\n@@ x\n".repeat(n) + "*** End Patch\n");
    expect(problems(updates)).toHaveLength(n);
    const giant = parseReply(
      reply(
        "a.txt",
        "<<<<<<< SEARCH",
        ...Array.from({ length: n }, (_, i) => `old ${i}`),
        "=======",
        ...Array.from({ length: n }, (_, i) => `new ${i}`),
        ">>>>>>> REPLACE",
      ),
    );
    expect(opList(edits(giant)[0]!)).toHaveLength(2 * n);
  });
});
