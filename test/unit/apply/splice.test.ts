import { describe, expect, it } from "vitest";
import type { LineOp } from "../../../src/core/edit.js";
import { parseText, serializeText } from "../../../src/core/text.js";
import { renderReplacement } from "../../../src/apply/splice.js";
import { applyOps, applySR, lines, replaceEdit, searchReplace } from "../matcher/helpers.js";

describe("renderReplacement: preservation", () => {
  it("CRLF file with LF model text keeps CRLF on every line, new ones included", () => {
    const after = applySR("a\r\nb\r\nc\r\n", "b", "B\nB2");
    expect(after).toBe("a\r\nB\r\nB2\r\nc\r\n");
  });

  it("model text that kept its \\r does not double the carriage return", () => {
    expect(applySR("a\r\nb\r\n", "b\r", "B\r\nC\r")).toBe("a\r\nB\r\nC\r\n");
  });

  it("a stray LF line in a CRLF file stays LF; new lines take the dominant CRLF", () => {
    const after = applySR("a\r\nb\nc\r\nd\r\n", "b\nc", "b\nnew\nc");
    expect(after).toBe("a\r\nb\nnew\r\nc\r\nd\r\n");
  });

  it("keeps the BOM and lets line 1 be edited", () => {
    expect(applySR("\uFEFFfirst\nsecond\n", "first", "FIRST")).toBe("\uFEFFFIRST\nsecond\n");
  });

  it("keeps a missing final newline", () => {
    expect(applySR("a\nb", "b", "B")).toBe("a\nB");
    expect(applySR("a\nb", "b", "B\nC")).toBe("a\nB\nC");
    expect(applySR("a\r\nb", "a\nb", "a\nb\nc")).toBe("a\r\nb\r\nc");
  });

  it("appending after a last line without newline gives that line an ending", () => {
    const after = applyOps("a\nb", [{ op: "add", text: "c" }], { atEndOfFile: true });
    expect(after).toMatchObject({ ok: true, after: "a\nb\nc" });
  });

  it("changes the final newline only when the two sides of the diff disagree about it", () => {
    const ops = searchReplace("b", "B");
    expect(applyOps("a\nb\n", ops, {}, {}, { newEndsWithoutNewline: true })).toMatchObject({ after: "a\nB" });
    expect(applyOps("a\nb", ops, {}, {}, { oldEndsWithoutNewline: true, newEndsWithoutNewline: false })).toMatchObject({
      after: "a\nB\n",
    });
    // Both sides say "no newline" (or neither does): the file keeps the state it has.
    expect(applyOps("a\nb\n", ops, {}, {}, { oldEndsWithoutNewline: true, newEndsWithoutNewline: true })).toMatchObject(
      { after: "a\nB\n" },
    );
    expect(applyOps("a\nb", ops, {}, {}, { newEndsWithoutNewline: false })).toMatchObject({ after: "a\nB" });
  });

  it("an empty file gets LF endings and a final newline", () => {
    expect(
      applyOps("", [
        { op: "add", text: "x" },
        { op: "add", text: "y" },
      ]),
    ).toMatchObject({ after: "x\ny\n" });
    expect(applyOps("", [{ op: "add", text: "x" }], {}, {}, { newEndsWithoutNewline: true })).toMatchObject({
      after: "x",
    });
  });

  it("untouched lines are byte-identical, even odd ones", () => {
    const file = "  keep \t\r\nx\n\u00A0odd\r\ny\n";
    // The new line takes the dominant ending (a 2-2 tie goes to the first line's CRLF); the others keep theirs.
    expect(applySR(file, "x", "X")).toBe("  keep \t\r\nX\r\n\u00A0odd\r\ny\n");
  });

  it("loosely matched context lines keep the file's bytes (curly quotes, en dash)", () => {
    const file = lines("msg = 'it\u2019s';", "r = a \u2013 b", "old()");
    const ops: LineOp[] = [
      { op: "context", text: "msg = 'it's';" },
      { op: "context", text: "r = a - b" },
      { op: "remove", text: "old()" },
      { op: "add", text: "new()" },
    ];
    const applied = applyOps(file, ops);
    expect(applied).toMatchObject({ ok: true, result: { match: { strategy: "unicode" } } });
    expect(applied.ok && applied.after).toBe(lines("msg = 'it\u2019s';", "r = a \u2013 b", "new()"));
  });

  it("reports the changed lines, 1-based, and a pure deletion as start > end", () => {
    const applied = applyOps(lines("a", "b", "c", "d"), searchReplace("b\nc", "B"));
    expect(applied).toMatchObject({ ok: true, changed: { start: 2, end: 2 } });
    const deleted = applyOps(lines("a", "b", "c"), searchReplace("b", ""));
    expect(deleted).toMatchObject({ ok: true, after: lines("a", "c"), changed: { start: 2, end: 1 } });
  });

  it("refuses an alignment that does not tile the match (a matcher bug)", () => {
    const file = parseText(lines("a", "b"));
    const edit = replaceEdit([{ op: "remove", text: "a" }]);
    const match = { start: 0, end: 2, strategy: "exact" as const, alignment: [{ op: 0, start: 0, end: 1 }] };
    expect(() => renderReplacement(file, edit, match)).toThrow(/alignment/);
  });
});

