import { describe, expect, it } from "vitest";
import { parseReply } from "../../../src/formats/registry.js";
import { as, edits, parseOne, parseProblem, reply } from "./helpers.js";

describe("whole file", () => {
  it("a fenced block under a path line rewrites the file", () => {
    const edit = as(
      parseOne(reply("Here is the new file:", "", "src/app.py", "```python", "def main():", "    pass", "```")),
      "rewrite",
    );
    expect(edit).toEqual({
      kind: "rewrite",
      path: "src/app.py",
      content: "def main():\n    pass\n",
      origin: { format: "whole", line: 4 },
    });
  });

  it.each([
    ["`src/app.py`", "src/app.py"],
    ["**src/app.py**", "src/app.py"],
    ["### src/app.py", "src/app.py"],
    ["./src/app.py:", "src/app.py"],
    ["File: src/app.py", "src/app.py"],
  ])("cleans the path line %j", (line, path) => {
    expect(parseOne(reply(line, "```python", "x = 1", "```")).path).toBe(path);
  });

  it("reads the path from the info string", () => {
    expect(parseOne(reply("```src/app.py", "x = 1", "```")).path).toBe("src/app.py");
    expect(parseOne(reply('```ts title="web/x.ts"', "export {};", "```")).path).toBe("web/x.ts");
  });

  it("an empty body rewrites to an empty file", () => {
    expect(as(parseOne(reply("a.txt", "```", "```")), "rewrite").content).toBe("");
  });

  it("a sentence that merely mentions a path does not make its fence a whole file", () => {
    expect(parseReply(reply("Example use of `lib/util.js`:", "```js", "require('./lib/util');", "```"))).toEqual([]);
    expect(parseReply(reply("Then run `scripts/setup.sh`:", "```bash", "./scripts/setup.sh --init", "```"))).toEqual(
      [],
    );
  });

  it("a fenced block without a path is prose", () => {
    expect(parseReply(reply("For example:", "```python", "print(1)", "```", "Nice."))).toEqual([]);
  });

  it("keeps nested fences of a Markdown file inside the body", () => {
    const edit = as(
      parseOne(reply("README.md", "```markdown", "# Demo", "```bash", "npm i", "```", "Done.", "```")),
      "rewrite",
    );
    expect(edit.content).toBe("# Demo\n```bash\nnpm i\n```\nDone.\n");
  });

  it("nested example fences holding diffs or SEARCH/REPLACE blocks are part of the file", () => {
    const body = [
      "# Formats",
      "```diff",
      "--- a/x.py",
      "+++ b/x.py",
      "@@ @@",
      "-a",
      "+b",
      "```",
      "```text",
      "<<<<<<< SEARCH",
      "a",
      "=======",
      "b",
      ">>>>>>> REPLACE",
      "```",
    ];
    const edit = as(parseOne(reply("docs/formats.md", "```markdown", ...body, "```")), "rewrite");
    expect(edit.content).toBe(`${body.join("\n")}\n`);
  });

  it("elisions inside a nested example fence are documentation, not elisions", () => {
    const body = ["Call it like this:", "```js", "setup();", "// ... existing code ...", "```"];
    expect(as(parseOne(reply("README.md", "```markdown", ...body, "```")), "rewrite").content).toBe(
      `${body.join("\n")}\n`,
    );
  });

  it("a longer fence holds plain triple-backtick lines", () => {
    expect(as(parseOne(reply("doc.md", "````", "```", "code", "```", "````")), "rewrite").content).toBe(
      "```\ncode\n```\n",
    );
  });

  it.each(["// ... existing code ...", "# ... rest unchanged ...", "/* ... */", "  // rest of the file unchanged"])(
    "marks the elision %j as suspected, by its content index, for the planner to check",
    (elision) => {
      const edit = as(
        parseOne(reply("src/a.ts", "```ts", "import x from 'x';", elision, "export {};", "```")),
        "rewrite",
      );
      expect(edit).toMatchObject({ path: "src/a.ts", origin: { format: "whole", line: 2 }, suspectedElisions: [1] });
      expect(edit.content).toBe(`import x from 'x';\n${elision}\nexport {};\n`);
    },
  );

  it("lists every suspected elision at the file's own level, none inside nested examples", () => {
    const body = [
      "// ... existing code ...",
      "a();",
      "```js",
      "// ... existing code ...",
      "```",
      "# ... other handlers",
    ];
    expect(as(parseOne(reply("README.md", "```markdown", ...body, "```")), "rewrite").suspectedElisions).toEqual([
      0, 5,
    ]);
  });

  it("suspects any comment opening with '...' (the planner clears real ones), but not ordinary lines", () => {
    const edit = as(parseOne(reply("w.py", "```python", "# ... except on Windows 8", "x = 1", "```")), "rewrite");
    expect(edit.suspectedElisions).toEqual([0]);
    expect(
      as(parseOne(reply("w.py", "```python", "# loading more...", "f(*args)", "```")), "rewrite"),
    ).not.toHaveProperty("suspectedElisions");
  });

  it("suspects a bare '...' outside Python, treats it as code in Python", () => {
    expect(as(parseOne(reply("a.js", "```js", "f();", "...", "```")), "rewrite").suspectedElisions).toEqual([1]);
    const py = as(
      parseOne(reply("proto.py", "```python", "class P(Protocol):", "    def f(self): ...", "    ...", "```")),
      "rewrite",
    );
    expect(py.content).toContain("    ...\n");
    expect(py).not.toHaveProperty("suspectedElisions");
  });

  it.each(["bash", "sh", "shell", "console", "zsh", "powershell", "cmd"])(
    "a %s fence under a non-script path is a command, not a file",
    (lang) => {
      expect(parseReply(reply("src/app.py", `\`\`\`${lang}`, "python src/app.py", "```"))).toEqual([]);
    },
  );

  it("a shell fence under an explicit script path is a whole file", () => {
    expect(parseOne(reply("scripts/build.sh", "```bash", "#!/bin/sh", "make", "```")).path).toBe("scripts/build.sh");
    expect(parseOne(reply("```bash scripts/ci.sh", "echo hi", "```")).path).toBe("scripts/ci.sh");
  });

  it("an unclosed fence with a path is a truncation problem", () => {
    const p = parseProblem(reply("a.py", "```python", "x = 1", "y = 2"));
    expect(p).toMatchObject({ format: "whole", line: 2, path: "a.py" });
    expect(p.message).toContain("not closed");
  });

  it("several files in one reply", () => {
    const text = reply("a.py", "```python", "A", "```", "", "Makefile", "```make", "all:", "\techo hi", "```");
    expect(edits(parseReply(text)).map((e) => [e.path, as(e, "rewrite").content])).toEqual([
      ["a.py", "A\n"],
      ["Makefile", "all:\n\techo hi\n"],
    ]);
  });

  it("a diff-tagged fence that holds no diff is a problem, not a rewrite", () => {
    expect(parseProblem(reply("src/a.py", "```diff", "x = 1", "```")).message).toContain("no file headers or hunks");
  });
});
