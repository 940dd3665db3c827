/**
 * `patchsmith worker`: runs commands and jobs from the shared queue (PATCHSMITH_REDIS_URL), beside a
 * `patchsmith serve` that takes the webhooks. SIGTERM: no new job starts, running ones finish, then it exits; a
 * worker that dies instead has its job taken over by another (after PATCHSMITH_WORKER_LOCK_SECONDS).
 */
import { startWorker } from "../compose-worker.js";
import { describeSandbox, loadAppConfig, loadEnvFile, stopWithin, waitForSignal } from "./app-config.js";

const HELP = `usage: patchsmith worker

Runs jobs from the shared queue (PATCHSMITH_REDIS_URL) with the same configuration as \`patchsmith serve\`
(APP_ID, PRIVATE_KEY, WEBHOOK_SECRET, OPENAI_API_KEY, ...). PATCHSMITH_CONCURRENCY jobs at once in this
process; PATCHSMITH_GLOBAL_CONCURRENCY caps all workers together.
`;

function fail(message: string): number {
  process.stderr.write(`patchsmith worker: ${message}\n`);
  return 2;
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  if (argv.length > 0) return fail(`unexpected argument '${argv[0] ?? ""}'\n\n${HELP}`);
  const config = loadAppConfig(loadEnvFile());
  if (!config.ok) return fail(config.message);
  if (config.env.redisUrl === undefined) {
    return fail(
      "a separate worker needs the shared queue: set PATCHSMITH_REDIS_URL (with the embedded store, `patchsmith serve` runs the jobs itself)",
    );
  }
  const worker = await startWorker({ env: config.env, fixDeps: config.fixDeps });
  // Listened for before anything says it is up: a SIGTERM right after start is still a graceful stop.
  const stopped = waitForSignal();
  process.stdout.write(`patchsmith: worker ready${worker.url === undefined ? "" : ` (${worker.url}/metrics)`}\n`);
  process.stdout.write(`patchsmith: ${await describeSandbox(config.fixDeps.runner)}\n`);
  const signal = await stopped;
  process.stdout.write(`patchsmith: ${signal}, finishing running jobs\n`);
  await stopWithin(() => worker.close(), config.env.stopGraceMs);
  return 0;
}