describe("renderReplacement: indentation", () => {
  it("is the identity for exact matches in the file's style, even with odd alignment", () => {
    const file = lines("def f(a,", "      b):", "    x = 1", "    return x");
    const after = applySR(file, "    x = 1\n    return x", "    x = 1\n    y = (x +\n         2)\n    return y");
    expect(after).toBe(lines("def f(a,", "      b):", "    x = 1", "    y = (x +", "         2)", "    return y"));
  });

  it("writes 4-space model text into a tab-indented file with tabs", () => {
    const file = lines("func f() {", "\tif a {", "\t\tx()", "\t}", "}");
    const after = applySR(file, "    if a {\n        x()\n    }", "    if a {\n        x()\n        y()\n    }");
    expect(after).toBe(lines("func f() {", "\tif a {", "\t\tx()", "\t\ty()", "\t}", "}"));
  });

  it("converts spaces written for new lines in a tab file whose context was copied with tabs", () => {
    const file = lines("func f() {", "\tx()", "}");
    const after = applySR(file, "func f() {\n\tx()\n}", "func f() {\n\tx()\n    if b {\n        y()\n    }\n}");
    expect(after).toBe(lines("func f() {", "\tx()", "\tif b {", "\t\ty()", "\t}", "}"));
  });

  it("writes 2-space model text into a 4-space file at 4 spaces", () => {
    const file = lines("class A:", "    def f(self):", "        return 1", "", "    def g(self):", "        return 2");
    const after = applySR(file, "def f(self):\n  return 1", "def f(self):\n  if self.ok:\n    return 1\n  return 0");
    expect(after).toBe(
      lines(
        "class A:",
        "    def f(self):",
        "        if self.ok:",
        "            return 1",
        "        return 0",
        "",
        "    def g(self):",
        "        return 2",
      ),
    );
  });

  it("re-indents an outdented SEARCH, keeping relative nesting", () => {
    const file = lines("class A:", "    def f(self):", "        if x:", "            go()", "        return 1");
    const after = applySR(file, "if x:\n    go()", "if x:\n    go()\n    if y:\n        stop()\nelse:\n    wait()");
    expect(after).toBe(
      lines(
        "class A:",
        "    def f(self):",
        "        if x:",
        "            go()",
        "            if y:",
        "                stop()",
        "        else:",
        "            wait()",
        "        return 1",
      ),
    );
  });

  it("added lines before any old line use the following one as reference", () => {
    const file = lines("def f():", "    return 1");
    expect(applySR(file, "return 1", "x = 0\nreturn 1")).toBe(lines("def f():", "    x = 0", "    return 1"));
  });

  it("a pure insertion in the file's style is written as is", () => {
    const applied = applyOps(lines("a:", "  b: 1"), [{ op: "add", text: "  c: 2" }], { atEndOfFile: true });
    expect(applied).toMatchObject({ ok: true, after: lines("a:", "  b: 1", "  c: 2") });
  });

  it("keeps file bytes for context and re-indents only added lines", () => {
    const file = parseText(lines("\tif a {", "\t\tx()  ", "\t}"));
    const edit = replaceEdit(searchReplace("if a {\n    x()\n}", "if a {\n    x()\n    y()\n}"));
    const match = {
      start: 0,
      end: 3,
      strategy: "indentation" as const,
      alignment: [0, 1, 3].map((op, i) => ({ op, start: i, end: i + 1 })),
    };
    expect(serializeText(renderReplacement(file, edit, match).file)).toBe(
      lines("\tif a {", "\t\tx()  ", "\t\ty()", "\t}"),
    );
  });

  it("keeps a space-aligned continuation the model copied exactly in a tab-indented Makefile", () => {
    const file = lines(
      "install: build",
      "\t$(MAKE) -C $(ROOT) \\",
      "                install-script",
      "",
      "clean:",
      "\trm -f x",
    );
    const search = "\t$(MAKE) -C $(ROOT) \\\n                install-script";
    const replace = "\t$(MAKE) -C $(ROOT) \\\n                install-script \\\n                install-doc";
    expect(applySR(file, search, replace)).toBe(
      file.replace("install-script\n", "install-script \\\n                install-doc\n"),
    );
  });

  it("keeps the space-indented body of a template literal in a tab-indented file", () => {
    const file = lines(
      "function page(user) {",
      "\tconst name = user.name;",
      "\tif (!name) {",
      "\t\treturn '';",
      "\t}",
      "\treturn `",
      "    <div>",
      "      <p>hi</p>",
      "    </div>`;",
      "}",
    );
    const after = applySR(file, "      <p>hi</p>\n    </div>`;", "      <p>hi</p>\n      <p>bye</p>\n    </div>`;");
    expect(after).toBe(file.replace("<p>hi</p>\n", "<p>hi</p>\n      <p>bye</p>\n"));
  });

  it("keeps the space-indented lines of a Go raw string the model adds to a tab-indented file", () => {
    const file = lines("func TestHelp(t *testing.T) {", "\tcheck(t, run())", "}");
    const search = "\tcheck(t, run())\n}";
    const added = [
      "func TestUsage(t *testing.T) {",
      "\texpected := `Usage:",
      "      --foo    foo usage",
      "  -h, --help   help`",
      "\tcheck(t, expected)",
      "}",
    ];
    const applied = applyOps(
      file,
      searchReplace(search, [search, "", ...added].join("\n")),
      {},
      {},
      { path: "help_test.go" },
    );
    expect(applied).toMatchObject({
      ok: true,
      after: lines("func TestHelp(t *testing.T) {", "\tcheck(t, run())", "}", "", ...added),
    });
  });

  it("keeps the tab a Python triple-quoted string starts a line with in a space-indented file", () => {
    const file = lines("def test_rows():", "    rows = export()", "    assert rows");
    const search = "    rows = export()\n    assert rows";
    const replace = '    rows = export()\n    assert rows == """\n\tname\tvalue\n"""';
    const applied = applyOps(file, searchReplace(search, replace), {}, {}, { path: "test_export.py" });
    expect(applied).toMatchObject({
      ok: true,
      after: lines("def test_rows():", "    rows = export()", '    assert rows == """', "\tname\tvalue", '"""'),
    });
  });

  it("keeps the indentation of a Markdown code block the model adds, whatever the file's examples use", () => {
    const file = lines("# Usage", "", "```go", "func main() {", "\trun()", "}", "```", "", "## Errors");
    const block = ["```go", "if err := run(); err != nil {", "  log.Fatal(err)", "}", "```"];
    const applied = applyOps(
      file,
      searchReplace("## Errors", ["## Errors", "", ...block].join("\n")),
      {},
      {},
      { path: "README.md" },
    );
    expect(applied).toMatchObject({ ok: true, after: `${file}\n${block.join("\n")}\n` });
  });

  it("moves a string literal's lines with the code when the whole edit changes depth", () => {
    // The model wrote the block one level out (found on the indentation rung): the literal's lines follow the code.
    const file = lines("class T:", "    def test(self):", "        x = 1", "        return x");
    const applied = applyOps(
      file,
      searchReplace("x = 1\nreturn x", 'x = 1\ns = """\n  a\n"""\nreturn x'),
      {},
      {},
      { path: "t.py" },
    );
    expect(applied).toMatchObject({
      ok: true,
      after: lines(
        "class T:",
        "    def test(self):",
        "        x = 1",
        '        s = """',
        "          a",
        '        """',
        "        return x",
      ),
    });
  });

  it("still writes a new recipe line typed with spaces under a tab-indented one with a tab", () => {
    const file = lines("install: build", "\tcp a b", "", "clean:", "\trm -f x");
    const after = applySR(file, "install: build\n\tcp a b", "install: build\n\tcp a b\n        cp c d");
    expect(after).toBe(file.replace("\tcp a b\n", "\tcp a b\n\tcp c d\n"));
  });

  it("converts under an exactly copied line when the other aligned lines show another unit", () => {
    // `def f(self):` is copied at its real depth by chance (column 0 on the model's side is not); the body lines
    // show a 2-space model unit against the file's 4 spaces.
    const file = lines("def f(self):", "    if x:", "        go()", "    return 1");
    const after = applySR(file, "def f(self):\n  if x:\n    go()", "def f(self):\n  log()\n  if x:\n    go()");
    expect(after).toBe(lines("def f(self):", "    log()", "    if x:", "        go()", "    return 1"));
  });
});
