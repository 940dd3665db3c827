import { describe, expect, it } from "vitest";
import type { LineOp } from "../../../src/core/edit.js";
import { startsInsideLiteral } from "../../../src/apply/string-literals.js";

const added = (...texts: string[]): LineOp[] => texts.map((text) => ({ op: "add", text }));

describe("startsInsideLiteral", () => {
  it("follows Go raw strings and template literals over the lines they span", () => {
    const ops = added("x := `a", "  b", "c`", "y()");
    expect(startsInsideLiteral("main.go", ops)).toEqual([false, true, true, false]);
    expect(startsInsideLiteral("page.tsx", ops)).toEqual([false, true, true, false]);
  });

  it("reads context and added lines, not removed ones (they are not in the new file)", () => {
    const ops: LineOp[] = [
      { op: "remove", text: "old := `" },
      { op: "context", text: "s := `" },
      { op: "add", text: "  inside" },
      { op: "context", text: "`" },
      { op: "add", text: "\tafter()" },
    ];
    expect(startsInsideLiteral("main.go", ops)).toEqual([false, false, true, true, false]);
  });

  it("skips backticks in one-line strings, runes and line comments, and escaped ones in template literals", () => {
    expect(startsInsideLiteral("a.go", added('s := strings.Split(x, "`")', "  y", "r := '`'", "  z"))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(startsInsideLiteral("a.ts", added("// use `x` or a lone ` here", "  y"))).toEqual([false, false]);
    expect(startsInsideLiteral("a.ts", added("const s = `a \\` b", "  still", "`;", "  out"))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it("pairs Python's triple quotes by kind, and a docstring on one line opens nothing", () => {
    expect(startsInsideLiteral("a.py", added('s = """', "  it's '''", '"""', "  out"))).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(startsInsideLiteral("a.py", added('"""One line."""', "  code", "# a ''' in a comment", "  code"))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it("follows a Markdown file's fenced code blocks, opened in the edit or above it; inline backticks are text", () => {
    expect(startsInsideLiteral("README.md", added("use `x", "```go", "  y", "```", "  z"))).toEqual([
      false,
      false,
      true,
      true,
      false,
    ]);
    const file = ["# Title", "", "~~~sh", "make", "```", "make test"];
    const before = { count: file.length, line: (i: number) => file[i]! };
    // A ``` inside a ~~~ block is its text; the block is still open where the edit starts.
    expect(startsInsideLiteral("docs/guide.md", added("  make lint", "~~~", "  after"), before)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("knows nothing of languages without such literals", () => {
    expect(startsInsideLiteral("notes.txt", added("x = `a", "  y"))).toBeUndefined();
    expect(startsInsideLiteral("setup.rst", added('"""', "  y"))).toBeUndefined();
  });
});
