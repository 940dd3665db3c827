/**
 * The JobQueue port on Redis, for many worker processes on many machines: BullMQ runs the jobs (locks, stalled-job
 * takeover when a worker dies, a global concurrency limit, graceful close), Redis itself keeps the rest.
 *
 * One job at a time per group, in arrival order, on open-source BullMQ (its group feature is in the paid edition):
 * each group is a Redis list of job ids, appended to atomically with the dedupe check (a Lua script). Only the head
 * of a group is handed to BullMQ; when it ends, the same script that removes it names the next head, which is handed
 * over in turn. Handing over is idempotent (the BullMQ job id is derived from ours), and the job's record is deleted
 * when it ends, so a hand-over that comes twice never runs a job twice. A crash between the append and the hand-over
 * (or between the end and the next hand-over) leaves a head that nothing runs: every worker looks for such heads at
 * start and every `sweepMs`, and hands them over.
 *
 * Claims are `SET NX` with the first owner returned (`SET … NX GET`, Redis 7). Ids, claims and records expire after
 * `retentionMs` (default 30 days), as the file queue's markers are swept.
 */
import { createHash } from "node:crypto";
import { DelayedError, Queue, Worker, type Job as BullJob } from "bullmq";
import { Redis } from "ioredis";
import type { EnqueueOptions, JobHandler, JobQueue } from "../ports/job-queue.js";

export interface RedisQueueOptions<J> {
  readonly url: string;
  /** The queue's name (e.g. "jobs", "inbox"); several queues share one Redis. */
  readonly name: string;
  /** Jobs this process runs at once (its BullMQ worker's concurrency). */
  readonly concurrency: number;
  /** Jobs all processes together run at once (BullMQ's global concurrency); undefined: no global limit. */
  readonly globalConcurrency?: number | undefined;
  readonly parse: (value: unknown) => J | undefined;
  readonly onCorrupt?: (problem: { readonly id: string; readonly problem: string }) => void;
  /** How long a worker holds a job without renewing its lock before another worker takes it over (default 30 s). */
  readonly lockMs?: number;
  /** How often heads that nothing runs are looked for (default 30 s). */
  readonly sweepMs?: number;
  readonly retentionMs?: number;
  readonly prefix?: string;
  /**
   * Jobs with the same key (an installation) running at once across all workers, at most: a job over it waits
   * (delayed a moment and tried again) while other groups go on. Kept in a Redis sorted set whose entries expire,
   * so a dead worker's slot comes back.
   */
  readonly perKey?: { readonly keyOf: (job: J) => string | undefined; readonly max: number };
}

export interface RedisQueue<J> extends JobQueue<J> {
  /** Hands over group heads that nothing runs; returns how many (also done at start and every sweepMs). */
  sweep(): Promise<number>;
}

const DEFAULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Appends to a group unless the id was seen: -1 for a duplicate, else the group's length after the append. */
const ADD_SCRIPT = `
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[3]) == false then return -1 end
redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[1])
return redis.call('RPUSH', KEYS[2], ARGV[1])
`;

/** Takes a slot of a key's limit for a job (or renews it); 0 when the key is at its limit. */
const SLOT_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
  return 1
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`;

/** Ends a group's head if it is this id (a rerun ends nothing twice) and returns the next head. */
const DONE_SCRIPT = `
if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then
  redis.call('LPOP', KEYS[1])
  redis.call('DEL', KEYS[2])
