import { describe, expect, it } from "vitest";
import { buildReflectionPrompt } from "../../../src/agent/build-prompt.js";
import { changedExcerpts, WHOLE_CHANGED_FILE_CHARS } from "../../../src/agent/changed-excerpts.js";

/** A file of `n` numbered lines, long enough per line that 2,000 of them pass the size shown whole. */
const numbered = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `const value${String(i + 1)} = compute(${String(i + 1)}); // padding`);
const text = (lines: readonly string[]): string => `${lines.join("\n")}\n`;

describe("what the model is shown of a file it changed", () => {
  const before = numbered(2000);
  const after = [...before];
  after[99] = "const value100 = compute(100) + 1;";
  after.splice(1500, 1, "const value1501 = 0;", "const extra = 1;");

  it("shows a short file, or a new one, whole", () => {
    expect(changedExcerpts("a\n", "b\n")).toBe("whole");
    expect(changedExcerpts(null, text(after))).toBe("whole");
  });

  it("shows a long file around each change, numbered as an editor numbers it", () => {
    expect(text(after).length).toBeGreaterThan(WHOLE_CHANGED_FILE_CHARS);
    const excerpts = changedExcerpts(text(before), text(after));
    if (excerpts === "whole") throw new Error("a long file was shown whole");
    expect(excerpts.map((e) => [e.start, e.end])).toEqual([
      [60, 140],
      [1461, 1542],
    ]);
    for (const e of excerpts) expect(e.text).toBe(after.slice(e.start - 1, e.end).join("\n"));
  });

  it("merges changes close together, and shows nothing of a file its edits left as it was", () => {
    const near = [...before];
    near[99] = "const value100 = 1;";
    near[149] = "const value150 = 1;";
    const excerpts = changedExcerpts(text(before), text(near));
    expect(excerpts !== "whole" && excerpts.map((e) => [e.start, e.end])).toEqual([[60, 190]]);
    expect(changedExcerpts(text(before), text(before))).toEqual([]);
  });

  it("puts the excerpts, not the whole file, in the prompt after the tests", () => {
    const prompt = buildReflectionPrompt({
      attempt: 1,
      tests: {
        command: "npm test",
        passed: false,
        exitCode: 1,
        timedOut: false,
        failing: [],
        tail: "1 failing",
        durationMs: 1,
      },
      newFailures: [],
      stillFailing: [],
      files: new Map([["src/values.js", text(after)]]),
      previous: new Map([["src/values.js", text(before)]]),
      redact: (t) => t,
    });
    expect(prompt).toContain('<untrusted-data source="file src/values.js (lines 60-140)">');
    expect(prompt).toContain('<untrusted-data source="file src/values.js (lines 1461-1542)">');
    expect(prompt).toContain("const extra = 1;");
    expect(prompt).not.toContain("const value1000 = compute(1000);");
  });
});
