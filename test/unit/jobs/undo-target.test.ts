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
  it("picks the newest bot commit, skipping people's commits", () => {
    const log = [entry("3333", "docs: human edit", "Mia"), entry("2222", "fix: b", bot), entry("1111", "fix: a", bot)];
    expect(findUndoTarget(log, bot)?.sha).toBe("2222");
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
