/**
 * The in-process job queue: one job at a time per group in order, up to `concurrency` groups at once served round
 * robin (group-scheduler.ts, shared with the file queue), idempotent ids.
 * Not durable: jobs queued when the process stops are lost (the progress comment then stays at "queued"); the
 * durable adapter (file-queue.ts) implements the same port.
 */
import type { EnqueueOptions, JobHandler, JobQueue } from "../ports/job-queue.js";
import { createGroupScheduler } from "./group-scheduler.js";

export interface MemoryQueueOptions {
  /** Groups worked on at the same time (default 2). */
  readonly concurrency?: number;
  /** How many ids and keys are remembered for deduplication (oldest forgotten first; default 50,000). */
  readonly memory?: number;
}

/** A map that forgets its oldest entries past a size, so dedupe memory stays bounded on a long-running server. */
class BoundedMap {
  readonly #items = new Map<string, string>();
  constructor(private readonly limit: number) {}
  /** The value held for `key`, after setting it to `value` if there was none. */
  claim(key: string, value: string): string {
    const held = this.#items.get(key);
    if (held !== undefined) return held;
    this.#items.set(key, value);
    if (this.#items.size > this.limit) {
      const oldest = this.#items.keys().next().value;
      if (oldest !== undefined) this.#items.delete(oldest);
    }
    return value;
  }
  get(key: string): string | undefined {
    return this.#items.get(key);
  }
}

export function createMemoryQueue<J>(options: MemoryQueueOptions = {}): JobQueue<J> {
  const ids = new BoundedMap(options.memory ?? 50_000);
  const keys = new BoundedMap(options.memory ?? 50_000);
  const scheduler = createGroupScheduler<J>({ concurrency: options.concurrency ?? 2 });
  let added = 0;

  return {
    add(job: J, { id, group }: EnqueueOptions): Promise<boolean> {
      const ticket = String(++added);
      if (scheduler.isClosed() || ids.claim(id, ticket) !== ticket) return Promise.resolve(false);
      return Promise.resolve(scheduler.enqueue(group, job));
    },
    claim(key: string, owner: string): Promise<string> {
      return Promise.resolve(keys.claim(key, owner));
    },
    recall(key: string): Promise<string | undefined> {
      return Promise.resolve(keys.get(key));
    },
    pending(group: string): Promise<number> {
      return Promise.resolve(scheduler.pending(group));
    },
    depth: () => Promise.resolve(scheduler.depth()),
    start(jobHandler: JobHandler<J>, errorHandler: (error: unknown, job: J) => void): void {
      scheduler.start(jobHandler, errorHandler);
    },
    idle: () => scheduler.idle(),
    pause: () => {
      scheduler.pause();
    },
    close: () => scheduler.close(),
  };
}
