import { describe, expect, it } from "vitest";
import { parseReply } from "../../../src/formats/registry.js";
import { as, edits, opList, parseOne, parseProblem, problems, reply } from "./helpers.js";

const fenced = (...lines: string[]): string => reply("```diff", ...lines, "```");

describe("unified diff: git style", () => {
  it("reads a git diff into one replace edit per hunk with explicit ops and the old start as hint", () => {
    const text = reply(
      "Here is the patch:",
      "```diff",
      "diff --git a/src/app.py b/src/app.py",
      "index 3b18e51..a9c4d2f 100644",
      "--- a/src/app.py",
      "+++ b/src/app.py",
      "@@ -10,3 +10,3 @@ def main():",
      "     setup()",
      "-    run(1)",
      "+    run(2)",
      "     teardown()",
      "```",
    );
    const edit = as(parseOne(text), "replace");
    expect(edit).toMatchObject({
      path: "src/app.py",
      explicitOps: true,
      hint: { line: 10 },
      origin: { format: "udiff", line: 7 },
    });
    expect(opList(edit)).toEqual(["c:    setup()", "-:    run(1)", "+:    run(2)", "c:    teardown()"]);
    expect(edit.oldEndsWithoutNewline).toBeUndefined();
  });

  it("several hunks and several files, in reply order", () => {
    const text = fenced(
      "diff --git a/a.txt b/a.txt",
      "--- a/a.txt",
      "+++ b/a.txt",
      "@@ -1,2 +1,2 @@",
      " one",
      "-two",
      "+TWO",
      "@@ -20,2 +20,2 @@",
      " twenty",
      "-x",
      "+y",
      "diff --git a/b/c.txt b/b/c.txt",
      "--- a/b/c.txt",
      "+++ b/b/c.txt",
      "@@ -5 +5 @@",
      "-old",
      "+new",
    );
    const found = edits(parseReply(text));
    expect(found.map((e) => [e.path, as(e, "replace").hint.line, e.origin.line])).toEqual([
      ["a.txt", 1, 5],
      ["a.txt", 20, 9],
      ["b/c.txt", 5, 16],
    ]);
  });

  it("new file mode with /dev/null creates the file from the '+' lines", () => {
    const text = fenced(
      "diff --git a/n.py b/n.py",
      "new file mode 100644",
      "index 0000000..e69de29",
      "--- /dev/null",
      "+++ b/n.py",
      "@@ -0,0 +1,2 @@",
      "+A = 1",
      "+B = 2",
    );
    const edit = as(parseOne(text), "create");
    expect(edit).toMatchObject({ path: "n.py", content: "A = 1\nB = 2\n", origin: { format: "udiff", line: 2 } });
  });

  it("new file mode without hunks creates an empty file", () => {
    expect(
      as(parseOne(fenced("diff --git a/empty b/empty", "new file mode 100644", "index 0000000..e69de29")), "create"),
    ).toMatchObject({
      path: "empty",
      content: "",
    });
  });

  it("deleted file mode deletes, with or without hunks", () => {
    expect(
      as(
        parseOne(
          fenced(
            "diff --git a/old.txt b/old.txt",
            "deleted file mode 100644",
            "--- a/old.txt",
            "+++ /dev/null",
            "@@ -1 +0,0 @@",
            "-bye",
          ),
        ),
        "delete",
      ).path,
    ).toBe("old.txt");
    expect(
      parseOne(fenced("diff --git a/old.txt b/old.txt", "deleted file mode 100644", "index e69de29..0000000")).kind,
    ).toBe("delete");
  });

  it("a rename without hunks is a rename edit", () => {
    const text = fenced(
      "diff --git a/old/x.ts b/new/x.ts",
      "similarity index 100%",
      "rename from old/x.ts",
      "rename to new/x.ts",
    );
    expect(as(parseOne(text), "rename")).toMatchObject({ path: "old/x.ts", to: "new/x.ts", origin: { line: 2 } });
  });

  it("a rename with hunks is a rename followed by replace edits on the new path", () => {
    const text = fenced(
      "diff --git a/old/x.ts b/new/x.ts",
      "similarity index 90%",
      "rename from old/x.ts",
      "rename to new/x.ts",
      "--- a/old/x.ts",
      "+++ b/new/x.ts",
      "@@ -1 +1 @@",
      "-a",
      "+b",
    );
    const found = edits(parseReply(text));
    expect(found.map((e) => e.kind)).toEqual(["rename", "replace"]);
    expect(found[1]!.path).toBe("new/x.ts");
  });

  it("a new file of mode 100755 is created executable; one of 100644 plainly", () => {
    const created = (mode: string) =>
      as(
        parseOne(
          fenced(
            "diff --git a/bin/run b/bin/run",
            `new file mode ${mode}`,
            "--- /dev/null",
            "+++ b/bin/run",
            "@@ -0,0 +1 @@",
            "+#!/bin/sh",
          ),
        ),
        "create",
      );
    expect(created("100755")).toMatchObject({ path: "bin/run", content: "#!/bin/sh\n", executable: true });
    expect(created("100644").executable).toBeUndefined();
  });

  it("a mode change is a mode edit, alone or before the hunks of its file; the same mode twice is none", () => {
    const alone = fenced("diff --git a/run.sh b/run.sh", "old mode 100644", "new mode 100755");
    expect(as(parseOne(alone), "mode")).toMatchObject({ path: "run.sh", executable: true, origin: { line: 2 } });
    const withHunk = fenced(
      "diff --git a/run.sh b/run.sh",
      "old mode 100755",
      "new mode 100644",
      "--- a/run.sh",
      "+++ b/run.sh",
      "@@ -1 +1 @@",
      "-a",
      "+b",
    );
    const found = edits(parseReply(withHunk));
    expect(found.map((e) => e.kind)).toEqual(["mode", "replace"]);
    expect(as(found[0], "mode").executable).toBe(false);
    const same = fenced("diff --git a/run.sh b/run.sh", "old mode 100644", "new mode 100644");
    expect(parseProblem(same).message).toContain("has a header but no hunk");
  });

  it("a rename that changes the mode is a rename, then a mode edit of the new path", () => {
    const text = fenced(
      "diff --git a/a.sh b/b.sh",
      "old mode 100644",
      "new mode 100755",
      "similarity index 100%",
      "rename from a.sh",
      "rename to b.sh",
    );
    const found = edits(parseReply(text));
    expect(found.map((e) => e.kind)).toEqual(["rename", "mode"]);
    expect(as(found[1], "mode")).toMatchObject({ path: "b.sh", executable: true });
  });

  it("a copy is a copy edit, then the hunks on the copy", () => {
    const text = fenced(
      "diff --git a/src/util.ts b/lib/util.ts",
      "similarity index 90%",
      "copy from src/util.ts",
      "copy to lib/util.ts",
      "--- a/src/util.ts",
      "+++ b/lib/util.ts",
      "@@ -1 +1 @@",
      "-a",
      "+b",
    );
    const found = edits(parseReply(text));
    expect(found.map((e) => e.kind)).toEqual(["copy", "replace"]);
    expect(as(found[0], "copy")).toMatchObject({ path: "src/util.ts", to: "lib/util.ts" });
    expect(found[1]!.path).toBe("lib/util.ts");
  });

  it("a symbolic link or submodule mode is refused, naming the mode, rather than written as a file", () => {
    const link = fenced(
      "diff --git a/latest b/latest",
      "new file mode 120000",
      "--- /dev/null",
      "+++ b/latest",
      "@@ -0,0 +1 @@",
      "+v2",
    );
    expect(parseProblem(link).message).toMatch(/latest mode 120000, which is not a regular file/);
    const toLink = fenced("diff --git a/x b/x", "old mode 100644", "new mode 120000");
    expect(parseProblem(toLink)).toMatchObject({ path: "x", line: 2 });
  });

  it("a mailed patch (git format-patch) ends its last hunk at the signature, which is not a removed line", () => {
    const mail = (...tail: string[]) =>
      reply(
        "From 0123abc Mon Sep 17 00:00:00 2001",
        "Subject: [PATCH] fix: add adds",
        "---",
        " add.js | 2 +-",
        " 1 file changed, 1 insertion(+), 1 deletion(-)",
        "",
        "diff --git a/add.js b/add.js",
        "--- a/add.js",
        "+++ b/add.js",
        "@@ -1,3 +1,3 @@",
        " function add(a, b) {",
        "-  return a - b;",
        "+  return a + b;",
        " }",
        ...tail,
      );
    expect(opList(parseOne(mail("-- ", "2.39.5", "")))).toEqual([
      "c:function add(a, b) {",
      "-:  return a - b;",
      "+:  return a + b;",
      "c:}",
    ]);
    // Past its counts, a hunk still reads a removal of a line "- " that more hunk lines follow.
    expect(opList(parseOne(mail("-- ", " x")))).toEqual([
      "c:function add(a, b) {",
      "-:  return a - b;",
      "+:  return a + b;",
      "c:}",
      "-:- ",
      "c:x",
    ]);
  });

  it("reads names git quotes: octal escapes are UTF-8 bytes, C escapes their characters, in every header", () => {
    const text = fenced(
      'diff --git "a/docs/caf\\303\\251 notes.md" "b/docs/caf\\303\\251 notes.md"',
      'rename from "docs/caf\\303\\251 notes.md"',
      'rename to "docs/\\360\\237\\215\\225 \\"tab\\"\\t.md"',
      '--- "a/docs/caf\\303\\251 notes.md"\t',
      '+++ "b/docs/\\360\\237\\215\\225 \\"tab\\"\\t.md"\t',
      "@@ -1 +1 @@",
      "-a",
      "+b",
    );
    const found = edits(parseReply(text));
    expect(as(found[0], "rename")).toMatchObject({ path: "docs/café notes.md", to: 'docs/🍕 "tab"\t.md' });
    expect(found[1]!.path).toBe('docs/🍕 "tab"\t.md');
    // A name git did not quote is not decoded: its backslash is a folder separator, as in any header path.
    expect(parseOne(fenced("--- a/x\\303.txt", "+++ b/x\\303.txt", "@@ -1 +1 @@", "-a", "+b")).path).toBe("x/303.txt");
  });

  it("reads git headers whose names contain spaces", () => {
    const text = fenced(
      "diff --git a/my dir/f.txt b/my dir/f.txt",
      "--- a/my dir/f.txt",
      "+++ b/my dir/f.txt",
      "@@ @@",
      "-a",
      "+b",
    );
    expect(parseOne(text).path).toBe("my dir/f.txt");
  });

  it.each([
    [
      "GIT binary patch",
      [
        "diff --git a/img.png b/img.png",
        "index 1..2 100644",
        "GIT binary patch",
        "literal 12",
        "zcmV-abc",
        "",
        "literal 0",
        "HcmV?d00001",
        "",
      ],
    ],
    [
      "Binary files differ",
      ["diff --git a/img.png b/img.png", "index 1..2 100644", "Binary files a/img.png and b/img.png differ"],
    ],
  ])("refuses a binary patch (%s)", (_name, lines) => {
    const p = parseProblem(fenced(...lines));
    expect(p).toMatchObject({ format: "udiff", line: 2, path: "img.png" });
    expect(p.message).toContain("binary");
  });
});

