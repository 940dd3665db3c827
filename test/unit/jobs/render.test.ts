import { describe, expect, it } from "vitest";
import type { TestSummary } from "../../../src/agent/types.js";
import { findCommands } from "../../../src/github/parse-command.js";
import { fence, truncate, truncateStart } from "../../../src/github/markdown.js";
import { renderCheckOutcome } from "../../../src/jobs/render-check.js";
import { renderDenied, renderHelp, renderOutcome, renderProgress } from "../../../src/jobs/render-comment.js";
import { renderAttempts, renderTestTail, renderUsage } from "../../../src/jobs/render-report.js";
import { renderSuggestion, suggestionLines } from "../../../src/jobs/suggestion.js";
import { failedReport, successReport, tests } from "./reports.js";

describe("markdown helpers", () => {
  it("fences content with a fence longer than any backtick run inside", () => {
    expect(fence("a ``` b", "diff")).toBe("````diff\na ``` b\n````");
    expect(fence("plain\n")).toBe("```\nplain\n```");
  });

  it("truncates at a line boundary and says how much is missing", () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const cut = truncate(text, 50);
    expect(cut.length).toBeLessThan(100);
    expect(cut).toMatch(/… \(\d+ more lines not shown\)$/);
  });

  it("keeps the end of a tail, at a line boundary, and says how much came before", () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const cut = truncateStart(text, 50);
    expect(cut).toMatch(/^… \(\d+ earlier lines not shown\)\n(line \d+\n)+line 99$/);
    expect(cut.split("\n").length).toBeLessThan(10);
    expect(truncateStart("short", 50)).toBe("short");
  });
});

describe("the test output of a failed run", () => {
  const summary = (tail: string, steps?: TestSummary["steps"]) =>
    tests(false, { tail, ...(steps === undefined ? {} : { steps }) });
  const mochaEnd = `${Array.from({ length: 500 }, (_, i) => `    ✓ case ${String(i)}`).join("\n")}\n  2 failing`;

  it("shows the end of the tests' output, where the runner's summary is", () => {
    const body = renderTestTail(
      failedReport("tests-failed", "x", { tests: { before: null, after: summary(mochaEnd) } }),
    );
    expect(body).toContain("  2 failing\n```");
    expect(body).not.toContain("case 0\n");
  });

  it("shows a failed lint's own output, which the end of the whole output would not", () => {
    const lintOutput = "lib/<x>.js\n  3:1  error  Parsing error: Unexpected token ,\n";
    const after = summary(`${lintOutput}${mochaEnd}`, [
      {
        command: "npm run lint <src>",
        main: false,
        passed: false,
        exitCode: 1,
        failureLines: [],
        outputDigest: "",
        tail: lintOutput,
      },
      { command: "mocha", main: true, passed: true, exitCode: 0, failureLines: [], outputDigest: "" },
    ]);
    const body = renderTestTail(failedReport("tests-failed", "x", { tests: { before: null, after } }));
    expect(body).toContain("<summary>Output of npm run lint &lt;src&gt; (tail)</summary>");
    expect(body).toContain("Parsing error: Unexpected token ,");
    expect(body.indexOf("Parsing error")).toBeLessThan(body.indexOf("Test output (tail)"));
  });
});

describe("progress comment", () => {
  it("ticks the stages passed and marks the current one", () => {
    const body = renderProgress({ command: "/fix the parser", requester: "mia", stage: "asking-model" });
    expect(body).toContain("<!-- patchsmith -->");
    expect(body).toContain(
      "- [x] queued\n- [x] cloning\n- [x] installing what the tests need\n- [x] running the tests first\n- [ ] **asking the model** ⏳",
    );
    expect(body).toContain("- [ ] pushing");
  });
});

