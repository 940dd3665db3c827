/**
 * The scheduling shared by the job queue adapters, pure of I/O: one job at a time per group in the order enqueued, up
 * to `concurrency` groups at once, groups served round robin, idle waiters, and a close that drops what is queued and
 * waits for what runs. The adapters keep ids, dedupe keys and storage; this only decides what runs when.
 */

export interface GroupSchedulerOptions<T> {
  /** Groups worked on at the same time (at least 1). */
  readonly concurrency: number;
  /**
   * Runs after a job's handler settled (and its error, if any, was reported), before the group's next job starts:
   * the file queue deletes the job's record here. A rejection is reported to onError with the job.
   */
  readonly settle?: (job: T) => Promise<void>;
  /**
   * A second limit across groups: jobs with the same key (an installation) run at most `max` at a time; a group
   * whose next job is at its key's limit waits its turn while other groups go on.
   */
  readonly perKey?: { readonly keyOf: (job: T) => string | undefined; readonly max: number };
}

export interface GroupScheduler<T> {
  /** Queues a job at the end of its group; false once closed (nothing is queued). */
  enqueue(group: string, job: T, enqueuedAt?: number): boolean;
  /** Jobs of the group queued or running. */
  pending(group: string): number;
  /** All jobs queued (not yet running) and running. */
  depth(): { readonly queued: number; readonly running: number; readonly oldestQueuedAt?: number };
  /** Starts handing jobs to `handler`; its errors, and the settle hook's, go to `onError`. */
  start(handler: (job: T) => Promise<void>, onError: (error: unknown, job: T) => void): void;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  /**
   * Starts no further job, but still takes new ones (a shutting-down server may still accept a webhook; a durable
   * adapter keeps its record for the next process). Running jobs go on.
   */
  pause(): void;
  /** Drops the queued jobs, takes no new ones, and resolves when the running ones (and their settle) are done. */
  close(): Promise<void>;
  isClosed(): boolean;
}

export function createGroupScheduler<T>(options: GroupSchedulerOptions<T>): GroupScheduler<T> {
  const concurrency = Math.max(1, options.concurrency);
  const settleJob = options.settle;
  // Map order is the turn order: a group whose job ends moves to the back (see pump).
  const groups = new Map<string, { readonly job: T; readonly at: number }[]>();
  const running = new Set<string>();
  const perKey = options.perKey;
  const runningByKey = new Map<string, number>();
  const idleWaiters: (() => void)[] = [];
  let handler: ((job: T) => Promise<void>) | undefined;
  let onError: (error: unknown, job: T) => void = () => undefined;
  let closed = false;
  let paused = false;

  const isIdle = (): boolean => running.size === 0 && [...groups.values()].every((jobs) => jobs.length === 0);

  function wakeIdleWaiters(): void {
    if (!isIdle()) return;
    for (const resolve of idleWaiters.splice(0)) resolve();
  }

  const report = (error: unknown, job: T): void => {
    try {
      onError(error, job);
    } catch {
      // The error sink itself failed: nothing better to tell; the queue must keep going.
    }
  };

  async function runOne(job: T, run: (job: T) => Promise<void>): Promise<void> {
    try {
      await run(job);
    } catch (error) {
      report(error, job);
    }
    if (settleJob === undefined) return;
    try {
      await settleJob(job);
    } catch (error) {
      report(error, job);
    }
  }

  function pump(): void {
    if (handler === undefined || closed || paused) {
      wakeIdleWaiters();
      return;
    }
    for (const [group, jobs] of groups) {
      if (running.size >= concurrency) break;
      if (running.has(group) || jobs.length === 0) continue;
      const key = perKey?.keyOf(jobs[0]!.job);
      if (key !== undefined && (runningByKey.get(key) ?? 0) >= perKey!.max) continue;
      const { job } = jobs.shift()!;
      running.add(group);
      if (key !== undefined) runningByKey.set(key, (runningByKey.get(key) ?? 0) + 1);
      void runOne(job, handler).finally(() => {
        running.delete(group);
        if (key !== undefined) {
          const left = (runningByKey.get(key) ?? 1) - 1;
          if (left > 0) runningByKey.set(key, left);
          else runningByKey.delete(key);
        }
        // Round robin: the group goes to the back, so one busy pull request cannot starve the others' jobs.
        const rest = groups.get(group);
        groups.delete(group);
        if (rest !== undefined && rest.length > 0) groups.set(group, rest);
        pump();
      });
    }
    wakeIdleWaiters();
  }

  return {
    enqueue(group: string, job: T, enqueuedAt = Date.now()): boolean {
      if (closed) return false;
      const jobs = groups.get(group) ?? [];
      jobs.push({ job, at: enqueuedAt });
      groups.set(group, jobs);
      pump();
      return true;
    },
    pending(group: string): number {
      return (groups.get(group)?.length ?? 0) + (running.has(group) ? 1 : 0);
    },
    depth() {
      let queued = 0;
      let oldest: number | undefined;
      for (const jobs of groups.values()) {
        queued += jobs.length;
        // A group's first waiting job is its oldest.
        const first = jobs[0]?.at;
        if (first !== undefined && (oldest === undefined || first < oldest)) oldest = first;
      }
      return { queued, running: running.size, ...(oldest === undefined ? {} : { oldestQueuedAt: oldest }) };
    },
    start(jobHandler: (job: T) => Promise<void>, errorHandler: (error: unknown, job: T) => void): void {
      handler = jobHandler;
      onError = errorHandler;
      pump();
    },
    idle(): Promise<void> {
      if (isIdle()) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    pause(): void {
      paused = true;
    },
    close(): Promise<void> {
      closed = true;
      groups.clear();
      if (running.size === 0) {
        // Callers already waiting in idle() would otherwise wait for jobs that will never run.
        wakeIdleWaiters();
        return Promise.resolve();
      }
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    isClosed: () => closed,
  };
}
