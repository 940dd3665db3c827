import { describe, expect, it } from "vitest";
import { parseReply } from "../../../src/formats/registry.js";
import { edits, opList, parseOne, parseProblem, problems, reply, srBlock as block } from "./helpers.js";

describe("SEARCH/REPLACE: elisions", () => {
  it("pairs '...' at the same place in both sides as an elision op", () => {
    const edit = parseOne(
      reply(
        ...block(
          "a.ts",
          ["function f() {", "...", "  return 1;", "}"],
          ["function f() {", "...", "  return 2;", "}"],
          "```ts",
        ),
      ),
    );
    expect(opList(edit)).toEqual(["c:function f() {", "e:...", "-:  return 1;", "+:  return 2;", "c:}"]);
  });

  it("pairs different elision spellings as one token", () => {
    const edit = parseOne(
      reply(
        ...block(
          "a.ts",
          ["class A {", "  // ... existing code ...", "  x = 1;"],
          ["class A {", "  ...", "  x = 2;"],
          "```ts",
        ),
      ),
    );
    expect(opList(edit)).toEqual(["c:class A {", "e:  // ... existing code ...", "-:  x = 1;", "+:  x = 2;"]);
  });

  it("refuses an elision only in REPLACE, at the elision's line", () => {
    const text = reply(...block("a.ts", ["a", "b"], ["a", "// ... rest of code ...", "c"], "```ts"));
    const p = parseProblem(text);
    expect(p.line).toBe(8);
    expect(p.path).toBe("a.ts");
    expect(p.message).toBe(
      "an elision in REPLACE without the same elision in SEARCH would delete the lines it stands for; quote those lines or keep '...' at the same place in both",
    );
  });

  it("refuses an elision only in SEARCH", () => {
    const p = parseProblem(reply(...block("a.js", ["a", "...", "b"], ["a", "b2"], "```js")));
    expect(p.line).toBe(5);
    expect(p.message).toContain("elision in SEARCH");
  });

  it("refuses an elision in the content of a new file (empty SEARCH)", () => {
    expect(
      parseProblem(reply(...block("n.ts", [], ["export const a = 1;", "// ... more exports ..."], "```ts"))).message,
    ).toContain("elision in REPLACE");
  });

  it("keeps a bare '...' in a Python file as literal code", () => {
    const edit = parseOne(
      reply(
        ...block(
          "pkg/proto.py",
          ["class P(Protocol):", "    def f(self): pass"],
          ["class P(Protocol):", "    def f(self):", "        ..."],
        ),
      ),
    );
    expect(opList(edit)).toEqual([
      "c:class P(Protocol):",
      "-:    def f(self): pass",
      "+:    def f(self):",
      "+:        ...",
    ]);
  });

  it("still refuses a comment elision only in REPLACE of a Python file", () => {
    expect(parseProblem(reply(...block("a.py", ["x = 1"], ["# ... existing code ...", "x = 2"]))).message).toContain(
      "elision in REPLACE",
    );
  });
});

describe("SEARCH/REPLACE: truncated and malformed blocks", () => {
  it("a reply that ends before ======= names the block and what was expected", () => {
    const p = parseProblem(reply("a.py", "```python", "<<<<<<< SEARCH", "x = 1", "y = 2"));
    expect(p.line).toBe(3);
    expect(p.path).toBe("a.py");
    expect(p.message).toContain("starting at line 3");
    expect(p.message).toContain("the reply ends at line 5 before '======='");
  });

  it("a reply that ends before >>>>>>> REPLACE says so", () => {
    const p = parseProblem(reply("a.py", "<<<<<<< SEARCH", "x = 1", "=======", "x = 2", "```"));
    expect(p.line).toBe(2);
    expect(p.message).toContain("before '>>>>>>> REPLACE'");
  });

  it("a block cut by the next block's head is a problem, and the next block still parses", () => {
    const items = parseReply(
      reply(
        "a.py",
        "<<<<<<< SEARCH",
        "x = 1",
        "",
        "b.py",
        "<<<<<<< SEARCH",
        "y = 1",
        "=======",
        "y = 2",
        ">>>>>>> REPLACE",
      ),
    );
    expect(items).toHaveLength(2);
    expect(problems(items)[0]).toMatchObject({ line: 2, path: "a.py" });
    expect(problems(items)[0]!.message).toContain("line 6 starts another block");
    expect(edits(items)[0]).toMatchObject({ path: "b.py", origin: { line: 6 } });
  });

  it("a lone divider is prose, a lone end marker a problem that says no block was opened", () => {
    expect(parseReply(reply("=======", "text"))).toEqual([]);
    const [item] = parseReply(reply("=======", ">>>>>>> REPLACE", "text"));
    expect(item?.type === "problem" ? item.problem.message : "").toBe(
      "line 2 ends a SEARCH/REPLACE block that no SEARCH marker opened",
    );
  });
});

describe("SEARCH/REPLACE: line numbers in truncation messages", () => {
  it("a final newline does not count as another line", () => {
    expect(parseProblem("a.py\n<<<<<<< SEARCH\nx\n").message).toContain("the reply ends at line 3 before");
  });
});
