/**
 * The embedded durable job queue: the memory queue's semantics (one job at a time per group in order, up to
 * `concurrency` groups at once, idempotent ids, dedupe keys) kept in one small file per record under a folder, so
 * queued jobs and dedupe facts survive restarts and kill -9 without a database (see file-queue-store.ts for layout).
 *
 * Delivery is AT LEAST ONCE: a job file is removed only after its handler settled, so a job that was running when the
 * process died runs again at the next start. Handlers must tolerate a rerun (the worker re-checks the head SHA and
 * edits one progress comment in place).
 *
 * One process consumes a folder at a time: two live instances on one folder would both run its pending jobs. Adding
 * and claims (`add`, `claim`) are atomic across processes.
 */
import path from "node:path";
import type { EnqueueOptions, JobHandler, JobQueue } from "../ports/job-queue.js";
import { claimMarker, markerExists, markerOwner, removeMarker, sweepMarkers } from "./file-queue-markers.js";
import {
  describeError,
  hashOf,
  loadJobs,
  prepareLayout,
  recoverTemps,
  writeJob,
  type CorruptRecord,
} from "./file-queue-store.js";
import { createGroupScheduler } from "./group-scheduler.js";

export type { CorruptRecord } from "./file-queue-store.js";

export interface FileQueueOptions<J> {
  /** Created if missing (mode 0700). */
  readonly dir: string;
  /** Groups worked on at the same time (default 2). */
  readonly concurrency?: number;
  /** Validates a record read back from disk (e.g. parseJob from src/jobs/job-schema.ts): undefined = corrupt. */
  readonly parse: (value: unknown) => J | undefined;
  /** How long dedupe keys and finished job ids are remembered (default 30 days); older ones are swept at start. */
  readonly retentionMs?: number;
  readonly now?: () => number;
  /** Told about each record moved to corrupt/ at start (to log it); the count is also on `corrupt`. */
  readonly onCorrupt?: (record: CorruptRecord) => void;
  /** Jobs with the same key (an installation) running at once, at most (see group-scheduler.ts). */
  readonly perKey?: { readonly keyOf: (job: J) => string | undefined; readonly max: number };
}

export interface FileQueue<J> extends JobQueue<J> {
  /** Records found unreadable at start and moved to `<dir>/corrupt/`. */
  readonly corrupt: number;
  /** Jobs found on disk at start (including ones rolled forward from an add interrupted after its commit point). */
  readonly recovered: number;
  /** Expired ids and keys removed at start. */
  readonly swept: number;
}

export const DEFAULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

interface Entry<J> {
  readonly name: string;
  readonly job: J;
}

export async function createFileQueue<J>(options: FileQueueOptions<J>): Promise<FileQueue<J>> {
  const now = options.now ?? Date.now;
  const layout = await prepareLayout(options.dir);

  let corrupt = 0;
  await recoverTemps(layout);
  const loaded = await loadJobs(layout, options.parse, (record) => {
    corrupt += 1;
    options.onCorrupt?.(record);
  });
  const cutoff = now() - (options.retentionMs ?? DEFAULT_RETENTION_MS);
  const pendingIds = new Set(loaded.map((job) => job.idHash));
  const swept =
    (await sweepMarkers(layout.ids, cutoff, pendingIds)) + (await sweepMarkers(layout.keys, cutoff, new Set()));

  // Only pending jobs live in memory (in the scheduler); finished ids and keys are looked up on disk (the files are
  // the index). The job's file is removed only once its handler settled: that is what makes delivery at least once.
  const perKey = options.perKey;
  const scheduler = createGroupScheduler<Entry<J>>({
    concurrency: options.concurrency ?? 2,
    ...(perKey === undefined ? {} : { perKey: { keyOf: (entry) => perKey.keyOf(entry.job), max: perKey.max } }),
    settle: async (entry) => {
      try {
        await removeMarker(path.join(layout.jobs, entry.name));
      } catch (error) {
        const reason = describeError(error);
        throw new Error(`job finished but its file ${entry.name} could not be removed (${reason}): it will run again`);
      }
    },
  });
  for (const job of loaded) {
    scheduler.enqueue(job.record.group, { name: job.name, job: job.job }, job.record.enqueuedAt);
  }
  let nextSeq = loaded.reduce((max, job) => Math.max(max, job.seq), -1) + 1;
  // Adds of one group run one after another, so its jobs are queued (and numbered) in call order even when callers
  // do not await; groups add side by side, so their fsyncs overlap instead of queueing behind each other (a burst
  // over many threads on a busy disk would otherwise wait for every other thread's fsyncs).
  const addChains = new Map<string, Promise<unknown>>();

  async function addNow(job: J, { id, group }: EnqueueOptions, seq: number): Promise<boolean> {
    if (scheduler.isClosed()) return false;
    // A known id is refused without writing anything (a redelivery, or the journal read back at start); the
    // marker's link in writeJob stays the commit point for the rest.
    if (await markerExists(path.join(layout.ids, hashOf(id)))) return false;
    const at = now();
    const name = await writeJob(layout, seq, { id, group, enqueuedAt: at, job }, at);
    if (name === undefined) return false;
    // After a close() that began while the file was written the scheduler refuses it: the job stays on disk for the
    // next instance, and was still added.
    scheduler.enqueue(group, { name, job }, at);
    return true;
  }

  return {
    get corrupt() {
      return corrupt;
    },
    recovered: loaded.length,
    swept,
    add(job: J, where: EnqueueOptions): Promise<boolean> {
      const seq = nextSeq++;
      const result = (addChains.get(where.group) ?? Promise.resolve()).then(() => addNow(job, where, seq));
      const settled = result.catch(() => undefined);
      addChains.set(where.group, settled);
      // A group with nothing left to add is forgotten, so the map stays as small as the burst.
      void settled.then(() => {
        if (addChains.get(where.group) === settled) addChains.delete(where.group);
      });
      return result;
    },
    claim(key: string, owner: string): Promise<string> {
      return claimMarker(layout, path.join(layout.keys, hashOf(key)), now(), owner);
    },
    recall(key: string): Promise<string | undefined> {
      return markerOwner(path.join(layout.keys, hashOf(key)));
    },
    pending(group: string): Promise<number> {
      return Promise.resolve(scheduler.pending(group));
    },
    depth: () => Promise.resolve(scheduler.depth()),
    start(jobHandler: JobHandler<J>, errorHandler: (error: unknown, job: J) => void): void {
      scheduler.start(
        (entry) => jobHandler(entry.job),
        (error, entry) => {
          errorHandler(error, entry.job);
        },
      );
    },
    idle: () => scheduler.idle(),
    pause: () => {
      scheduler.pause();
    },
    async close(): Promise<void> {
      // Queued jobs stay on disk for the next instance; only the in-memory view is dropped.
      const stopped = scheduler.close();
      await Promise.all(addChains.values());
      await stopped;
    },
  };
}
