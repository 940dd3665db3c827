/**
 * The in-process job queue: one job at a time per group, up to `concurrency` groups at once, idempotent ids.
 * Not durable: jobs queued when the process stops are lost (the progress comment then stays at "queued"); a
 * durable adapter implements the same port.
 */
import type { EnqueueOptions, JobHandler, JobQueue } from "../ports/job-queue.js";

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
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const ids = new BoundedSet(options.memory ?? 50_000);
  const keys = new BoundedSet(options.memory ?? 50_000);
  const groups = new Map<string, J[]>();
  const running = new Set<string>();
  const idleWaiters: (() => void)[] = [];
  let handler: JobHandler<J> | undefined;
  let onError: (error: unknown, job: J) => void = () => undefined;
  let closed = false;

  const isIdle = (): boolean => running.size === 0 && [...groups.values()].every((jobs) => jobs.length === 0);

  function settle(): void {
    if (!isIdle()) return;
    for (const resolve of idleWaiters.splice(0)) resolve();
  }

  function pump(): void {
    if (handler === undefined || closed) {
      settle();
      return;
    }
    for (const [group, jobs] of groups) {
      if (running.size >= concurrency) break;
      if (running.has(group) || jobs.length === 0) continue;
      const job = jobs.shift()!;
      running.add(group);
      const run = handler;
      void (async () => {
        try {
          await run(job);
        } catch (error) {
          onError(error, job);
        } finally {
          running.delete(group);
          if (groups.get(group)?.length === 0) groups.delete(group);
          pump();
        }
      })();
    }
    settle();
  }

  return {
    add(job: J, { id, group }: EnqueueOptions): Promise<boolean> {
      if (closed || !ids.addNew(id)) return Promise.resolve(false);
      const jobs = groups.get(group) ?? [];
      jobs.push(job);
      groups.set(group, jobs);
      pump();
      return Promise.resolve(true);
    },
    remember(key: string): Promise<boolean> {
      return Promise.resolve(keys.addNew(key));
    },
    forget(key: string): Promise<void> {
      keys.delete(key);
      return Promise.resolve();
    },
    pending(group: string): Promise<number> {
      return Promise.resolve((groups.get(group)?.length ?? 0) + (running.has(group) ? 1 : 0));
    },
    start(jobHandler: JobHandler<J>, errorHandler: (error: unknown, job: J) => void): void {
      handler = jobHandler;
      onError = errorHandler;
      pump();
    },
    idle(): Promise<void> {
      if (isIdle()) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close(): Promise<void> {
      closed = true;
      groups.clear();
      if (running.size === 0) return;
      await new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
  };
}
