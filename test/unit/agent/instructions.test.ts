import { describe, expect, it } from "vitest";
import { fitInstructions, instructionPaths } from "../../../src/agent/context/instructions.js";

describe("the repository's notes for coding agents", () => {
  const paths = [
    "AGENTS.md",
    "CLAUDE.md",
    "packages/core/AGENTS.md",
    "packages/core/src/index.ts",
    "packages/web/AGENTS.md",
    "packages/web/src/app.ts",
    "docs/AGENTS.md",
  ];

  it("are the root's AGENTS.md and those of the folders holding a file shown, root first", () => {
    expect(instructionPaths(paths, ["packages/core/src/index.ts"])).toEqual(["AGENTS.md", "packages/core/AGENTS.md"]);
    expect(instructionPaths(paths, ["packages/web/src/app.ts", "packages/core/src/index.ts"])).toEqual([
      "AGENTS.md",
      "packages/core/AGENTS.md",
      "packages/web/AGENTS.md",
    ]);
  });

  it("fall back at the root to what other agents read, when the root has no AGENTS.md", () => {
    expect(instructionPaths(["CLAUDE.md", "src/a.ts"], ["src/a.ts"])).toEqual(["CLAUDE.md"]);
    expect(instructionPaths([".github/copilot-instructions.md", "a.py"], ["a.py"])).toEqual([
      ".github/copilot-instructions.md",
    ]);
    expect(instructionPaths(["src/a.ts", "README.md"], ["src/a.ts"])).toEqual([]);
  });

  it("keep to their budget, the later ones cut or left out, empty ones dropped", () => {
    const notes = [
      { path: "AGENTS.md", content: "a".repeat(60) },
      { path: "x/AGENTS.md", content: "  \n" },
      { path: "y/AGENTS.md", content: "b".repeat(60) },
      { path: "z/AGENTS.md", content: "c" },
    ];
    expect(fitInstructions(notes, 100)).toEqual([
      { path: "AGENTS.md", content: "a".repeat(60) },
      { path: "y/AGENTS.md", content: `${"b".repeat(40)}\n… (cut)` },
    ]);
  });
});
