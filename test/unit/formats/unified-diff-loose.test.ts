import { describe, expect, it } from "vitest";
import { parseReply } from "../../../src/formats/registry.js";
import { datedAbsent } from "../../../src/formats/unified-diff/header-dates.js";
import { as, edits, opList, parseOne, parseProblem, reply } from "./helpers.js";

const fenced = (...lines: string[]): string => reply("```diff", ...lines, "```");

describe("unified diff: plain and loose forms", () => {
  it("keeps names without a/ b/ prefixes as written", () => {
    expect(parseOne(reply("--- src/a.py", "+++ src/a.py", "@@ -1 +1 @@", "-x", "+y")).path).toBe("src/a.py");
  });

  it("does not strip a/ from only one side", () => {
    expect(parseOne(reply("--- a/src/a.py", "+++ src/a.py", "@@ -1 +1 @@", "-x", "+y")).path).toBe("src/a.py");
    expect(parseOne(reply("--- a/x.py", "+++ a/x.py", "@@ -1 +1 @@", "-x", "+y")).path).toBe("a/x.py");
  });

  it("strips tab-separated and space-separated timestamps", () => {
    const text = reply(
      "--- a.txt\t2024-01-01 10:00:00.000000000 +0100",
      "+++ a.txt\t2024-01-02 11:00:00.000000000 +0100",
      "@@ -1 +1 @@",
      "-x",
      "+y",
    );
    expect(parseOne(text).path).toBe("a.txt");
    expect(
      parseOne(reply("--- a.txt 2024-01-01 10:00:00", "+++ a.txt 2024-01-01 10:00:01", "@@ -1 +1 @@", "-x", "+y")).path,
    ).toBe("a.txt");
  });

  it("diff -ruN over two folders: the folders go, a side dated at the epoch is absent (create, delete)", () => {
    const text = reply(
      "diff -ruN old/src/add.js new/src/add.js",
      "--- old/src/add.js\t2026-12-07 16:13:43.510022822 +0000",
      "+++ new/src/add.js\t2026-12-07 16:13:43.510022822 +0000",
      "@@ -1 +1 @@",
      "-a",
      "+b",
      "diff -ruN old/extra.js new/extra.js",
      "--- old/extra.js\t1970-01-01 00:00:00.000000000 +0000",
      "+++ new/extra.js\t2026-12-07 16:13:43.510022822 +0000",
      "@@ -0,0 +1 @@",
      "+x",
      "diff -ruN old/gone.js new/gone.js",
      "--- old/gone.js\t2026-12-07 16:13:43.510022822 +0000",
      "+++ new/gone.js\t1969-12-31 19:00:00.000000000 -0500",
      "@@ -1 +0,0 @@",
      "-bye",
    );
    expect(edits(parseReply(text)).map((e) => `${e.kind}:${e.path}`)).toEqual([
      "replace:src/add.js",
      "create:extra.js",
      "delete:gone.js",
    ]);
  });

  it("names without times (a model's, not diff's over two trees) keep their folders", () => {
    expect(parseOne(reply("--- lib/x.js", "+++ src/x.js", "@@ -1 +1 @@", "-a", "+b")).path).toBe("src/x.js");
  });

  it("the epoch is told in any zone and in both formats diff writes; other times are not it", () => {
    expect(datedAbsent("x\t1970-01-01 00:00:00.000000000 +0000")).toBe(true);
    expect(datedAbsent("x\t1970-01-01 01:00:00 +0100")).toBe(true);
    expect(datedAbsent("x\tThu Jan  1 00:00:00 1970")).toBe(true);
    expect(datedAbsent("x\tWed Dec 31 16:00:00 1969")).toBe(true);
    expect(datedAbsent("x\t1970-01-01 00:00:01.000000000 +0000")).toBe(false);
    expect(datedAbsent("x\t2024-01-01 10:00:00 +0100")).toBe(false);
    expect(datedAbsent("a/1970-01-01.txt")).toBe(false);
  });

  it("cleans decorations models put on header paths", () => {
    expect(parseOne(reply("--- a/`src/a.py`", "+++ b/`src/a.py`", "@@ @@", "-x", "+y")).path).toBe("src/a.py");
  });

  it.each(["@@ @@", "@@ ... @@", "@@", "@@ -? +? @@"])("accepts the loose hunk header %j (no line hint)", (header) => {
    const edit = as(parseOne(fenced("--- a/f.js", "+++ b/f.js", header, " a", "-b", "+c")), "replace");
    expect(edit.hint).toEqual({});
    expect(opList(edit)).toEqual(["c:a", "-:b", "+:c"]);
  });

  it("tolerates wrong line numbers and counts that are too small", () => {
    const edit = as(
      parseOne(fenced("--- a/f.js", "+++ b/f.js", "@@ -99,1 +99,1 @@", " a", "-b", "+c", " d", " e")),
      "replace",
    );
    expect(edit.hint).toEqual({ line: 99 });
    expect(opList(edit)).toEqual(["c:a", "-:b", "+:c", "c:d", "c:e"]);
  });

  it("reads an empty line inside a hunk as a blank context line", () => {
    expect(
      opList(parseOne(fenced("--- a/f.py", "+++ b/f.py", "@@ @@", " def f():", "", "-    pass", "+    return 1"))),
    ).toEqual(["c:def f():", "c:", "-:    pass", "+:    return 1"]);
  });

  it("drops trailing empty lines when the header has no counts", () => {
    expect(opList(parseOne(reply("--- a/f", "+++ b/f", "@@ @@", "-x", "+y", "", "", "That is all.")))).toEqual([
      "-:x",
      "+:y",
    ]);
  });

  it("keeps trailing empty lines the counts ask for, and no more", () => {
    const edit = parseOne(fenced("--- a/f", "+++ b/f", "@@ -1,3 +1,3 @@", "-x", "+y", " z", "", "", ""));
    expect(opList(edit)).toEqual(["-:x", "+:y", "c:z", "c:"]);
  });

  it("honours '\\ No newline at end of file' on each side", () => {
    const edit = as(
      parseOne(
        fenced(
          "--- a/s.json",
          "+++ b/s.json",
          "@@ -2,2 +2,2 @@",
          " a",
          "-}",
          "\\ No newline at end of file",
          "+}",
          "\\ No newline at end of file",
        ),
      ),
      "replace",
    );
    expect(edit.oldEndsWithoutNewline).toBe(true);
    expect(edit.newEndsWithoutNewline).toBe(true);
    expect(opList(edit)).toEqual(["c:a", "-:}", "+:}"]);
    const adds = as(
      parseOne(fenced("--- a/s", "+++ b/s", "@@ -1 +1 @@", "-}", "\\ No newline at end of file", "+}")),
      "replace",
    );
    expect(adds.oldEndsWithoutNewline).toBe(true);
    expect(adds.newEndsWithoutNewline).toBe(false);
    const removes = as(
      parseOne(fenced("--- a/s", "+++ b/s", "@@ -1 +1 @@", "-}", "+}", "\\ No newline at end of file")),
      "replace",
    );
    expect([removes.oldEndsWithoutNewline, removes.newEndsWithoutNewline]).toEqual([false, true]);
  });

  it("--- /dev/null creates; the content ends without newline when told", () => {
    expect(
      as(parseOne(fenced("--- /dev/null", "+++ b/new.txt", "@@ -0,0 +1,2 @@", "+one", "+two")), "create").content,
    ).toBe("one\ntwo\n");
    const bare = as(
      parseOne(fenced("--- /dev/null", "+++ b/new.txt", "@@ -0,0 +1 @@", "+one", "\\ No newline at end of file")),
      "create",
    );
    expect(bare.content).toBe("one");
  });

  it("a created file keeps blank lines whose '+' the model dropped", () => {
    expect(
      as(parseOne(fenced("--- /dev/null", "+++ b/n.py", "@@ -0,0 +1,3 @@", "+a", "", "+b")), "create").content,
    ).toBe("a\n\nb\n");
  });

  it("refuses context or removed lines in a created file", () => {
    expect(parseProblem(fenced("--- /dev/null", "+++ b/n.py", "@@ @@", " a", "+b")).message).toContain(
      "can only hold '+' lines",
    );
  });

  it("+++ /dev/null deletes", () => {
    expect(as(parseOne(reply("--- a/gone.txt", "+++ /dev/null", "@@ -1 +0,0 @@", "-bye")), "delete").path).toBe(
      "gone.txt",
    );
  });

  it("a hunk with only '+' lines on an existing file is still a replace edit", () => {
    const edit = as(parseOne(fenced("--- a/f.md", "+++ b/f.md", "@@ -0,0 +1 @@", "+# Title")), "replace");
    expect(opList(edit)).toEqual(["+:# Title"]);
    expect(edit.hint).toEqual({});
  });

  it("a hunk with context only changes nothing and yields nothing", () => {
    expect(parseReply(fenced("--- a/f", "+++ b/f", "@@ @@", " a", " b"))).toEqual([]);
  });

  it("a removed line that reads '--- x' is not mistaken for a file header", () => {
    expect(
      opList(
        parseOne(fenced("--- a/q.sql", "+++ b/q.sql", "@@ @@", "--- comment", "+-- better comment", " select 1;")),
      ),
    ).toEqual(["-:-- comment", "+:-- better comment", "c:select 1;"]);
  });

  it("turns a context elision line into an elision op", () => {
    expect(
      opList(
        parseOne(
          fenced(
            "--- a/f.ts",
            "+++ b/f.ts",
            "@@ @@",
            " class A {",
            " // ... existing code ...",
            "-  x = 1;",
            "+  x = 2;",
          ),
        ),
      ),
    ).toEqual(["c:class A {", "e:// ... existing code ...", "-:  x = 1;", "+:  x = 2;"]);
  });

  it("several files in a bare diff, with prose around", () => {
    const text = reply(
      "Two files:",
      "--- a/x.c",
      "+++ b/x.c",
      "@@ @@",
      "-1",
      "+2",
      "",
      "--- a/y.c",
      "+++ b/y.c",
      "@@ @@",
      "-3",
      "+4",
      "",
      "Hope it helps.",
    );
    expect(edits(parseReply(text)).map((e) => e.path)).toEqual(["x.c", "y.c"]);
  });

  it("a line that is not a hunk line ends an unfenced diff", () => {
    const items = parseReply(
      reply("--- a/x", "+++ b/x", "@@ @@", "-1", "+2", "Then run the tests.", "+not part of the diff"),
    );
    expect(items).toHaveLength(1);
    expect(opList(edits(items)[0]!)).toEqual(["-:1", "+:2"]);
  });

  it("hunks without file headers in a fence take the path above the fence", () => {
    const text = reply("src/util.ts", "```diff", "@@ ... @@", "-a", "+b", "@@ ... @@", "-c", "+d", "```");
    expect(edits(parseReply(text)).map((e) => e.path)).toEqual(["src/util.ts", "src/util.ts"]);
  });

  it("a diff fence with hunks and no path at all is a problem", () => {
    expect(parseProblem(reply("```diff", "@@ @@", "-a", "+b", "```")).message).toContain("path");
  });
});
