import { applyEdits } from "../../../src/engine.js";
import { describe as group, expect, it } from "vitest";
import { fenceFor, renderRetryPrompt } from "../../../src/apply/feedback-retry.js";
import { describe, MAX_QUOTED_LINES, numberLines, summarize } from "../../../src/apply/feedback.js";
import type { ReplaceEdit } from "../../../src/core/edit.js";
import type { EditResult } from "../../../src/core/result.js";

const edit = (format: ReplaceEdit["origin"]["format"] = "editblock"): ReplaceEdit => ({
  kind: "replace",
  path: "src/app.ts",
  ops: [
    { op: "remove", text: "return a - b;" },
    { op: "add", text: "return a + b;" },
  ],
  hint: {},
  explicitOps: format !== "editblock",
  origin: { format, line: 7 },
});

group("numberLines", () => {
  it("numbers lines from the given start, right-aligned, and caps long quotes", () => {
    expect(numberLines(["a", "b"], 9)).toBe(" 9 | a\n10 | b");
    const many = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const text = numberLines(many, 1);
    expect(text.split("\n")).toHaveLength(MAX_QUOTED_LINES + 1);
    expect(text).toContain("25 more lines");
    expect(numberLines(["x".repeat(1000)], 1).length).toBeLessThan(260);
  });
});

group("messages that do not contradict themselves", () => {
  it("a SEARCH whose only missing line is a blank edge says so, not 'not found even ignoring whitespace'", async () => {
    const { results } = await applyEdits(
      "a.py\n```\n<<<<<<< SEARCH\n\n    y = x + 1\n=======\n    y = x + 2\n>>>>>>> REPLACE\n```\n",
      (p) => (p === "a.py" ? "def f(x):\n    y = x + 1\n    return y\n" : undefined),
    );
    const message = results[0]?.ok === false ? results[0].message : "";
    expect(message).toContain("its first line is blank, and no such blank line stands in a.py");
    expect(message).not.toMatch(/even ignoring whitespace|100 % similar/);
    expect(message).toContain("2 |     y = x + 1");
  });

  it("a pure insertion with a line number but no context is refused for that reason, quoting the lines there", async () => {
    const file = Array.from({ length: 30 }, (_, i) => `line ${String(i + 1)}`).join("\n") + "\n";
    const { results } = await applyEdits("```diff\n--- a/a.txt\n+++ b/a.txt\n@@ -20,0 +21 @@\n+inserted\n```\n", (p) =>
      p === "a.txt" ? file : undefined,
    );
    const message = results[0]?.ok === false ? results[0].message : "";
    expect(message).toContain("only adds lines and has no unchanged line to place them by");
    expect(message).toContain("a line number alone (line 20) does not place them");
    expect(message).not.toMatch(/says nowhere|do not occur/);
    expect(message).toContain("20 | line 20");
  });
});