end
return redis.call('LINDEX', KEYS[1], 0)
`;

interface Handle {
  readonly id: string;
  readonly group: string;
}

export async function createRedisQueue<J>(options: RedisQueueOptions<J>): Promise<RedisQueue<J>> {
  const prefix = options.prefix ?? "patchsmith";
  const base = `${prefix}:${options.name}`;
  const retention = String(options.retentionMs ?? DEFAULT_RETENTION_MS);
  // BullMQ's workers block on their own connection; commands need `maxRetriesPerRequest: null` for them.
  const redis = new Redis(options.url, { maxRetriesPerRequest: null, lazyConnect: true });
  await redis.connect();
  const queue = new Queue<Handle>(options.name, { connection: redis, prefix });
  if (options.globalConcurrency !== undefined) await queue.setGlobalConcurrency(options.globalConcurrency);

  const key = {
    id: (id: string) => `${base}:id:${id}`,
    claim: (name: string) => `${base}:claim:${name}`,
    group: (group: string) => `${base}:group:${group}`,
    record: (id: string) => `${base}:record:${id}`,
    slots: (limitKey: string) => `${base}:slots:${limitKey}`,
    /** Ids added and not started yet, scored by when they came. */
    waiting: `${base}:waiting`,
  };
  const lockMs = options.lockMs ?? 30_000;
  /** Takes (or renews) a slot for `id` under `limitKey`; it expires unless renewed, as a worker's lock does. */
  const takeSlot = async (limitKey: string, id: string, max: number): Promise<boolean> => {
    const now = Date.now();
    const taken = await redis.eval(
      SLOT_SCRIPT,
      1,
      key.slots(limitKey),
      String(now),
      String(now + 2 * lockMs),
      id,
      String(max),
      String(4 * lockMs),
    );
    return taken === 1;
  };
  // BullMQ job ids may not contain ':' or be integers; ours may.
  const bullId = (id: string): string => `j${createHash("sha256").update(id).digest("hex").slice(0, 40)}`;

  async function handOver(handle: Handle): Promise<void> {
    await queue.add("run", handle, {
      jobId: bullId(handle.id),
      // A Redis hiccup while a job starts or ends is tried again rather than giving the job up.
      attempts: 5,
      backoff: { type: "exponential", delay: 1_000 },
      // Kept a while after it ends, so that a late second hand-over of the same id is recognised as done.
      removeOnComplete: { age: 24 * 60 * 60 },
      removeOnFail: { age: 7 * 24 * 60 * 60 },
    });
  }

  async function finish(handle: Handle): Promise<void> {
    await redis.zrem(key.waiting, handle.id);
    const next = (await redis.eval(DONE_SCRIPT, 2, key.group(handle.group), key.record(handle.id), handle.id)) as
      string | null;
    if (next !== null) await handOver({ id: next, group: handle.group });
  }

  async function sweep(): Promise<number> {
    let handed = 0;
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${base}:group:*`, "COUNT", 200);
      cursor = next;
      for (const groupKey of keys) {
        const head = await redis.lindex(groupKey, 0);
        if (head === null) continue;
        const state = await queue.getJobState(bullId(head));
        if (state === "unknown") {
          await handOver({ id: head, group: groupKey.slice(`${base}:group:`.length) });
          handed += 1;
        } else if (state === "completed" || state === "failed") {
          // Ended, but its end was not recorded (a crash right after): end it now.
          await finish({ id: head, group: groupKey.slice(`${base}:group:`.length) });
        }
      }
    } while (cursor !== "0");
    return handed;
  }

  let worker: Worker<Handle> | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  let paused = false;

  return {
    async add(job: J, { id, group }: EnqueueOptions): Promise<boolean> {
      const length = (await redis.eval(
        ADD_SCRIPT,
        4,
        key.id(id),
        key.group(group),
        key.record(id),
        key.waiting,
        id,
        JSON.stringify(job),
        retention,
        String(Date.now()),
      )) as number;
      if (length < 0) return false;
      if (length === 1) await handOver({ id, group });
      return true;
    },
    async claim(name: string, owner: string): Promise<string> {
      const held = await redis.set(key.claim(name), owner, "PX", Number(retention), "NX", "GET");
      return held ?? owner;
    },
    async recall(name: string): Promise<string | undefined> {
      return (await redis.get(key.claim(name))) ?? undefined;
    },
    pending: (group: string) => redis.llen(key.group(group)),
    async depth() {
      const queued = await redis.zcard(key.waiting);
      const running = (await queue.getJobCounts("active")).active ?? 0;
      const [, oldest] = await redis.zrange(key.waiting, 0, 0, "WITHSCORES");
      return { queued, running, ...(oldest === undefined ? {} : { oldestQueuedAt: Number(oldest) }) };
    },
    async sweep() {
      return sweep();
    },
    start(handler: JobHandler<J>, onError: (error: unknown, job: J) => void): void {
      const processor = async (bull: BullJob<Handle>, token?: string): Promise<void> => {
        const handle = bull.data;
        const text = await redis.get(key.record(handle.id));
        // No record: the job already ended (a second hand-over); only make sure its group moves on.
        if (text !== null) {
          let parsed: J | undefined;
          try {
            parsed = options.parse(JSON.parse(text));
          } catch {
            parsed = undefined;
          }
          if (parsed === undefined) {
            options.onCorrupt?.({ id: handle.id, problem: "the record does not parse" });
          } else {
            const limitKey = options.perKey?.keyOf(parsed);
            const max = options.perKey?.max ?? 0;
            if (limitKey !== undefined && !(await takeSlot(limitKey, handle.id, max))) {
              // At its key's limit: tried again in a moment; its group waits (it is the group's head).
              await bull.moveToDelayed(Date.now() + Math.min(2_000, lockMs), token);
              throw new DelayedError();
            }
            await redis.zrem(key.waiting, handle.id);
            const renew =
              limitKey === undefined
                ? undefined
                : setInterval(() => void takeSlot(limitKey, handle.id, max).catch(() => undefined), lockMs / 2);
            try {
              await handler(parsed);
            } catch (error) {
              onError(error, parsed);
            } finally {
              if (renew !== undefined) clearInterval(renew);
              if (limitKey !== undefined) await redis.zrem(key.slots(limitKey), handle.id).catch(() => 0);
            }
          }
        }
        await finish(handle);
      };
      worker = new Worker<Handle>(options.name, processor, {
        connection: redis,
        prefix,
        concurrency: options.concurrency,
        lockDuration: lockMs,
        stalledInterval: lockMs,
        // A job whose worker died is taken over by another; one that kills its workers twice is given up.
        maxStalledCount: 2,
      });
      // Given up (stalled too often): its group must not wait for it forever.
      worker.on("failed", (bull) => {
        if (bull !== undefined) void finish(bull.data).catch(() => undefined);
      });
      worker.on("error", () => undefined);
      const every = options.sweepMs ?? 30_000;
      sweeper = setInterval(() => {
        if (!paused) void sweep().catch(() => undefined);
      }, every);
      sweeper.unref();
      void sweep().catch(() => undefined);
    },
    async idle(): Promise<void> {
      for (;;) {
        const counts = await queue.getJobCounts("waiting", "active", "delayed", "prioritized", "paused");
        const busy = Object.values(counts).reduce((sum, n) => sum + n, 0);
        if (busy === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    pause(): void {
      paused = true;
      // Running jobs go on; no new one starts here (others may take them).
      void worker?.pause(true).catch(() => undefined);
    },
    async close(): Promise<void> {
      paused = true;
      if (sweeper !== undefined) clearInterval(sweeper);
      try {
        await worker?.close();
        await queue.close();
      } finally {
        await redis.quit().catch(() => undefined);
      }
    },
  };
}
