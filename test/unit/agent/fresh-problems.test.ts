import { describe, expect, it } from "vitest";
import { failureLines } from "../../../src/agent/failure-lines.js";
import { freshProblems } from "../../../src/agent/fresh-problems.js";

const before = (output: string): string[] => [...failureLines(output)];

describe("freshProblems", () => {
  it("gives XO's new error under the file heading above it, not the old warnings", () => {
    const old = [
      "  source/index.js:213:2",
      "  ⚠  213:2  Unexpected todo comment.  no-warning-comments",
      "",
      "  1 warning",
    ].join("\n");
    const now = [
      "  source/index.js:213:2",
      "  ⚠  213:2  Unexpected todo comment.  no-warning-comments",
      "",
      "  source/browser.js:4:8",
      "  ✖    4:8  Strings must use singlequote.  quotes",
      "",
      "  1 warning",
      "  1 error",
    ].join("\n");
    expect(freshProblems(now, before(old))).toEqual([
      "  source/browser.js:4:8",
      "  ✖    4:8  Strings must use singlequote.  quotes",
      "  1 error",
    ]);
  });

  it("takes an old error moved down by the change for the same one, and reads a file named errors as a heading", () => {
    const old = ["src/errors.ts", "  12:5  error  'x' is never reassigned  prefer-const", ""].join("\n");
    const now = [
      "src/errors.ts",
      "  14:5  error  'x' is never reassigned  prefer-const",
      "  20:1  error  Unexpected debugger statement  no-debugger",
      "",
    ].join("\n");
    expect(freshProblems(now, before(old))).toEqual([
      "src/errors.ts",
      "  20:1  error  Unexpected debugger statement  no-debugger",
    ]);
  });

  it("gives Biome's new message under its heading, across the blank line between them", () => {
    const frame = (rule: string, message: string): string[] => [
      `src/index.ts:1:5 lint/${rule}  FIXABLE  ━━━━━━━━━━`,
      "",
      `  ✖ ${message}`,
      "",
      "  > 1 │ let x = 1;",
      "",
    ];
    const old = frame("style/useTemplate", "Template literals are preferred over string concatenation.").join("\n");
    const now = [...frame("style/useTemplate", "Template literals are preferred over string concatenation.")]
      .concat(frame("style/useConst", "This let declares a variable that is only assigned once."))
      .join("\n");
    expect(freshProblems(now, before(old))).toEqual([
      "src/index.ts:1:5 lint/style/useConst  FIXABLE  ━━━━━━━━━━",
      "  ✖ This let declares a variable that is only assigned once.",
    ]);
  });

  it("gives a line that starts with a path and reports an error as a problem, not a heading", () => {
    expect(freshProblems("lib/a.js:3:5: error: 'x' is not defined [no-undef]\n", [])).toEqual([
      "lib/a.js:3:5: error: 'x' is not defined [no-undef]",
    ]);
  });

  it("gives self-contained lines (tsc) alone, colours left out, and nothing when all was printed before", () => {
    const old = "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.";
    const now = [old, "\u001b[31msrc/b.ts(9,1): error TS2304: Cannot find name 'lenght'.\u001b[39m"].join("\n");
    expect(freshProblems(now, before(old))).toEqual(["src/b.ts(9,1): error TS2304: Cannot find name 'lenght'."]);
    expect(freshProblems(old, before(old))).toEqual([]);
  });
});
