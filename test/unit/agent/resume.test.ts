import { describe, expect, it } from "vitest";
import { earlierRun } from "../../../src/agent/resume.js";
import type { Sandbox } from "../../../src/ports/git-sandbox.js";

/** A sandbox that only answers `log` (newest first), as git would for the branch's recent commits. */
function withLog(entries: { sha: string; subject: string; body: string }[]): Sandbox {
  const log = (_range: string, limit = Infinity) =>
    Promise.resolve(entries.slice(0, limit).map((e) => ({ ...e, authorName: "patchsmith[bot]" })));
  return { log } as unknown as Sandbox;
}

const trailer = { key: "Patchsmith-Job", value: "c7-abc" };

describe("earlierRun", () => {
  it("finds the commits that carry the trailer, oldest first, and the commit they started from", async () => {
    const sandbox = withLog([
      { sha: "d", subject: "test: add a case", body: "Patchsmith-Model: m\nPatchsmith-Job: c7-abc" },
      { sha: "c", subject: "fix: the bug", body: "Why.\n\nPatchsmith-Job: c7-abc" },
      { sha: "b", subject: "someone else's", body: "" },
      { sha: "a", subject: "root", body: "" },
    ]);
    const run = await earlierRun(sandbox, trailer);
    expect(run?.commits.map((c) => c.sha)).toEqual(["c", "d"]);
    expect(run?.commits[0]?.subject).toBe("fix: the bug");
    expect(run?.from).toBe("b");
  });

  it("ignores another job's trailer, a value that only starts alike, and the text outside a line of its own", async () => {
    const sandbox = withLog([
      { sha: "c", subject: "fix", body: "Patchsmith-Job: c7-abcd" },
      { sha: "b", subject: "fix", body: "mentions Patchsmith-Job: c7-abc in prose" },
      { sha: "a", subject: "root", body: "Patchsmith-Job: c8-xyz" },
    ]);
    expect(await earlierRun(sandbox, trailer)).toBeUndefined();
  });

  it("has no starting commit when the marked commit is the oldest one read", async () => {
    const sandbox = withLog([{ sha: "a", subject: "fix", body: "Patchsmith-Job: c7-abc" }]);
    const run = await earlierRun(sandbox, trailer);
    expect(run?.commits.map((c) => c.sha)).toEqual(["a"]);
    expect(run?.from).toBeUndefined();
  });
});
