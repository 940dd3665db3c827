import { describe, expect, it } from "vitest";
import type { LineOp } from "../../../src/core/edit.js";
import { parseText } from "../../../src/core/text.js";
import { locate } from "../../../src/matcher/ladder.js";
import type { LocateResult } from "../../../src/matcher/types.js";
import { applyOps, applySR, lines, searchReplace } from "./helpers.js";

const find = (content: string, search: string, replace = "CHANGED"): LocateResult =>
  locate(parseText(content), { ops: searchReplace(search, replace), hint: {} });

const strategyOf = (result: LocateResult): string => (result.kind === "found" ? result.match.strategy : result.kind);

describe("ladder rungs", () => {
  it("exact: finds the raw lines", () => {
    const result = find(lines("a", "b", "c"), "b");
    expect(result).toMatchObject({ kind: "found", match: { start: 1, end: 2, strategy: "exact" } });
  });

  it("exact: a CRLF line is not exactly equal to LF model text", () => {
    expect(strategyOf(find("a\r\nb\r\n", "b"))).toBe("line-endings");
  });

  it("exact: a window differing only by trailing whitespace makes a byte-for-byte window ambiguous", () => {
    const content = lines("x = 1", "y = 2", "", "x = 1 ", "y = 2");
    expect(find(content, "x = 1\ny = 2")).toMatchObject({ kind: "ambiguous", strategy: "trailing-whitespace" });
    const hinted = locate(parseText(content), { ops: searchReplace("x = 1\ny = 2", "z"), hint: { line: 4 } });
    expect(hinted).toMatchObject({ kind: "found", match: { start: 3, strategy: "trailing-whitespace" } });
  });

  it("exact: model text carrying the \\r matches a CRLF line exactly", () => {
    expect(strategyOf(find("a\r\nb\r\n", "b\r"))).toBe("exact");
  });

  it("told that the first two rungs hold no window, it starts at the third and decides the same", () => {
    const file = parseText(lines("a", "x = 1  ", "y = 2", "x = 1\t", "y = 3"));
    const input = { ops: searchReplace("x = 1\ny = 2", "CHANGED"), hint: {} };
    expect(locate(file, input, { noExactWindow: true })).toEqual(locate(file, input));
    expect(strategyOf(locate(file, input, { noExactWindow: true }))).toBe("trailing-whitespace");
  });

  it("line-endings: ignores \\r; trailing-whitespace still differs", () => {
    expect(strategyOf(find("x = 1\r\ny = 2\r\n", "x = 1\ny = 2"))).toBe("line-endings");
    expect(strategyOf(find("x = 1  \r\ny = 2\r\n", "x = 1\ny = 2"))).toBe("trailing-whitespace");
  });

  it("trailing-whitespace: ignores trailing spaces and tabs, not leading ones", () => {
    expect(strategyOf(find(lines("foo();  ", "bar();\t"), "foo();\nbar();"))).toBe("trailing-whitespace");
    expect(strategyOf(find(lines("foo();", "bar();"), "  foo();\n  bar();"))).toBe("indentation");
  });

  it("indentation: matches an outdented block with the same nesting", () => {
    const file = lines("class A:", "    def f(self):", "        if x:", "            go()", "        return 1");
    const result = find(file, "if x:\n    go()\nreturn 1");
    expect(result).toMatchObject({ kind: "found", match: { start: 2, end: 5, strategy: "indentation" } });
  });

  it("indentation: refuses a flattened copy of differently nested code", () => {
    const file = lines("def f():", "    if a:", "        x()", "        y()", "    return 0");
    // The model believes y() is outside the if: trimmed lines are equal, the meaning is not.
    const result = find(file, "if a:\n    x()\ny()");
    expect(result.kind).toBe("not-found");
    if (result.kind === "not-found") expect(result.note).toMatch(/nested differently/);
  });

  it("indentation: 2-space model text matches a 4-space file level for level", () => {
    const file = lines("def f():", "    if a:", "        x()", "    return 0");
    expect(strategyOf(find(file, "def f():\n  if a:\n    x()\n  return 0"))).toBe("indentation");
  });

  it("indentation: spaces model text matches a tab-indented file", () => {
    const file = lines("func f() {", "\tif a {", "\t\tx()", "\t}", "}");
    expect(strategyOf(find(file, "func f() {\n    if a {\n        x()\n    }\n}"))).toBe("indentation");
  });

  it("indentation: tab-indented text on both sides takes no half-depth reading (a line of another depth dropped)", () => {
    // The model dropped the outer `\tfi` and quoted the inner one: trimmed, its lines match one line lower, where
    // `fi` is one tab deep, not two. With tabs on both sides no unit can have been misread.
    const file = lines("run() {", "\tif a; then", "\t\tif b; then", "\t\t\tgo", "\t\tfi", "\tfi", "}", "", "# next");
    const ops = searchReplace("\t\tfi\n}\n\n# next", "\t\tfi\n\t\techo added\n}\n\n# next");
    expect(applyOps(file, ops).ok).toBe(false);
    // Spaces in the model's text against tabs still read level for level.
    const spaced = searchReplace("if b; then\n    go\nfi", "if b; then\n    go\n    again\nfi");
    expect(applyOps(file, spaced)).toMatchObject({
      ok: true,
      after: expect.stringContaining("\t\t\tagain\n") as unknown,
    });
  });

  it("lines added before a trailing blank line the file lacks, with the file's blank line a line later, have no sure place", () => {
    // The model left out `make docs` before the blank line: without the blank, `# added` would land above it.
    const file = lines("build:", "\tmake all", "\tmake docs", "", "install:", "\tmake install");
    const ops: LineOp[] = [
      { op: "context", text: "build:" },
      { op: "context", text: "\tmake all" },
      { op: "add", text: "\t# added" },
      { op: "context", text: "" },
    ];
    const result = applyOps(file, ops);
    expect(result.ok).toBe(false);
    expect(result.result).toMatchObject({ kind: "ambiguous", note: expect.stringContaining("blank line") as unknown });
    // With no blank line near, the blank is one the model added: the lines land after the window.
    const far = lines("build:", "\tmake all", "\tmake docs", "\tmake site", "\tmake dist", "\tmake pkg", "", "x:");
    const near = applyOps(far, [
      { op: "context", text: "build:" },
      { op: "context", text: "\tmake all" },
      { op: "add", text: "\tmake lint" },
      { op: "context", text: "" },
    ]);
    expect(near).toMatchObject({
      ok: true,
      after: expect.stringContaining("\tmake all\n\tmake lint\n\tmake docs") as unknown,
    });
  });

  it("unicode: curly quotes, en dashes, NBSP and ellipsis fold to ASCII", () => {
    const file = lines("const s = 'it's';", "const r = a - b;", 'log("wait...");');
    const result = find(file, "const s = \u2018it\u2019s\u2019;\nconst r = a \u2013 b;\nlog(\u201Cwait\u2026\u201D);");
    expect(strategyOf(result)).toBe("unicode");
    expect(strategyOf(find(lines("a\u00A0=  1;"), "a = 1;"))).toBe("unicode");
    expect(strategyOf(find(lines("x = a \u2212 b"), "x = a - b"))).toBe("unicode");
  });

  it("unicode: single and double quotes are one quote; the line keeps the file's", () => {
    const file = lines("def greet(name):", "    print('hello ' + name)", "    return 'ok'");
    const result = find(file, 'def greet(name):\n    print("hello " + name)');
    expect(strategyOf(result)).toBe("unicode");
    const out = applySR(
      file,
      'def greet(name):\n    print("hello " + name)',
      'def greet(name: str):\n    print("hello " + name)',
    );
    expect(out).toBe(lines("def greet(name: str):", "    print('hello ' + name)", "    return 'ok'"));
  });

  it("unicode: lines that differ only in quote style are two places, not a choice", () => {
    const file = lines("assert quote('a') == 1", 'assert quote("a") == 2');
    expect(find(file, "assert quote(`a`) == 1").kind).toBe("not-found");
    // Written as in neither (typographic quotes): both places hold it.
    expect(find(lines("x = 'a'", "y = 1", 'x = "a"', "y = 1"), "x = \u2018a\u2019\ny = 1").kind).toBe("ambiguous");
    // Written as one of them: that one.
    expect(find(lines("x = 'a'", "y = 1", 'x = "a"', "y = 1"), 'x = "a"\ny = 1')).toMatchObject({
      kind: "found",
      match: { start: 2, strategy: "exact" },
    });
  });

  // Drift case 17386:550 (yaml's lexer: `case '"':` and `case "'":`, twice each). A stale hunk number that named
  // the `"'"` line exactly chose it, although the model's `‘“’` says single, double, single.
  it("unicode: a line number cannot pick a place whose quotes the model's typographic quotes contradict", () => {
    const file = lines("case '\"':", 'case "\'":', "  go();", "case '\"':", 'case "\'":');
    const at = (line: number): LocateResult =>
      locate(parseText(file), { ops: searchReplace("case \u2018\u201C\u2019:", "x"), hint: { line } });
    expect(at(2)).toMatchObject({ kind: "ambiguous", strategy: "unicode" });
    expect(at(4)).toMatchObject({ kind: "found", match: { start: 3, strategy: "unicode" } });
    // ASCII quotes of the other kind are no such evidence: models swap them.
    const ascii = locate(parseText(file), { ops: searchReplace('case  "\'":', "x"), hint: { line: 1 } });
    expect(ascii).toMatchObject({ kind: "found", match: { start: 0, strategy: "unicode" } });
  });

  it("unicode: different words are not folded together", () => {
    expect(find(lines("const s = 'its';"), "const s = \u2018it\u2019s\u2019;").kind).toBe("not-found");
  });

  it("a SEARCH never matches a fragment of a longer line", () => {
    expect(find(lines("const value = compute(1);"), "compute(1)").kind).toBe("not-found");
    expect(find(lines("  return total + 1;"), "return total").kind).toBe("not-found");
  });

  it("a file's BOM is not part of line 1", () => {
    expect(find("\uFEFFfirst\nsecond\n", "first")).toMatchObject({
      kind: "found",
      match: { start: 0, strategy: "exact" },
    });
  });
});

