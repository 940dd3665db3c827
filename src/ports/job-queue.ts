/**
 * Where webhook handlers leave work for the worker. Jobs are small serialisable records (validated with zod on both
 * sides). The in-process adapter is adapters/memory-queue.ts; a durable or distributed one implements the same port.
 */

export interface EnqueueOptions {
  /** Idempotency key: a job whose id was ever added before is not added again. */
  readonly id: string;
  /** Jobs of one group run one at a time, in order (one pull request or issue); other groups run in parallel. */
  readonly group: string;
}

export type JobHandler<J> = (job: J) => Promise<void>;

export interface JobQueue<J> {
  /** False when a job with this id was already added (a replay): nothing is queued. */
  add(job: J, options: EnqueueOptions): Promise<boolean>;
  /**
   * Takes `key` for `owner` unless someone took it first, and returns who holds it. A handler that runs again after
   * a crash claims with the same owner and gets it back; another owner (a second delivery of the same command)
   * learns it is a duplicate. Atomic, also across processes.
   */
  claim(key: string, owner: string): Promise<string>;
  /** Who holds `key`, without taking it; undefined when nobody does (or it was forgotten). */
  recall(key: string): Promise<string | undefined>;
  /** Number of jobs queued or running in a group (to tell the requester they wait behind another job). */
  pending(group: string): Promise<number>;
  /** Jobs queued (not yet running) and running, in all groups, and when the oldest queued one came (for metrics). */
  depth(): Promise<{ readonly queued: number; readonly running: number; readonly oldestQueuedAt?: number }>;
  /** Starts handing jobs to `handler`. Errors thrown by the handler are reported to `onError`, never lost. */
  start(handler: JobHandler<J>, onError: (error: unknown, job: J) => void): void;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  /** Starts no further job (running ones go on) while still accepting adds: the first step of a shutdown. */
  pause(): void;
  /** Stops taking jobs and waits for the running ones. */
  close(): Promise<void>;
}
