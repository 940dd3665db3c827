/** Dividers inside SEARCH text, diffs followed by prose, and new-file paths with spaces. */
import { describe, expect, it } from "vitest";
import { parseReply } from "../../../src/formats/registry.js";
import { pathFromLine } from "../../../src/formats/shared/paths.js";
import { as, edits, opList, parseOne, parseProblem, problems, reply } from "./helpers.js";

describe("SEARCH/REPLACE: a second divider line", () => {
  const underlined = [
    "README.md",
    "```markdown",
    "<<<<<<< SEARCH",
    "Usage",
    "=====",
    "",
    "Run it.",
    "=======",
    "Usage",
    "=====",
    "",
    "Run it with `--fast`.",
    ">>>>>>> REPLACE",
    "```",
  ];

  it("refuses a block whose text holds a heading underline, pointing at a unified diff", () => {
    const problem = parseProblem(reply(...underlined));
    expect(problem.path).toBe("README.md");
    expect(problem.line).toBe(3);
    expect(problem.message).toContain("contains two '=======' lines (lines 5 and 8)");
    expect(problem.message).toContain("SEARCH and REPLACE cannot be told apart");
    expect(problem.message).toContain("unified diff");
  });

  it("goes on with the next block after the refused one", () => {
    const items = parseReply(
      reply(...underlined, "", "a.py", "```", "<<<<<<< SEARCH", "x", "=======", "y", ">>>>>>> REPLACE", "```"),
    );
    expect(problems(items)).toHaveLength(1);
    expect(edits(items).map((e) => e.path)).toEqual(["a.py"]);
  });

  it("still takes a block with one divider", () => {
    expect(
      opList(parseOne(reply("a.md", "```", "<<<<<<< SEARCH", "x", "=======", "y", ">>>>>>> REPLACE", "```"))),
    ).toEqual(["-:x", "+:y"]);
  });
});

describe("unified diff: prose after an unfenced diff", () => {
  it("ends the hunk at a blank line once the header's counts are met", () => {
    const text = reply(
      "--- a/m.py",
      "+++ b/m.py",
      "@@ -1,3 +1,3 @@",
      " a = 1",
      "-b = 2",
      "+b = 20",
      " c = 3",
      "",
      " Note: run the tests afterwards.",
      "- and check the log",
    );
    const items = parseReply(text);
    expect(problems(items)).toEqual([]);
    expect(edits(items)).toHaveLength(1);
    expect(opList(edits(items)[0]!)).toEqual(["c:a = 1", "-:b = 2", "+:b = 20", "c:c = 3"]);
  });

  it("still reads a blank line inside the counts as blank context", () => {
    const edit = parseOne(reply("--- a/m.py", "+++ b/m.py", "@@ -1,3 +1,3 @@", " a", "", "-b", "+B"));
    expect(opList(edit)).toEqual(["c:a", "c:", "-:b", "+:B"]);
  });
});

describe("paths with spaces", () => {
  it.each([
    ["`src/my app.py`", "src/my app.py"],
    ["### `src/my app.py`", "src/my app.py"],
    ["**`notes/to do.md`**:", "notes/to do.md"],
    ["File: `my notes.txt`", "my notes.txt"],
  ])("accepts %j as a new file's path", (line, path) => {
    expect(pathFromLine(line, undefined, false)).toBe(path);
  });

  it.each(["`npm run build`", "Create `src/my app.py`:", "`a  b.py`", "`my notes`"])("does not take %j", (line) => {
    expect(pathFromLine(line, undefined, false)).toBeUndefined();
  });

  it("creates a file whose backticked path has a space", () => {
    const edit = as(parseOne(reply("`src/my app.py`", "```python", "print(1)", "```")), "rewrite");
    expect(edit.path).toBe("src/my app.py");
    expect(edit.content).toBe("print(1)\n");
  });
});
