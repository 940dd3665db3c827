import { describe, expect, it } from "vitest";
import { parseReply } from "../../../src/formats/registry.js";
import { as, edits, opList, parseOne, parseProblem, problems, reply } from "./helpers.js";

const patch = (...lines: string[]): string => reply("*** Begin Patch", ...lines, "*** End Patch");

describe("apply_patch: sections", () => {
  it("Add File creates the file from its '+' lines", () => {
    const edit = as(parseOne(patch("*** Add File: docs/new.md", "+# New", "+", "+text")), "create");
    expect(edit).toEqual({
      kind: "create",
      path: "docs/new.md",
      content: "# New\n\ntext\n",
      origin: { format: "patch", line: 2 },
    });
  });

  it("a context line whose text starts with '@@' stays a context line; a tab-indented header is a header", () => {
    const edit = parseOne(
      patch("*** Update File: t/t9400.sh", "@@", " \t--- a/file", "+\techo probe", " \t@@ -1,3 +1,3 @@"),
    );
    expect(opList(edit)).toEqual(["c:\t--- a/file", "+:\techo probe", "c:\t@@ -1,3 +1,3 @@"]);
    const two = edits(
      parseReply(patch("*** Update File: a.py", "@@ def f():", "-a", "+b", "\t@@ def g():", "-c", "+d")),
    );
    expect(two).toHaveLength(2);
  });

  it("Delete File deletes", () => {
    expect(as(parseOne(patch("*** Delete File: old/x.py")), "delete")).toEqual({
      kind: "delete",
      path: "old/x.py",
      origin: { format: "patch", line: 2 },
    });
  });

  it("Update File gives a replace edit per chunk with explicit ops", () => {
    const text = patch(
      "*** Update File: src/a.py",
      "@@ def f():",
      "     x = 1",
      "-    return x",
      "+    return x + 1",
      "@@ def g():",
      "-    pass",
      "+    return 0",
    );
    const found = edits(parseReply(text));
    expect(found).toHaveLength(2);
    const first = as(found[0], "replace");
    expect(first).toMatchObject({
      path: "src/a.py",
      explicitOps: true,
      hint: { anchors: ["def f():"] },
      origin: { format: "patch", line: 3 },
    });
    expect(opList(first)).toEqual(["c:    x = 1", "-:    return x", "+:    return x + 1"]);
    expect(as(found[1], "replace").hint).toEqual({ anchors: ["def g():"] });
  });

  it("the first chunk may omit '@@'", () => {
    const edit = as(parseOne(patch("*** Update File: a.txt", " keep", "-old", "+new")), "replace");
    expect(edit.hint).toEqual({});
    expect(edit.origin.line).toBe(3);
    expect(opList(edit)).toEqual(["c:keep", "-:old", "+:new"]);
  });

  it("consecutive '@@ anchor' lines nest, outermost first", () => {
    const edit = as(
      parseOne(
        patch(
          "*** Update File: a.py",
          "@@ class Shop:",
          "@@     def total(self):",
          "-        return 0",
          "+        return sum(self.items)",
        ),
      ),
      "replace",
    );
    expect(edit.hint.anchors).toEqual(["class Shop:", "def total(self):"]);
    expect(edit.origin.line).toBe(3);
  });

  it("'*** End of File' marks the chunk as ending the file", () => {
    const edit = as(
      parseOne(patch("*** Update File: a.go", "@@", " }", "+", "+func New() {}", "*** End of File")),
      "replace",
    );
    expect(edit.hint).toEqual({ atEndOfFile: true });
    expect(opList(edit)).toEqual(["c:}", "+:", "+:func New() {}"]);
  });

  it("reads an empty line as an empty context line, but drops trailing ones", () => {
    expect(opList(parseOne(patch("*** Update File: a.py", "@@", " a", "", "-b", "+c", "", "")))).toEqual([
      "c:a",
      "c:",
      "-:b",
      "+:c",
    ]);
  });

  it("Move to: the replace edits on the old path come first, then the rename", () => {
    const text = patch("*** Update File: src/old.ts", "*** Move to: src/new.ts", "@@", "-a", "+b");
    const found = edits(parseReply(text));
    expect(found.map((e) => e.kind)).toEqual(["replace", "rename"]);
    expect(found[0]!.path).toBe("src/old.ts");
    expect(as(found[1], "rename")).toMatchObject({ path: "src/old.ts", to: "src/new.ts", origin: { line: 3 } });
  });

  it("a pure move (no chunks) is only a rename", () => {
    expect(as(parseOne(patch("*** Update File: a.txt", "*** Move to: b.txt")), "rename")).toMatchObject({
      path: "a.txt",
      to: "b.txt",
    });
  });

  it("several files of every kind in one patch, in order", () => {
    const text = patch(
      "*** Add File: n.txt",
      "+n",
      "*** Update File: u.txt",
      "@@",
      "-a",
      "+b",
      "*** Delete File: d.txt",
    );
    expect(edits(parseReply(text)).map((e) => `${e.kind}:${e.path}`)).toEqual([
      "create:n.txt",
      "replace:u.txt",
      "delete:d.txt",
    ]);
  });

  it("reads a udiff-style header inside a patch as a line hint and an anchor", () => {
    const edit = as(parseOne(patch("*** Update File: a.py", "@@ -12,3 +12,4 @@ def f():", "-x", "+y")), "replace");
    expect(edit.hint).toEqual({ line: 12, anchors: ["def f():"] });
  });

  it("cleans decorated paths in headers", () => {
    expect(parseOne(patch("*** Update File: `./src/a.py`", "@@", "-a", "+b")).path).toBe("src/a.py");
  });

  it("turns context elision lines into elision ops", () => {
    expect(
      opList(
        parseOne(
          patch("*** Update File: a.ts", "@@", " f() {", " // ... existing code ...", "-  return 1;", "+  return 2;"),
        ),
      ),
    ).toEqual(["c:f() {", "e:// ... existing code ...", "-:  return 1;", "+:  return 2;"]);
  });
});

