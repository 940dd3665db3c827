import { describe, expect, it } from "vitest";
import { parseReply } from "../../../src/formats/registry.js";
import { as, opList, parseOne, reply, srBlock as block } from "./helpers.js";

describe("SEARCH/REPLACE: the basic block", () => {
  it("turns a fenced block under a path line into a replace edit with derived ops", () => {
    const text = reply(
      "Fix the greeting:",
      "",
      ...block("src/greet.py", ["def greet(n):", "    print(n)"], ["def greet(n):", "    print('hi', n)"]),
      "Done.",
    );
    const edit = as(parseOne(text), "replace");
    expect(edit.path).toBe("src/greet.py");
    expect(edit.explicitOps).toBe(false);
    expect(edit.hint).toEqual({});
    expect(edit.origin).toEqual({ format: "editblock", line: 5 });
    expect(opList(edit)).toEqual(["c:def greet(n):", "-:    print(n)", "+:    print('hi', n)"]);
  });

  it("a REPLACE that deletes lines gives only remove and context ops", () => {
    const edit = parseOne(reply(...block("a.py", ["x = 1", "y = 2", "z = 3"], ["x = 1", "z = 3"])));
    expect(opList(edit)).toEqual(["c:x = 1", "-:y = 2", "c:z = 3"]);
  });

  it("an empty SEARCH creates the file with REPLACE as content", () => {
    const edit = as(parseOne(reply(...block("pkg/new_mod.py", [], ["A = 1", "", "B = 2"]))), "create");
    expect(edit).toMatchObject({ path: "pkg/new_mod.py", content: "A = 1\n\nB = 2\n" });
    expect(edit.origin.format).toBe("editblock");
  });

  it("an empty SEARCH and empty REPLACE creates an empty file", () => {
    expect(as(parseOne(reply(...block("empty.txt", [], []))), "create").content).toBe("");
  });

  it("parses blocks outside any fence, and without a final newline", () => {
    const edit = parseOne(
      reply("src/a.ts", "<<<<<<< SEARCH", "let a = 1;", "=======", "let a = 2;", ">>>>>>> REPLACE"),
    );
    expect(edit.path).toBe("src/a.ts");
    expect(opList(edit)).toEqual(["-:let a = 1;", "+:let a = 2;"]);
  });

  it("keeps fences inside the block's text as content (editing Markdown)", () => {
    const edit = parseOne(
      reply(
        "README.md",
        "````markdown",
        "<<<<<<< SEARCH",
        "```sh",
        "npm i",
        "```",
        "=======",
        "```sh",
        "npm ci",
        "```",
        ">>>>>>> REPLACE",
        "````",
      ),
    );
    expect(opList(edit)).toEqual(["c:```sh", "-:npm i", "+:npm ci", "c:```"]);
  });

  it("accepts tilde fences and longer backtick fences", () => {
    expect(parseOne(reply(...block("a.rb", ["a"], ["b"], "~~~ruby")).replace(/```$/, "~~~")).path).toBe("a.rb");
    expect(parseOne(reply(...block("a.rb", ["a"], ["b"], "````ruby")).replace(/```$/, "````")).path).toBe("a.rb");
  });

  it("accepts indented markers (blocks inside list items)", () => {
    const edit = parseOne(
      reply(
        "1. In src/a.go:",
        "   src/a.go",
        "   <<<<<<< SEARCH",
        "   x := 1",
        "   =======",
        "   x := 2",
        "   >>>>>>> REPLACE",
      ),
    );
    expect(opList(edit)).toEqual(["-:   x := 1", "+:   x := 2"]);
  });
});

