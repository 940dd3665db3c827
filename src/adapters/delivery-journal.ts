/**
 * The delivery journal: where the webhook thread makes an accepted command durable before it answers GitHub, so the
 * answer waits for one fdatasync and nothing else. The queue store (file-queue-store.ts) makes each record a new
 * file: four fsyncs, each a journal commit of the file system that waits for every other file's writes in flight
 * (the jobs' clones, the intake's claims), and every fs call queues in libuv's shared four-thread pool behind them.
 * Here a record overwrites zeros in a segment that was filled and synced before use, so its fdatasync changes no
 * file system metadata and commits nothing but its own bytes; the calls are synchronous because this runs on a
 * thread that does nothing else (ingress-thread-main.ts), out of the pool's queue. Records that arrive while one
 * batch is being written share the next fdatasync (group commit).
 *
 * Measured on this project's 2-core VM (bench/answers.ts, 100 deliveries a second while the jobs run): the
 * server-side answer p99 went from 100-1,100 ms with the store's files to about 9 ms with a journal.
 *
 * A segment is deleted once every record in it has been stored in the queue (`release`); what a crash leaves is
 * read back at the next start (`readJournal`) and stored again, which the queue's id dedupe makes harmless.
 */
import { closeSync, fdatasyncSync, fsyncSync, openSync, readdirSync, unlinkSync, writeSync } from "node:fs";
import { mkdir, open, opendir, readFile, unlink } from "node:fs/promises";
import path from "node:path";
import { encodeFrame, decodeFrames } from "./journal-frames.js";
import { FILE_MODE, syncDir } from "./durable-files.js";

export const DEFAULT_SEGMENT_BYTES = 4 * 1024 * 1024;
const SEGMENT_FILE = /^(\d{16})\.journal$/;
const ZEROS = Buffer.alloc(1024 * 1024);

const segmentName = (n: number): string => `${String(n).padStart(16, "0")}.journal`;

/** Writes `bytes` zeros and syncs the file and its folder: later overwrites then change no metadata. */
function createSegmentSync(dir: string, n: number, bytes: number): number {
  const fd = openSync(path.join(dir, segmentName(n)), "wx", 0o600);
  for (let written = 0; written < bytes; written += ZEROS.length) {
    writeFully(fd, ZEROS.subarray(0, Math.min(ZEROS.length, bytes - written)), written);
  }
  fsyncSync(fd);
  syncFolderSync(dir);
  return fd;
}

function writeFully(fd: number, data: Buffer, position: number): void {
  for (let done = 0; done < data.length;) {
    done += writeSync(fd, data, done, data.length - done, position + done);
  }
}

