import { describe, expect, it } from "vitest";
import { parseReply } from "../../../src/formats/registry.js";
import { edits, parseOne, parseProblem, problems, reply, srBlock as block } from "./helpers.js";

describe("SEARCH/REPLACE: where the path comes from", () => {
  it.each([
    ["`src/app.ts`", "src/app.ts"],
    ["**src/app.ts**", "src/app.ts"],
    ["### src/app.ts", "src/app.ts"],
    ["./src/app.ts", "src/app.ts"],
    ["File: src/app.ts", "src/app.ts"],
    ["src/app.ts:", "src/app.ts"],
    ["In `src/app.ts`:", "src/app.ts"],
  ])("path line %j", (line, path) => {
    expect(parseOne(reply(...block(line, ["a"], ["b"], "```ts"))).path).toBe(path);
  });

  it("reads the path from the fence info string", () => {
    expect(parseOne(reply("```src/a.py", "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE", "```")).path).toBe(
      "src/a.py",
    );
    expect(
      parseOne(reply("```python src/a.py", "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE", "```")).path,
    ).toBe("src/a.py");
  });

  it("a language tag that is also a file name does not hide the path line above", () => {
    expect(parseOne(reply(...block("Makefile", ["a"], ["b"], "```makefile"))).path).toBe("Makefile");
  });

  it("reads the path from the first line inside the fence", () => {
    expect(
      parseOne(reply("```python", "src/a.py", "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE", "```")).path,
    ).toBe("src/a.py");
  });

  it("tolerates a blank line between the path and the fence", () => {
    expect(
      parseOne(reply("src/a.py", "", "```python", "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE", "```"))
        .path,
    ).toBe("src/a.py");
  });

  it("reads a path held alone in a fence of its own above the block", () => {
    const text = reply(
      "```",
      "src/a.py",
      "```",
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

  it("a block without a path inherits the path of the block right before it (only blank and fence lines between)", () => {
    const text = reply(
      ...block("src/a.py", ["a"], ["b"]),
      "",
      "",
      "",
      "```python",
      "<<<<<<< SEARCH",
      "c",
      "=======",
      "d",
      ">>>>>>> REPLACE",
      "```",
    );
    const found = edits(parseReply(text));
    expect(found.map((e) => e.path)).toEqual(["src/a.py", "src/a.py"]);
    expect(found.map((e) => e.origin.line)).toEqual([3, 13]);
  });

  it("several blocks inside one fence: the first names the file, the rest inherit", () => {
    const text = reply(
      "src/a.py",
      "```python",
      "<<<<<<< SEARCH",
      "a",
      "=======",
      "b",
      ">>>>>>> REPLACE",
      "<<<<<<< SEARCH",
      "c",
      "=======",
      "d",
      ">>>>>>> REPLACE",
      "```",
    );
    expect(edits(parseReply(text)).map((e) => [e.path, e.origin.line])).toEqual([
      ["src/a.py", 3],
      ["src/a.py", 8],
    ]);
  });

  it("several files in one reply keep their own paths, in reply order", () => {
    const text = reply(
      ...block("a.py", ["1"], ["2"]),
      ...block("b/c.py", ["3"], ["4"]),
      ...block("a.py", ["5"], ["6"]),
    );
    expect(edits(parseReply(text)).map((e) => e.path)).toEqual(["a.py", "b/c.py", "a.py"]);
  });

  it("the first block without any path is a problem at its head line", () => {
    const p = parseProblem(
      reply("Here you go:", "```python", "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE", "```"),
    );
    expect(p).toMatchObject({ format: "editblock", line: 3, path: undefined });
    expect(p.message).toContain("missing filename: put the file path alone on the line before the opening fence");
  });

  it("uses knownPaths for names that do not look like paths", () => {
    const text = reply("My Notes", "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE");
    expect(problems(parseReply(text))).toHaveLength(1);
    expect(parseOne(text, { knownPaths: new Set(["My Notes"]) }).path).toBe("My Notes");
  });

  it("a shell-tagged fence holding SEARCH/REPLACE markers is still an edit", () => {
    expect(parseOne(reply(...block("deploy.sh", ["set -e"], ["set -eu"], "```bash"))).path).toBe("deploy.sh");
  });
});
