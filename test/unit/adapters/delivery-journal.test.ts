import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { openJournalWriter, readJournal, removeSegments } from "../../../src/adapters/delivery-journal.js";
import { encodeFrame } from "../../../src/adapters/journal-frames.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "patchsmith-journal-"));
  dirs.push(dir);
  return dir;
}
const record = (n: number): Buffer => Buffer.from(JSON.stringify({ n, pad: "x".repeat(200) }));
const numbers = async (dir: string): Promise<number[]> =>
  (await readJournal(dir)).payloads.map((p) => (JSON.parse(p.toString()) as { n: number }).n);

describe("delivery journal", () => {
  test("records appended are read back in order by the next start, across segments", async () => {
    const dir = await folder();
    const journal = openJournalWriter(dir, 4096);
    const segments: number[] = [];
    for (let n = 0; n < 60; n++) segments.push(await journal.append(record(n)));
    journal.close();
    expect(new Set(segments).size).toBeGreaterThan(2);
    expect(await numbers(dir)).toEqual(Array.from({ length: 60 }, (_, n) => n));
  });

  test("records appended together share one write and land in order", async () => {
    const dir = await folder();
    const journal = openJournalWriter(dir, 8192);
    await Promise.all(Array.from({ length: 100 }, (_, n) => journal.append(record(n))));
    journal.close();
    expect(await numbers(dir)).toEqual(Array.from({ length: 100 }, (_, n) => n));
  });

  test("a segment whose records were all released is deleted once the journal moved past it", async () => {
    const dir = await folder();
    const journal = openJournalWriter(dir, 2048);
    const landed: number[] = [];
    for (let n = 0; n < 30; n++) landed.push(await journal.append(record(n)));
    // Release all but the last five records.
    for (const segment of landed.slice(0, 25)) journal.release(segment);
    journal.close();
    const left = await numbers(dir);
    expect(left.slice(-5)).toEqual([25, 26, 27, 28, 29]);
    expect(left.length).toBeLessThan(30);
    // Only the segments holding an unreleased record (or the last one) stay.
    expect((await readdir(dir)).filter((f) => f.endsWith(".journal")).length).toBeLessThanOrEqual(
      new Set(landed.slice(25)).size + 1,
    );
  });

  test("a close after every record was stored leaves nothing to read back", async () => {
    const dir = await folder();
    const journal = openJournalWriter(dir, 4096);
    for (let n = 0; n < 40; n++) journal.release(await journal.append(record(n)));
    journal.close();
    expect(await readdir(dir)).toEqual([]);
  });

  test("a record larger than a segment is refused, and the journal goes on", async () => {
    const dir = await folder();
    const journal = openJournalWriter(dir, 1024);
    await expect(journal.append(Buffer.alloc(2000, 1))).rejects.toThrow(/does not fit a segment/);
    await journal.append(record(7));
    journal.close();
    expect(await numbers(dir)).toEqual([7]);
  });

  test("a torn tail is reported, the records before it kept, and the next run starts a new segment", async () => {
    const dir = await folder();
    const whole = Buffer.concat([encodeFrame(record(1)), encodeFrame(record(2))]);
    await writeFile(
      path.join(dir, "0000000000000000.journal"),
      Buffer.concat([whole.subarray(0, whole.length - 10), Buffer.alloc(100)]),
    );
    const found = await readJournal(dir);
    expect(found.payloads).toHaveLength(1);
    expect(found.torn).toHaveLength(1);
    const journal = openJournalWriter(dir, 4096);
    await journal.append(record(3));
    journal.close();
    expect(await numbers(dir)).toEqual([1, 3]);
    await removeSegments(found.files);
    expect(await numbers(dir)).toEqual([3]);
  });

  test("after close, appends are refused rather than lost silently", async () => {
    const journal = openJournalWriter(await folder());
    journal.close();
    await expect(journal.append(record(1))).rejects.toThrow(/closed/);
  });
});