function syncFolderSync(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The same as createSegmentSync off the thread's critical path (the next segment, prepared ahead); leaves it closed. */
async function createSegment(dir: string, n: number, bytes: number): Promise<void> {
  const handle = await open(path.join(dir, segmentName(n)), "wx", FILE_MODE);
  try {
    for (let written = 0; written < bytes; written += ZEROS.length) {
      await handle.write(ZEROS, 0, Math.min(ZEROS.length, bytes - written), written);
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  await syncDir(dir);
}

interface Segment {
  readonly n: number;
  readonly fd: number;
  readonly size: number;
  offset: number;
  appended: number;
  released: number;
}

export interface JournalWriter {
  /** Resolves once the record is on disk, with the segment that holds it (for `release`). */
  append(payload: Buffer): Promise<number>;
  /** One record of `segment` is stored elsewhere now; a segment past use with all its records released is deleted. */
  release(segment: number): void;
  /** Refuses what is pending and closes the files; segments still holding unreleased records stay for the next start. */
  close(): void;
}

export function openJournalWriter(dir: string, segmentBytes = DEFAULT_SEGMENT_BYTES): JournalWriter {
  const existing = readdirSync(dir)
    .map((name) => SEGMENT_FILE.exec(name))
    .filter((match) => match !== null)
    .map((match) => Number(match[1]));
  let nextNumber = Math.max(-1, ...existing) + 1;
  const segments = new Map<number, Segment>();
  const track = (n: number, fd: number, size: number): Segment => {
    const segment: Segment = { n, fd, size, offset: 0, appended: 0, released: 0 };
    segments.set(n, segment);
    return segment;
  };
  let active = track(nextNumber, createSegmentSync(dir, nextNumber, segmentBytes), segmentBytes);
  nextNumber += 1;
  let spare: Promise<Segment | undefined> | undefined;
  let pending: { frame: Buffer; resolve: (segment: number) => void; reject: (error: unknown) => void }[] = [];
  let closed = false;

  const retire = (segment: Segment): void => {
    if (segment === active || segment.released < segment.appended) return;
    segments.delete(segment.n);
    closeSync(segment.fd);
    unlinkSync(path.join(dir, segmentName(segment.n)));
  };

  const prepareSpare = (): void => {
    if (spare !== undefined || active.offset < active.size / 2) return;
    const n = nextNumber++;
    spare = createSegment(dir, n, segmentBytes).then(
      () => ({
        n,
        fd: openSync(path.join(dir, segmentName(n)), "r+"),
        size: segmentBytes,
        offset: 0,
        appended: 0,
        released: 0,
      }),
      () => undefined,
    );
  };

  /** The segment the next frame goes to: the active one while it fits, else the next (prepared ahead if it could). */
  const segmentFor = async (frameBytes: number): Promise<Segment> => {
    if (active.offset + frameBytes <= active.size) return active;
    const previous = active;
    const ready = await spare;
    spare = undefined;
    if (ready === undefined) {
      const n = nextNumber++;
      active = track(n, createSegmentSync(dir, n, segmentBytes), segmentBytes);
    } else {
      segments.set(ready.n, ready);
      active = ready;
    }
    retire(previous);
    return active;
  };

  let flushing = false;
  const flush = async (): Promise<void> => {
    flushing = true;
    try {
      while (pending.length > 0) {
        const batch = pending;
        pending = [];
        try {
          const touched = new Set<Segment>();
          const landed: number[] = [];
          for (const { frame } of batch) {
            const segment = await segmentFor(frame.length);
            writeFully(segment.fd, frame, segment.offset);
            segment.offset += frame.length;
            segment.appended += 1;
            touched.add(segment);
            landed.push(segment.n);
          }
          for (const segment of touched) fdatasyncSync(segment.fd);
          batch.forEach(({ resolve }, i) => {
            resolve(landed[i]!);
          });
          prepareSpare();
        } catch (error) {
          for (const { reject } of batch) reject(error);
        }
      }
    } finally {
      flushing = false;
    }
  };

  return {
    append(payload) {
      if (closed) return Promise.reject(new Error("the delivery journal is closed"));
      const frame = encodeFrame(payload);
      if (frame.length > segmentBytes) {
        return Promise.reject(
          new Error(
            `a journal record of ${String(frame.length)} bytes does not fit a segment (${String(segmentBytes)})`,
          ),
        );
      }
      return new Promise((resolve, reject) => {
        pending.push({ frame, resolve, reject });
        // Everything that arrives before the next turn of the loop goes into one write and one fdatasync.
        if (!flushing && pending.length === 1) setImmediate(() => void flush());
      });
    },
    release(n) {
      const segment = segments.get(n);
      if (segment === undefined) return;
      segment.released += 1;
      retire(segment);
    },
    close() {
      closed = true;
      for (const { reject } of pending) reject(new Error("the delivery journal closed before this record was written"));
      pending = [];
      for (const segment of segments.values()) {
        closeSync(segment.fd);
        // Fully stored: nothing for the next start to read back.
        if (segment.released >= segment.appended) unlinkSync(path.join(dir, segmentName(segment.n)));
      }
      segments.clear();
      void spare?.then((ready) => {
        if (ready !== undefined) closeSync(ready.fd);
      });
    },
  };
}

export interface JournalContents {
  /** Records in the order they were written. */
  readonly payloads: Buffer[];
  /** Segment files read (to remove once their records are stored). */
  readonly files: string[];
  /** Segments that end in a torn write: a record whose write a crash cut short (it was never acknowledged). */
  readonly torn: string[];
}

/** Reads what a previous run left, oldest segment first. */
export async function readJournal(dir: string): Promise<JournalContents> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const names: string[] = [];
  for await (const entry of await opendir(dir)) if (SEGMENT_FILE.test(entry.name)) names.push(entry.name);
  names.sort();
  const payloads: Buffer[] = [];
  const torn: string[] = [];
  const files = names.map((name) => path.join(dir, name));
  for (const file of files) {
    const decoded = decodeFrames(await readFile(file));
    payloads.push(...decoded.payloads);
    if (decoded.torn) torn.push(file);
  }
  return { payloads, files, torn };
}

export async function removeSegments(files: readonly string[]): Promise<void> {
  await Promise.all(files.map((file) => unlink(file)));
}