describe("apply_patch: tolerated wrappers", () => {
  it("tolerates padded markers", () => {
    const edit = parseOne(
      reply("  *** Begin Patch  ", " *** Update File: a.txt ", "@@", "-a", "+b", "  *** End Patch"),
    );
    expect(edit.path).toBe("a.txt");
  });

  it("tolerates a missing Begin when a section header is present", () => {
    expect(parseOne(reply("*** Update File: a.txt", "@@", "-a", "+b", "*** End Patch")).path).toBe("a.txt");
  });

  it("a bare patch without Begin or End ends at the first prose line", () => {
    const items = parseReply(reply("*** Update File: a.txt", "@@", "-a", "+b", "", "That should do it."));
    expect(items).toHaveLength(1);
    expect(opList(edits(items)[0]!)).toEqual(["-:a", "+:b"]);
  });

  it("unwraps an apply_patch heredoc", () => {
    const text = reply(
      "```bash",
      "apply_patch <<'EOF'",
      "*** Begin Patch",
      "*** Add File: hello.txt",
      "+hi",
      "*** End Patch",
      "EOF",
      "```",
    );
    expect(as(parseOne(text), "create")).toMatchObject({ path: "hello.txt", content: "hi\n" });
  });

  it("reads a patch inside a fence, before any udiff reading of its '@@' lines", () => {
    const text = reply(
      "```diff",
      "*** Begin Patch",
      "*** Update File: a.txt",
      "@@ top",
      "-a",
      "+b",
      "*** End Patch",
      "```",
    );
    expect(as(parseOne(text), "replace").origin.format).toBe("patch");
  });
});

describe("apply_patch: malformed and truncated", () => {
  it("a patch without End is truncated: a problem, and its last section is not kept", () => {
    const items = parseReply(
      patch("*** Add File: a.txt", "+a", "*** Update File: b.txt", "@@", "-x").replace(/\n\*\*\* End Patch$/, ""),
    );
    expect(items.map((i) => i.type)).toEqual(["edit", "problem"]);
    expect(edits(items)[0]!.path).toBe("a.txt");
    const p = problems(items)[0]!;
    expect(p).toMatchObject({ format: "patch", line: 4 });
    expect(p.message).toContain("has no '*** End Patch'");
    expect(p.message).toContain("the reply ends at line 6");
  });

  it("a fence that closes before '*** End Patch' is a problem too", () => {
    const items = parseReply(reply("```", "*** Begin Patch", "*** Delete File: a.txt", "```", "Done."));
    expect(items.map((i) => i.type)).toEqual(["problem"]);
    expect(problems(items)[0]!.message).toContain("line 4 ends the block before it");
  });

  it("an invalid line inside an update is a problem quoting it and listing the valid prefixes", () => {
    const p = parseProblem(patch("*** Update File: a.py", "@@", " a", "oops no prefix", "+b"));
    expect(p).toMatchObject({ format: "patch", line: 5, path: "a.py" });
    expect(p.message).toContain("'oops no prefix'");
    expect(p.message).toContain("' ' (context), '-' (removed), '+' (added)");
  });

  it("the sections after an invalid one still parse", () => {
    const items = parseReply(patch("*** Update File: a.py", "@@", "bad", "*** Delete File: b.py"));
    expect(items.map((i) => i.type)).toEqual(["problem", "edit"]);
    expect(edits(items)[0]!.kind).toBe("delete");
  });

  it("an invalid header line is a problem naming the valid headers", () => {
    const items = parseReply(patch("*** Modify File: a.py", "@@", "-a", "+b"));
    expect(problems(items)[0]!.message).toContain(
      "'*** Add File: path', '*** Delete File: path', '*** Update File: path'",
    );
    expect(problems(items)[0]!.line).toBe(2);
  });

  it("a non-'+' line in an added file is a problem", () => {
    expect(parseProblem(patch("*** Add File: a.txt", "+a", "b")).message).toContain("lines start with '+'");
  });

  it("an update without changes is a problem", () => {
    expect(parseProblem(patch("*** Update File: a.txt", "@@ anchor")).message).toContain("has no lines");
    expect(parseProblem(patch("*** Update File: a.txt", " only context")).message).toContain("has no changes");
  });

  it("a header without a path is a problem", () => {
    expect(parseProblem(patch("*** Add File: ", "+x")).message).toContain("needs a path");
  });
});