describe("SEARCH/REPLACE: markers", () => {
  it.each([
    ["<<<<<", "=====", ">>>>>"],
    ["<<<<<<<<<", "=========", ">>>>>>>>>"],
    ["<<<<<<", "========", ">>>>>>>"],
  ])("accepts marker lengths %s / %s / %s", (head, divider, end) => {
    const edit = parseOne(reply("a.txt", `${head} SEARCH`, "old", divider, "new", `${end} REPLACE`));
    expect(opList(edit)).toEqual(["-:old", "+:new"]);
  });

  it("accepts a stray '>' after SEARCH and trailing spaces", () => {
    expect(
      opList(parseOne(reply("a.txt", "<<<<<<< SEARCH>  ", "old", "=======  ", "new", ">>>>>>> REPLACE  "))),
    ).toEqual(["-:old", "+:new"]);
  });

  it("does not take 4- or 10-character markers for a block, and says which lines look like markers", () => {
    for (const [head, divider, end] of [
      ["<<<< SEARCH", "====", ">>>> REPLACE"],
      ["<<<<<<<<<< SEARCH", "==========", ">>>>>>>>>> REPLACE"],
      ["-- SEARCH", "=======", "+++++++ REPLACE"],
      ["-------SEARCH", "=======", "+++++++ REPLACE"],
    ] as const) {
      const items = parseReply(reply("a.txt", head, "old", divider, "new", end));
      expect(items.every((item) => item.type === "problem")).toBe(true);
      const messages = items.map((item) => (item.type === "problem" ? item.problem.message : ""));
      expect(messages[0]).toMatch(/^line 2 looks like a SEARCH marker but is not one/);
      expect(messages.at(-1)).toMatch(/^line 6 (looks like a REPLACE marker|ends a SEARCH\/REPLACE block that no)/);
    }
  });

  it("reads Cline's markers, with Cline's own divider rule", () => {
    const edit = as(
      parseOne(reply("a.txt", "------- SEARCH", "old", "==========", "new", "+++++++ REPLACE")),
      "replace",
    );
    expect(opList(edit)).toEqual(["-:old", "+:new"]);
    // A divider with a trailing space is no divider in Cline's grammar: the block is incomplete, and says so.
    const [problem] = parseReply(reply("a.txt", "------- SEARCH", "old", "======= ", "new", "+++++++ REPLACE"));
    expect(problem?.type === "problem" ? problem.problem.message : "").toMatch(/not complete.*'======='/);
  });

  it("strips line-number margins when every SEARCH line has one, in order, and takes the first as a hint", () => {
    const edit = as(
      parseOne(
        reply(
          "a.ts",
          "<<<<<<< SEARCH",
          "12 |   const a = 1;",
          "13 | ",
          "14 |   return a;",
          "=======",
          "  return 2;",
          ">>>>>>> REPLACE",
        ),
      ),
      "replace",
    );
    expect(opList(edit)).toEqual(["-:  const a = 1;", "-:", "-:  return a;", "+:  return 2;"]);
    expect(edit.hint).toEqual({ line: 12 });
    // Out of order: the numbers are text, not a margin.
    const kept = as(
      parseOne(reply("a.ts", "<<<<<<< SEARCH", "3 | x", "9 | y", "=======", "z", ">>>>>>> REPLACE")),
      "replace",
    );
    expect(opList(kept)).toEqual(["-:3 | x", "-:9 | y", "+:z"]);
  });

  it("reads Roo's :start_line: and ------- lines as a hint, not as SEARCH text", () => {
    const edit = as(
      parseOne(
        reply("a.ts", "<<<<<<< SEARCH", ":start_line:42", "-------", "old", "=======", "new", ">>>>>>> REPLACE"),
      ),
      "replace",
    );
    expect(edit.hint).toEqual({ line: 42 });
    expect(opList(edit)).toEqual(["-:old", "+:new"]);
  });

  it("accepts :start_line: without the dashes, and dashes without :start_line:", () => {
    expect(
      as(
        parseOne(reply("a.ts", "<<<<<<< SEARCH", ":start_line:7", "old", "=======", "new", ">>>>>>> REPLACE")),
        "replace",
      ).hint,
    ).toEqual({ line: 7 });
    const dashes = as(
      parseOne(reply("a.ts", "<<<<<<< SEARCH", "-------", "old", "=======", "new", ">>>>>>> REPLACE")),
      "replace",
    );
    expect(dashes.hint).toEqual({});
    expect(opList(dashes)).toEqual(["-:old", "+:new"]);
  });

  it("reads a dash line both sides start with, and no position line precedes, as the text's own", () => {
    const underline = as(
      parseOne(
        reply("a.md", "<<<<<<< SEARCH", "-------", "", "old", "=======", "-------", "", "new", ">>>>>>> REPLACE"),
      ),
      "replace",
    );
    expect(opList(underline)).toEqual(["c:-------", "c:", "-:old", "+:new"]);
    // After a position line it is Roo's separator, whatever the REPLACE starts with.
    const positioned = as(
      parseOne(
        reply(
          "a.md",
          "<<<<<<< SEARCH",
          ":start_line:3",
          "-------",
          "old",
          "=======",
          "-------",
          "new",
          ">>>>>>> REPLACE",
        ),
      ),
      "replace",
    );
    expect(opList(positioned)).toEqual(["-:old", "+:-------", "+:new"]);
  });
});