describe("final comment", () => {
  it("never lets model or test text start a command line", () => {
    const report = failedReport("edits-failed", "/fix this yourself\n/undo\n```\nbreak out");
    const body = renderOutcome({ kind: "not-fixed", report }, "mia", "/fix x");
    expect(findCommands(body)).toEqual([]);
  });

  it("shows the diff stat, the collapsed diff, tests and usage for a fix", () => {
    const body = renderOutcome(
      {
        kind: "fixed",
        report: successReport(),
        delivery: {
          kind: "pushed",
          branch: "patchsmith/issue-12",
          commits: [{ sha: "c".repeat(40), subject: "fix: x", url: "https://h/commit/c" }],
        },
      },
      "mia",
      "/fix x",
    );
    expect(body).toContain("1 file changed, 1 insertion(+), 1 deletion(-)");
    expect(body).toContain("<details><summary>Diff</summary>\n\n```diff\ndiff --git");
    expect(body).toContain(
      "**Attempts:** 1 · **Model calls:** 1 · **Tokens:** 1,500 tokens (1,200 prompt + 300 completion)",
    );
    expect(body).toContain("[`ccccccc`](https://h/commit/c) fix: x");
  });

  it("gives what the tests said of a kept attempt too (a test that failed once, then passed)", () => {
    const report = successReport();
    const note = "1 test(s) failed on the first run and passed when run again (flaky?): answers in time";
    const kept = { ...report, attempts: [{ ...report.attempts[0]!, note }] };
    expect(renderAttempts(kept)).toContain(`| kept: ${note} |`);
    expect(renderAttempts(report)).toMatch(/\| kept \|/);
  });

  it("marks token figures the endpoint did not report as estimates", () => {
    const report = successReport();
    const estimated = { ...report, usage: { ...report.usage, estimatedCalls: 1 } };
    expect(renderUsage(estimated)).toBe(
      "**Attempts:** 1 · **Model calls:** 1 · **Tokens:** ~1,500 tokens (1,200 prompt + 300 completion; estimated for 1 of 1 calls)",
    );
  });

  it("gives the cost when the operator priced the model, and only then", () => {
    const report = successReport();
    expect(renderUsage({ ...report, usage: { ...report.usage, costUsd: 0.0456 } })).toBe(
      "**Attempts:** 1 · **Model calls:** 1 · **Tokens:** 1,500 tokens (1,200 prompt + 300 completion) · **Cost:** $0.046",
    );
    expect(renderUsage(report)).not.toContain("Cost");
  });

  it("keeps a huge patch delivery under GitHub's comment size limit and says it was cut", () => {
    const diff = `diff --git a/x b/x\n${"+ a long added line of generated text\n".repeat(5000)}`;
    const body = renderOutcome(
      { kind: "fixed", report: { ...successReport(), diff }, delivery: { kind: "patch", why: "fork" } },
      "mia",
      "/fix x",
    );
    expect(body.length).toBeLessThan(65_536);
    expect(body).toMatch(/more lines not shown/);
  });

  it("neutralises mentions in quoted text", () => {
    const report = failedReport("tests-failed", "x", { notes: ["ping @everyone"] });
    expect(renderOutcome({ kind: "not-fixed", report }, "mia", "/fix")).toContain("@\u200beveryone");
  });

  it("explains a denial politely and lists the commands in /help", () => {
    const denied = renderDenied("newcomer", "insufficient-permission");
    expect(denied).toContain("Hi @newcomer, thanks for taking the time!");
    expect(denied).toContain("tested commits, pull requests and review suggestions");
    expect(denied).toContain("only runs for people with write access");
    expect(denied).toContain("a maintainer agrees");
    // No line starts with a trigger: the note must not read as a command to patchsmith or another bot.
    expect(denied.split("\n").some((line) => line.trimStart().startsWith("/"))).toBe(false);
    expect(renderDenied("newcomer", "not-listed")).toContain("`.github/patchsmith.yml` names the people");
    expect(renderHelp()).toContain("Only people with write access");
    expect(renderHelp()).toContain("`/undo`");
  });
});

describe("check run", () => {
  it("carries the same summary and the conclusion", () => {
    const out = renderCheckOutcome({ kind: "not-fixed", report: failedReport("model-error", "boom") }, "mia", "/fix x");
    expect(out.conclusion).toBe("failure");
    expect(out.title).toBe("Not fixed: model-error");
    expect(out.summary).not.toContain("<!-- patchsmith -->");
    expect(out.summary).toContain("boom");
  });
});

describe("suggestions", () => {
  const before = "a\nb\nc\nd\ne\n";

  it("gives the new content of the commented lines, including inserted lines", () => {
    const result = suggestionLines([{ path: "f.ts", before, after: "a\nB\nC\nC2\nd\ne\n" }], {
      path: "f.ts",
      startLine: 2,
      endLine: 3,
    });
    expect(result).toEqual({ ok: true, lines: ["B", "C", "C2"] });
  });

  it("can delete the lines", () => {
    const result = suggestionLines([{ path: "f.ts", before, after: "a\nd\ne\n" }], {
      path: "f.ts",
      startLine: 2,
      endLine: 3,
    });
    expect(result).toEqual({ ok: true, lines: [] });
    expect(renderSuggestion([], "ok")).toContain("```suggestion\n```");
  });

  it("refuses changes outside the lines, in other files, or creations", () => {
    expect(
      suggestionLines([{ path: "f.ts", before, after: "A\nb\nc\nd\ne\n" }], { path: "f.ts", startLine: 2, endLine: 3 }),
    ).toMatchObject({
      ok: false,
      reason: "outside-lines",
    });
    expect(
      suggestionLines(
        [
          { path: "f.ts", before, after: "a\nB\nc\nd\ne\n" },
          { path: "g.ts", before: "x\n", after: "y\n" },
        ],
        { path: "f.ts", startLine: 2, endLine: 3 },
      ),
    ).toMatchObject({ ok: false, reason: "other-files" });
    expect(
      suggestionLines([{ path: "f.ts", before: null, after: "new\n" }], { path: "f.ts", startLine: 1, endLine: 1 }),
    ).toMatchObject({
      ok: false,
      reason: "file-created-or-deleted",
    });
    expect(suggestionLines([], { path: "f.ts", startLine: 1, endLine: 1 })).toMatchObject({
      ok: false,
      reason: "no-change",
    });
  });

  it("keeps CRLF files' lines without the carriage returns", () => {
    const result = suggestionLines([{ path: "f.ts", before: "a\r\nb\r\nc\r\n", after: "a\r\nB\r\nc\r\n" }], {
      path: "f.ts",
      startLine: 2,
      endLine: 2,
    });
    expect(result).toEqual({ ok: true, lines: ["B"] });
  });

  it("uses a longer fence when the new lines hold backticks", () => {
    expect(renderSuggestion(["const s = ```x```;"], "ok")).toContain("````suggestion\nconst s = ```x```;\n````");
  });
});
