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

/** A set that forgets its oldest entries past a size, so dedupe memory stays bounded on a long-running server. */
class BoundedSet {
  readonly #items = new Set<string>();
  constructor(private readonly limit: number) {}
  addNew(key: string): boolean {
    if (this.#items.has(key)) return false;
    this.#items.add(key);
    if (this.#items.size > this.limit) {
      const oldest = this.#items.values().next().value;
      if (oldest !== undefined) this.#items.delete(oldest);
    }
    return true;
  }
  delete(key: string): void {
    this.#items.delete(key);
  }
}

export function createMemoryQueue<J>(options: MemoryQueueOptions = {}): JobQueue<J> {
  const ids = new BoundedSet(options.memory ?? 50_000);
  const keys = new BoundedSet(options.memory ?? 50_000);
  const scheduler = createGroupScheduler<J>({ concurrency: options.concurrency ?? 2 });

  return {
    add(job: J, { id, group }: EnqueueOptions): Promise<boolean> {
      if (scheduler.isClosed() || !ids.addNew(id)) return Promise.resolve(false);
      return Promise.resolve(scheduler.enqueue(group, job));
    },
    remember(key: string): Promise<boolean> {
      return Promise.resolve(keys.addNew(key));
    },
    forget(key: string): Promise<void> {
      keys.delete(key);
      return Promise.resolve();
    },
    pending(group: string): Promise<number> {
      return Promise.resolve(scheduler.pending(group));
    },
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
