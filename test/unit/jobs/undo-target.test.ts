import { describe, expect, it } from "vitest";
import { findUndoTarget, type LogEntry } from "../../../src/jobs/undo-target.js";

const bot = "patchsmith[bot]";
const entry = (sha: string, subject: string, authorName: string, body = ""): LogEntry => ({
  sha,
  subject,
  body,
  authorName,
});

describe("findUndoTarget", () => {
  it("picks the newest bot commit at the tip of the branch", () => {
    const log = [entry("2222", "fix: b", bot), entry("1111", "fix: a", bot), entry("0000", "feat: x", "Mia")];
    expect(findUndoTarget(log, bot)?.sha).toBe("2222");
  });

  it("never walks past somebody else's commit (their work, then the base branch's merged bot fixes)", () => {
    const onTopOfHuman = [entry("3333", "docs: human edit", "Mia"), entry("2222", "fix: b", bot)];
    expect(findUndoTarget(onTopOfHuman, bot)).toBeUndefined();
    // A human-only PR branch whose base history holds a merged patchsmith commit: nothing to undo here.
    const humanOnly = [entry("5555", "feat: y", "Mia"), entry("4444", "fix: merged earlier", bot)];
    expect(findUndoTarget(humanOnly, bot)).toBeUndefined();
  });

  it("walks further back past a revert and the commit it reverted", () => {
    const log = [
      entry("4444", 'Revert "fix: b"', bot, "This reverts commit 2222222222222222222222222222222222222222."),
      entry("2222222222222222222222222222222222222222", "fix: b", bot),
      entry("1111", "fix: a", bot),
    ];
    expect(findUndoTarget(log, bot)?.sha).toBe("1111");
  });

  it("finds nothing when the bot has no commit left", () => {
    expect(findUndoTarget([entry("1", "init", "Mia")], bot)).toBeUndefined();
  });
});
