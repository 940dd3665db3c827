import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { openJournalWriter } from "../../../src/adapters/delivery-journal.js";
import { createFileQueue } from "../../../src/adapters/file-queue.js";
import { commandOf } from "../../../src/github/accept-delivery.js";
import { replayJournal } from "../../../src/github/ingress-thread.js";
import { parseIntake, type IntakeRecord } from "../../../src/github/intake-record.js";
import type { Logger } from "../../../src/ports/logger.js";
import { loadPayload } from "./fixtures.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string) => {
    lines.push(message);
  };
  return { lines, debug: log, info: log, warn: log, error: log };
}

const command = (deliveryId: string, commentId: number) => {
  const payload = loadPayload("issue-comment-created");
  (payload.comment as Record<string, unknown>).id = commentId;
  const made = commandOf({ id: deliveryId, name: "issue_comment", payload }, recordingLogger(), () => 1);
  if (typeof made === "string") throw new Error(`the fixture holds no command (${made})`);
  return made;
};

describe("replaying the delivery journal at start", () => {
  test("stores what was answered but not stored, in order, once, and forgets the segments", async () => {
    const base = await mkdtemp(path.join(tmpdir(), "patchsmith-replay-"));
    dirs.push(base);
    const journalDir = path.join(base, "journal");
    const inbox = await createFileQueue<IntakeRecord>({ dir: path.join(base, "inbox"), parse: parseIntake });
    const [first, second, third] = [command("d-1", 1), command("d-2", 2), command("d-3", 3)];
    // The first one reached the inbox before the stop; the journal still holds it.
    await inbox.add(first.record, { id: first.id, group: first.group });
    await mkdir(journalDir);
    const journal = openJournalWriter(journalDir);
    for (const c of [first, second, third]) await journal.append(Buffer.from(JSON.stringify(c)));
    await journal.append(Buffer.from(JSON.stringify({ id: "x", group: "y", record: { version: 9 } })));
    journal.close();

    const logger = recordingLogger();
    expect(await replayJournal(journalDir, inbox, logger)).toBe(2);
    expect(logger.lines.some((line) => line.includes("could not be read back"))).toBe(true);
    expect(await readdir(journalDir)).toEqual([]);

    const ran: string[] = [];
    inbox.start(
      (record) => {
        ran.push(record.deliveryId);
        return Promise.resolve();
      },
      () => undefined,
    );
    await inbox.idle();
    await inbox.close();
    expect(ran).toEqual(["d-1", "d-2", "d-3"]);
  });
});
