import { describe, expect, it } from "vitest";
import { describeCommand, findCommands, selectCommand } from "../../../src/github/parse-command.js";

describe("findCommands", () => {
  it("finds /fix at the start of a line with its instructions", () => {
    const found = findCommands("Thanks!\n\n/fix keep the last line");
    expect(found).toEqual([
      {
        command: { kind: "fix", instructions: "keep the last line", suggest: false },
        line: 3,
        key: "fix keep the last line",
      },
    ]);
  });

  it("reads --suggest and instructions that continue on the next lines", () => {
    const [found] = findCommands("/fix --suggest use a loop\nand keep the comment\n\nthanks");
    expect(found?.command).toEqual({
      kind: "fix",
      instructions: "use a loop\nand keep the comment\n\nthanks",
      suggest: true,
    });
  });

  it("accepts a bare /fix, /undo and /help, case-insensitively, with up to three spaces of indentation", () => {
    expect(findCommands("/fix")[0]?.command).toEqual({ kind: "fix", instructions: "", suggest: false });
    expect(findCommands("   /UNDO")[0]?.command).toEqual({ kind: "undo" });
    expect(findCommands("/help please")[0]?.command).toEqual({ kind: "help" });
  });

  it("ignores commands inside a word, mid-line, or with a longer name", () => {
    expect(findCommands("please /fix this")).toEqual([]);
    expect(findCommands("/fixes are welcome")).toEqual([]);
    expect(findCommands("/fix-it now")).toEqual([]);
    expect(findCommands("/undone")).toEqual([]);
  });

  it("ignores quoted commands", () => {
    expect(findCommands("> /fix from someone else\n>/undo")).toEqual([]);
  });

  it("ignores commands in fenced code blocks, until the fence really closes", () => {
    const body = ["````md", "```", "/fix inside", "````", "/undo"].join("\n");
    expect(findCommands(body).map((f) => f.command.kind)).toEqual(["undo"]);
    expect(findCommands("~~~\n/fix\n~~~")).toEqual([]);
    // An unclosed fence hides the rest of the comment, as GitHub renders it.
    expect(findCommands("```\n/fix never closed")).toEqual([]);
  });

  it("ignores indented code blocks and HTML comments", () => {
    expect(findCommands("text\n\n    /fix indented code")).toEqual([]);
    expect(findCommands("<!--\n/fix hidden\n-->")).toEqual([]);
    expect(findCommands("<!-- /fix hidden -->")).toEqual([]);
  });

  it("splits several commands at each command line", () => {
    const found = findCommands("/fix first thing\nmore\n/undo");
    expect(found.map((f) => f.command)).toEqual([
      { kind: "fix", instructions: "first thing\nmore", suggest: false },
      { kind: "undo" },
    ]);
  });

  it("handles CRLF bodies", () => {
    expect(findCommands("hi\r\n/fix tabs\r\n")[0]?.command).toEqual({
      kind: "fix",
      instructions: "tabs",
      suggest: false,
    });
  });
});

describe("selectCommand", () => {
  it("takes the first command of a new comment", () => {
    expect(selectCommand("/undo\n/help")?.command.kind).toBe("undo");
  });

  it("runs nothing when an edit leaves the commands as they were", () => {
    expect(selectCommand("/fix the parser\n\nedit: typo", "/fix the parser\n\nedit: typo")).toBeUndefined();
    // Whitespace-only changes to the command do not make it new either.
    expect(selectCommand("/fix  the   parser", "/fix the parser")).toBeUndefined();
  });

  it("runs only the command an edit added", () => {
    expect(selectCommand("/fix the parser\n/undo", "/fix the parser")?.command.kind).toBe("undo");
    expect(selectCommand("/fix the lexer", "/fix the parser")?.command).toEqual({
      kind: "fix",
      instructions: "the lexer",
      suggest: false,
    });
  });

  it("does not count an edit that un-quotes nothing new", () => {
    expect(selectCommand("> /fix quoted", "")).toBeUndefined();
  });
});

describe("describeCommand", () => {
  it("shortens long instructions to their first line", () => {
    const text = describeCommand({ kind: "fix", instructions: `${"x".repeat(100)}\nsecond`, suggest: true });
    expect(text.startsWith("/fix --suggest xxx")).toBe(true);
    expect(text.length).toBeLessThan(80);
    expect(text).not.toContain("second");
  });
});