describe("uniqueness per rung", () => {
  it("an exact unique match wins over loose duplicates", () => {
    const file = lines("    go();", "go();", "  go();  ");
    expect(find(file, "go();")).toMatchObject({ kind: "found", match: { start: 1, strategy: "exact" } });
  });

  it("exact duplicates refuse with every candidate's line", () => {
    const result = find(lines("x()", "y()", "x()", "z()", "x()"), "x()");
    expect(result).toEqual({ kind: "ambiguous", strategy: "exact", lines: [1, 3, 5] });
  });

  it("loose ties refuse and never fall through", () => {
    const result = find(lines("  go();", "stop();", "    go();"), "go();");
    expect(result).toEqual({ kind: "ambiguous", strategy: "indentation", lines: [1, 3] });
  });

  it("overlapping windows count as separate candidates", () => {
    expect(find(lines("a", "a", "a"), "a\na")).toMatchObject({ kind: "ambiguous", lines: [1, 2] });
  });
});

describe("blank context lines", () => {
  it("retries without leading and trailing blank context lines", () => {
    const file = lines("def f():", "    return 1", "def g():", "    return 2");
    const after = applySR(file, "\ndef g():\n    return 2\n", "\ndef g():\n    return 3\n");
    expect(after).toBe(lines("def f():", "    return 1", "def g():", "    return 3"));
  });

  it("keeps blank lines that are in the file", () => {
    const file = lines("a", "", "b");
    const applied = applyOps(file, searchReplace("a\n\nb", "a\n\nc"));
    expect(applied).toMatchObject({ ok: true, after: lines("a", "", "c"), result: { match: { strategy: "exact" } } });
  });

  it("never drops a removed blank line", () => {
    const ops = searchReplace("\nz", "z");
    expect(ops[0]).toEqual({ op: "remove", text: "" });
    expect(applyOps(lines("a", "z"), ops).ok).toBe(false);
  });

  const twins = lines(
    "function min(check) {",
    "  if (check.inclusive) {",
    "    setResponseValueAndErrors(res, 'minimum', check.value, check.message, refs);",
    "  } else {",
    "  }",
    "}",
    "function max(check) {",
    "  if (check.inclusive) {",
    "    setResponseValueAndErrors(res, 'maximum', check.value, check.message, refs);",
    "  } else {",
    "  }",
    "}",
  );

  it("a spurious leading blank line does not turn a unique block into a fuzzy ambiguity", () => {
    // With the blank line, only the fuzzy rung could match, and it sees two look-alike blocks. Without it, the
    // exact rung finds one: the line rungs run on both variants before any loose rung.
    const search =
      "\n  if (check.inclusive) {\n    setResponseValueAndErrors(res, 'maximum', check.value, check.message, refs);\n  } else {";
    const applied = applyOps(twins, searchReplace(search, search.replace("'maximum'", "'max'")));
    expect(applied).toMatchObject({ ok: true, result: { match: { strategy: "exact", start: 7 } } });
    expect(applied.ok && applied.after).toBe(twins.replace("'maximum'", "'max'"));
  });

  it("ambiguity of the blank-trimmed variant on a line rung is final", () => {
    const search = "\n  } else {\n  }";
    expect(find(twins, search, `${search} // end`)).toMatchObject({
      kind: "ambiguous",
      strategy: "exact",
      lines: [4, 10],
    });
  });

  it("the loose rungs still run without the blank lines when nothing matched line by line", () => {
    const file = lines("a() {", "  x;", "}", "b() {", "  y;", "}");
    const ops: LineOp[] = [
      { op: "context", text: "" },
      { op: "context", text: "b() {" },
      { op: "elision", text: "  // ..." },
      { op: "remove", text: "}" },
      { op: "add", text: "} // b" },
    ];
    const applied = applyOps(file, ops);
    expect(applied).toMatchObject({ ok: true, result: { match: { strategy: "elision" } } });
    expect(applied.ok && applied.after).toBe(lines("a() {", "  x;", "}", "b() {", "  y;", "} // b"));
  });
});

describe("a SEARCH of nothing but `...`", () => {
  it("names no place, even where the file holds `...` as code once: refused, asking for the real lines", () => {
    const file = parseText(
      lines("def stub():", '    """Example:', "    >>> run(", "    ...     1)", '    """', "    ..."),
    );
    const ops: LineOp[] = [
      { op: "context", text: "" },
      { op: "context", text: "    ..." },
      { op: "add", text: '    log("probe")' },
      { op: "context", text: "" },
    ];
    const result = locate(file, { ops, hint: {} });
    expect(result).toMatchObject({ kind: "not-found" });
    if (result.kind === "not-found") expect(result.note).toMatch(/only `\.\.\.`.*quote the real lines/);
  });
});
