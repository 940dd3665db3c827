/**
 * A worker process for the Redis queue whose jobs never end: a test starts it (`node --import tsx`), waits for it
 * to take a job, and kills it with SIGKILL, as a machine that dies mid-job.
 * Usage: redis-hanging-worker.ts <redis url> <queue name> <lock ms>
 */
import { createRedisQueue } from "../../src/adapters/redis-queue.js";

const [url, name, lockMs] = process.argv.slice(2);
const queue = await createRedisQueue<string>({
  url: url!,
  name: name!,
  concurrency: 1,
  lockMs: Number(lockMs),
  parse: (value) => (typeof value === "string" ? value : undefined),
});
queue.start(
  async (job) => {
    process.stdout.write(`started ${job}\n`);
    await new Promise(() => undefined);
  },
  () => undefined,
);
