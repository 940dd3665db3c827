/**
 * Where commands and jobs wait: the embedded store in the data folder (the default: no set-up, one process per
 * folder, locked), or Redis (PATCHSMITH_REDIS_URL: one `serve` and any number of `patchsmith worker` processes).
 * Both give the same JobQueue promises; github/intake-record.ts and jobs/job-schema.ts validate what is read back.
 */
import { join } from "node:path";
import { prepareCloneFolder, prepareWorkerCloneFolder, removeCloneFolder } from "./adapters/clone-folder.js";
import { lockDataFolder } from "./adapters/data-folder-lock.js";
import { createFileQueue, type CorruptRecord } from "./adapters/file-queue.js";
import { createRedisQueue } from "./adapters/redis-queue.js";
import type { AppEnv } from "./github/app-env.js";
import { parseIntake, type IntakeRecord } from "./github/intake-record.js";
import { parseJob, type Job } from "./jobs/job-schema.js";
import type { JobQueue } from "./ports/job-queue.js";
import type { Logger } from "./ports/logger.js";

/** Intake records handled at once per process (each is a few GitHub calls: permission, 👀, a comment). */
export const INTAKE_CONCURRENCY = 8;

export interface Queues {
  readonly inbox: JobQueue<IntakeRecord>;
  readonly jobs: JobQueue<Job>;
  readonly kind: "embedded" | "redis";
  /** Where this process's clones go (emptied at start of what a dead process left). */
  readonly cloneFolder: string;
  /** Stops both queues (running work finishes first), then frees the folder and the lock. */
  close(): Promise<void>;
}

const parseJobRecord = (value: unknown): Job | undefined => {
  const parsed = parseJob(value);
  return parsed.ok ? parsed.job : undefined;
};

export async function openQueues(env: AppEnv, logger: Logger, concurrency = env.concurrency): Promise<Queues> {
  // One organisation's burst must not take every worker: its jobs share PATCHSMITH_INSTALLATION_CONCURRENCY slots.
  const perInstallation =
    env.installationConcurrency === undefined
      ? {}
      : {
          perKey: {
            keyOf: (job: Job) => `installation-${String(job.installationId)}`,
            max: env.installationConcurrency,
          },
        };
  const onCorrupt = (record: CorruptRecord | { readonly id: string; readonly problem: string }): void => {
    logger.error("a queued record is unreadable; it was set aside", { ...record });
  };
  if (env.redisUrl !== undefined) {
    const common = { url: env.redisUrl, lockMs: env.workerLockMs, onCorrupt };
    const inbox = await createRedisQueue<IntakeRecord>({
      ...common,
      name: "inbox",
      concurrency: INTAKE_CONCURRENCY,
      parse: parseIntake,
    });
    const jobs = await createRedisQueue<Job>({
      ...common,
      name: "jobs",
      concurrency,
      globalConcurrency: env.globalConcurrency,
      parse: parseJobRecord,
      ...perInstallation,
    });
    const clones = await prepareWorkerCloneFolder();
    return {
      inbox,
      jobs,
      kind: "redis",
      cloneFolder: clones.folder,
      async close() {
        await inbox.close();
        await jobs.close();
        await clones.close();
      },
    };
  }

  // One process per data folder: the queues and the clone folder below are this process's alone.
  const lock = await lockDataFolder(env.dataDir);
  try {
    // Durable, both: a command acknowledged to GitHub is on disk first (inbox), and a job accepted before a crash or
    // a restart runs when the app comes back (at least once).
    const inbox = await createFileQueue<IntakeRecord>({
      dir: join(env.dataDir, "inbox"),
      concurrency: INTAKE_CONCURRENCY,
      parse: parseIntake,
      onCorrupt,
    });
    const jobs = await createFileQueue<Job>({
      dir: join(env.dataDir, "queue"),
      concurrency,
      parse: parseJobRecord,
      onCorrupt,
      ...perInstallation,
    });
    if (inbox.recovered + jobs.recovered > 0) {
      logger.info("resuming queued work", { commands: inbox.recovered, jobs: jobs.recovered });
    }
    // The lock makes the folder ours: whatever is in it was left by a process that died.
    const cloneFolder = await prepareCloneFolder(env.dataDir);
    return {
      inbox,
      jobs,
      kind: "embedded",
      cloneFolder,
      async close() {
        await inbox.close();
        await jobs.close();
        // Every job has finished and removed its clone: the folder itself goes too.
        await removeCloneFolder(cloneFolder);
        await lock.release();
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