group("messages", () => {
  it("not-found quotes the nearest real lines with numbers, labelled approximate, plus the matcher's note", () => {
    const message = describe.notFound("src/app.ts", edit(), {
      nearest: {
        startLine: 41,
        lines: ["function add(a, b) {", "  return a - c;", "}"],
        why: "similar",
        similarity: 0.83,
        fileLines: 120,
      },
      note: "best window 83 % similar, needs 90 %",
      alreadyApplied: false,
      mismatch: false,
    });
    expect(message).toContain("src/app.ts (edit at reply line 7)");
    expect(message).toContain("SEARCH text was not found in src/app.ts");
    expect(message).toContain("approximate");
    expect(message).toContain("83 % similar");
    expect(message).toContain("lines 41-43 of 120");
    expect(message).toContain("42 |   return a - c;");
    expect(message).toContain("Note: best window 83 % similar, needs 90 %.");
    expect(message).not.toContain("already in");
  });

  it("says when the REPLACE lines are already in the file", () => {
    const message = describe.notFound("src/app.ts", edit(), {
      nearest: { startLine: 1, lines: ["return a + b;"], why: "similar", fileLines: 1 },
      alreadyApplied: true,
      mismatch: false,
    });
    expect(message).toContain("the REPLACE lines are already in src/app.ts".replace("the", "The"));
  });

  it("names the hunk for diff dialects and describes a file-start fallback", () => {
    const message = describe.notFound("src/app.ts", edit("udiff"), {
      nearest: { startLine: 1, lines: ["a", "b"], why: "file-start", fileLines: 2000 },
      alreadyApplied: false,
      mismatch: true,
    });
    expect(message).toContain("hunk's context and removed lines do not occur in src/app.ts");
    expect(message).toContain("Nothing similar was found; src/app.ts has 2000 lines");
    expect(message).toContain("1 | a");
  });

  it("ambiguity lists every candidate line and asks for more context or a line hint", () => {
    const message = describe.ambiguous("src/app.ts", edit(), [12, 40, 88], "trailing-whitespace");
    expect(message).toContain("occurs 3 times");
    expect(message).toContain("lines 12, 40, 88");
    expect(message).toContain("ignoring trailing whitespace");
    expect(message).toContain("more surrounding lines");
    expect(describe.ambiguous("src/app.ts", edit("udiff"), [1, 2], "exact")).toContain("@@ -LINE");
  });

  it("ambiguity at very many places names the first 20 and counts the rest", () => {
    const lines = Array.from({ length: 333_333 }, (_, i) => 3 * i + 3);
    const message = describe.ambiguous("big.js", edit(), lines, "exact");
    expect(message).toContain("occurs 333333 times");
    expect(message).toContain(
      "starting at lines 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60 and 333313 more;",
    );
    expect(message.length).toBeLessThan(1024);
  });

  it("an ambiguous one-line SEARCH in a 1,000,000-line file is refused with a bounded message", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 1_000_000; i++) lines.push(i % 3 === 2 ? "}" : `  line ${String(i)}`);
    const file = `${lines.join("\r\n")}\r\n`;
    const reply = "big.js\n```\n<<<<<<< SEARCH\n}\n=======\n};\n>>>>>>> REPLACE\n```\n";
    const result = await applyEdits(reply, (p) => (p === "big.js" ? file : undefined));
    const first = result.results[0]!;
    expect(first.ok).toBe(false);
    if (first.ok) return;
    expect(first.reason).toBe("ambiguous-match");
    expect(first.message).toContain("and 333313 more");
    expect(first.message.length).toBeLessThan(1024);
  });

  it("elision and fuzzy ambiguity ask for more lines only: line hints are not read on those rungs", () => {
    for (const strategy of ["elision", "fuzzy"] as const) {
      for (const format of ["editblock", "udiff", "patch"] as const) {
        const message = describe.ambiguous("src/app.ts", edit(format), [3, 9], strategy);
        expect(message).toContain("more surrounding lines");
        expect(message).not.toMatch(/start_line|@@/);
      }
    }
  });

  it("an elided SEARCH read several ways from one start names that line once", () => {
    const message = describe.ambiguous("src/app.ts", edit(), [4, 4], "elision");
    expect(message).toContain("fits src/app.ts in 2 ways (when skipping the elided lines), starting at line 4;");
    const twoStarts = describe.ambiguous("src/app.ts", edit("udiff"), [168, 168, 174], "fuzzy");
    expect(twoStarts).toContain("fit src/app.ts in 3 ways (when compared loosely), starting at lines 168, 174;");
  });

  it("creation and missing-file messages say what to do instead", () => {
    const create = { kind: "create", path: "a.ts", content: "", origin: { format: "udiff", line: 3 } } as const;
    expect(describe.fileExists("a.ts", create)).toContain("creation never overwrites");
    const del = { kind: "delete", path: "b.ts", origin: { format: "patch", line: 2 } } as const;
    expect(describe.missingOriginal("b.ts", del)).toContain("b.ts does not exist, so it cannot be deleted");
    const move = { kind: "rename", path: "a.ts", to: "b.ts", origin: { format: "patch", line: 2 } } as const;
    expect(describe.fileExists("b.ts", move)).toContain("a.ts → b.ts");
  });
});