describe("unified diff: a deleted binary file", () => {
  it("is a deletion: it needs none of the file's bytes", () => {
    const text = fenced(
      "diff --git a/img.png b/img.png",
      "deleted file mode 100644",
      "index d41be67..0000000",
      "Binary files a/img.png and /dev/null differ",
    );
    expect(as(parseOne(text), "delete")).toMatchObject({ path: "img.png", origin: { line: 2 } });
  });
});

describe("unified diff: malformed and truncated", () => {
  it("a diff header without any hunk is a problem", () => {
    const items = parseReply(fenced("diff --git a/x.py b/x.py", "index 1..2 100644", "--- a/x.py", "+++ b/x.py"));
    expect(problems(items)).toHaveLength(1);
    expect(problems(items)[0]).toMatchObject({ line: 2, path: "x.py" });
    expect(problems(items)[0]!.message).toContain("no hunk");
  });

  it("a stray line inside a fenced hunk makes that hunk a problem, the next hunk still parses", () => {
    const text = fenced(
      "--- a/x.py",
      "+++ b/x.py",
      "@@ @@",
      " a",
      "-b",
      "forgot the prefix",
      "+c",
      "@@ @@",
      "-d",
      "+e",
    );
    const items = parseReply(text);
    expect(items.map((i) => i.type)).toEqual(["problem", "edit"]);
    expect(problems(items)[0]).toMatchObject({ line: 7, path: "x.py" });
    expect(problems(items)[0]!.message).toContain("'forgot the prefix'");
    expect(opList(edits(items)[0]!)).toEqual(["-:d", "+:e"]);
  });

  /** A fenced one-hunk diff of x.js under `header`. */
  const xjs = (header: string, ...body: string[]): string => fenced("--- a/x.js", "+++ b/x.js", header, ...body);
  const RETURN = ["-  return 1;", "+  return 2;"];
  const NESTED = ["c:function f() {", "c:  if (x) {", "-:    return 1;", "+:    return 2;", "c:  }", "c:}"];

  it("in a fence, lines that lost their leading space are context when the header counts them exactly", () => {
    const text = xjs("@@ -1,4 +1,4 @@", "function f() {", ...RETURN, "}", "");
    expect(opList(parseOne(text))).toEqual(["c:function f() {", "-:  return 1;", "+:  return 2;", "c:}", "c:"]);
  });

  it("context written as the code itself, the diff's space dropped from every line, is read as written", () => {
    const changed = ["-    return 1;", "+    return 2;"];
    const text = xjs("@@ -1,5 +1,5 @@", "function f() {", "  if (x) {", ...changed, "  }", "}");
    expect(opList(parseOne(text))).toEqual(NESTED);
    // With the diff's space kept on the indented lines (an odd number of spaces in front), they lose it as usual.
    const kept = xjs("@@ -1,5 +1,5 @@", "function f() {", "   if (x) {", ...changed, "   }", "}");
    expect(opList(parseOne(kept))).toEqual(NESTED);
  });

  it("unprefixed lines the counts do not ask for, or without counts, stay a problem", () => {
    // One line too many for the counts.
    expect(parseReply(xjs("@@ -1,2 +1,2 @@", "function f() {", ...RETURN, "}")).map((i) => i.type)).toEqual([
      "problem",
    ]);
    // No counts: nothing says the line belongs to the hunk.
    expect(parseReply(xjs("@@ @@", "function f() {", ...RETURN)).map((i) => i.type)).toEqual(["problem"]);
    // A closing fence is never context, even where the counts ask for more lines.
    const short = reply("```diff", "--- a/x.js", "+++ b/x.js", "@@ -1,4 +1,4 @@", "function f() {", ...RETURN);
    expect(parseReply(`${short}\n\`\`\`\n}\n\nDone.`).map((i) => i.type)).toEqual(["problem"]);
    // A marker of another dialect is never context.
    expect(parseReply(xjs("@@ -1,2 +1,2 @@", "=======", ...RETURN)).map((i) => i.type)).toEqual(["problem"]);
  });

  it("a fenced diff that is never closed is a problem for its last hunk", () => {
    const items = parseReply(
      reply("```diff", "--- a/x.py", "+++ b/x.py", "@@ -1 +1 @@", "-a", "+b", "@@ -9 +9 @@", "-c"),
    );
    expect(items.map((i) => i.type)).toEqual(["edit", "problem"]);
    expect(problems(items)[0]).toMatchObject({ line: 7, format: "udiff" });
    expect(problems(items)[0]!.message).toContain("not closed");
  });

  it("a bare diff may end with the reply", () => {
    expect(parseOne(reply("--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a", "+b")).kind).toBe("replace");
  });
});
