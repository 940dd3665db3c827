import { describe, expect, it } from "vitest";
import { parseReply } from "../../../src/formats/registry.js";
import { edits, parseOne, problems, reply, srBlock as block } from "./helpers.js";

const pathless = (search: string, replace: string, fence = "```ts"): string[] => [
  fence,
  "<<<<<<< SEARCH",
  search,
  "=======",
  replace,
  ">>>>>>> REPLACE",
  "```",
];

describe("SEARCH/REPLACE: a block without a path", () => {
  it("does not inherit the previous block's path across prose: it is a missing filename", () => {
    const items = parseReply(
      reply(...block("src/a.ts", ["a"], ["b"], "```ts"), "", "And also:", "", ...pathless("c", "d")),
    );
    expect(edits(items).map((e) => e.path)).toEqual(["src/a.ts"]);
    const found = problems(items);
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(/^missing filename/);
    expect(found[0]!.line).toBe(13);
  });

  it("inherits inside the same fence even with prose between the blocks", () => {
    const text = reply(
      "src/a.ts",
      "```ts",
      "<<<<<<< SEARCH",
      "a",
      "=======",
      "b",
      ">>>>>>> REPLACE",
      "and then",
      "<<<<<<< SEARCH",
      "c",
      "=======",
      "d",
      ">>>>>>> REPLACE",
      "```",
    );
    expect(edits(parseReply(text)).map((e) => e.path)).toEqual(["src/a.ts", "src/a.ts"]);
  });

  it("does not inherit past a block that failed for want of a path", () => {
    const text = reply(
      ...block("src/a.ts", ["a"], ["b"], "```ts"),
      "Next:",
      ...pathless("c", "d"),
      "",
      ...pathless("e", "f"),
    );
    const items = parseReply(text);
    expect(edits(items).map((e) => e.path)).toEqual(["src/a.ts"]);
    expect(problems(items).map((p) => p.message.slice(0, 16))).toEqual(["missing filename", "missing filename"]);
  });

  it("takes the one backticked path of the sentence above the block", () => {
    const text = reply(
      ...block("src/a.ts", ["a"], ["b"], "```ts"),
      "",
      "Then in `src/b.ts`, add `y` to the import:",
      "",
      ...pathless("c", "d"),
    );
    expect(edits(parseReply(text)).map((e) => e.path)).toEqual(["src/a.ts", "src/b.ts"]);
  });

  it("refuses a sentence that names two paths in backticks rather than guess", () => {
    const text = reply(
      ...block("src/a.ts", ["a"], ["b"], "```ts"),
      "",
      "Move the import from `src/b.ts` to `src/c.ts`:",
      "",
      ...pathless("c", "d"),
    );
    const items = parseReply(text);
    expect(edits(items).map((e) => e.path)).toEqual(["src/a.ts"]);
    expect(problems(items)[0]?.message).toMatch(/^missing filename/);
  });

  it.each([
    ["// src/b.ts", "src/b.ts"],
    ["# src/b.py", "src/b.py"],
    ["-- db/x.sql", "db/x.sql"],
    ["<!-- docs/a.md -->", "docs/a.md"],
    ["/* a.css */", "a.css"],
  ])("reads the comment %j as the first line inside the fence", (comment, path) => {
    const text = reply("```", comment, "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE", "```");
    expect(parseOne(text).path).toBe(path);
  });

  it("reads a comment path on the line above the fence", () => {
    expect(parseOne(reply("// src/b.ts", ...pathless("a", "b"))).path).toBe("src/b.ts");
  });

  it.each(["// TODO", "// see src/b.ts", "-- migrations", "/* a.css b.css */"])(
    "does not take the comment %j for a path",
    (comment) => {
      const items = parseReply(reply("```", comment, "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE", "```"));
      expect(edits(items)).toEqual([]);
      expect(problems(items)[0]?.message).toMatch(/^missing filename/);
    },
  );
});