const ok = (path: string): EditResult => ({
  ok: true,
  path,
  edit: edit(),
  before: "a\n",
  after: "b\n",
  strategy: "exact",
});
const bad = (path: string, reason: "search-not-found" | "not-applied" = "search-not-found"): EditResult => ({
  ok: false,
  path,
  edit: edit(),
  reason,
  message: `${path}: it failed`,
});

group("summarize", () => {
  it("covers all applied, a refused transaction, and a partial application", () => {
    expect(summarize([ok("a"), ok("b")], false)).toBe("2 edits applied");
    expect(summarize([bad("a"), bad("b", "not-applied"), bad("c", "not-applied")], false)).toBe(
      "nothing was written because 1 of 3 edits failed",
    );
    expect(summarize([bad("a"), ok("b"), ok("c")], true)).toBe(
      "1 of 3 edits failed; the other 2 edits were applied; resend only the failed ones",
    );
    expect(summarize([], false)).toContain("no edits");
  });
});

group("renderRetryPrompt", () => {
  it("lists failures, what applied, and the fresh contents with line numbers in a safe fence", () => {
    const fresh = new Map<string, string | undefined>([
      ["src/app.ts", "const x = 1;\nconst doc = `a ``` b`;\n"],
      ["gone.ts", undefined],
    ]);
    const prompt = renderRetryPrompt([bad("src/app.ts"), ok("src/other.ts")], fresh);
    expect(prompt).toContain("One of your 2 edits failed.");
    expect(prompt).toContain("1. src/app.ts [search-not-found]");
    expect(prompt).toContain("   src/app.ts: it failed");
    expect(prompt).toContain("- src/other.ts (exact)");
    expect(prompt).toContain("do not send these again");
    expect(prompt).toContain("1 | const x = 1;");
    expect(prompt).toContain("2 | const doc = `a ``` b`;");
    expect(prompt).toContain("\n````\n");
    expect(prompt).toContain("gone.ts: this file does not exist.");
    expect(prompt).toContain("Send corrected edits for the failed ones only");
  });

  it("shows a long file around the lines nearest to its failed edit, numbered as in the file", async () => {
    const file = Array.from({ length: 4000 }, (_, i) => `const row${String(i + 1)} = load(${String(i + 1)});`);
    const content = `${file.join("\n")}\n`;
    const reply =
      "src/rows.ts\n```\n<<<<<<< SEARCH\nconst row3200 = load(3200, true);\nconst row3201 = load(3201, true);\n=======\nconst row3200 = 0;\n>>>>>>> REPLACE\n```\n";
    const { results } = await applyEdits(reply, (p) => (p === "src/rows.ts" ? content : undefined));
    const failed = results[0]!;
    // The lines the message quotes, a few around the nearest ones.
    expect(failed.ok ? undefined : failed.near).toEqual({ start: 3195, end: 3205 });
    const prompt = renderRetryPrompt(results, new Map([["src/rows.ts", content]]));
    expect(prompt).toContain("… (lines 1-2449 not shown)\n2450 | const row2450 = load(2450);");
    expect(prompt).toContain("3200 | const row3200 = load(3200);");
    expect(prompt).toContain("3200 | const row3200 = load(3200);");
    expect(prompt).toContain("3949 | const row3949 = load(3949);\n… (51 more lines, 3950-4000 not shown)");
    expect(prompt.startsWith("Your edit failed.")).toBe(true);
    expect(prompt).not.toContain("| const row1 = load(1);");
  });

  it("asks for held edits to be resent when the transaction was refused", () => {
    const prompt = renderRetryPrompt([bad("a.ts"), bad("b.ts", "not-applied")], new Map());
    expect(prompt).toContain("Nothing was written");
    expect(prompt).toContain("- b.ts");
    expect(prompt).toContain("held edits again");
  });

  it("picks a fence longer than any backtick run", () => {
    expect(fenceFor("plain")).toBe("```");
    expect(fenceFor("x ````` y")).toBe("``````");
  });
});
