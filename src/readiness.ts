/**
 * Whether this process can take work (GET /readyz; /healthz only says it is alive): its queue store answers, its
 * sandbox works, and GitHub accepts the app's credentials. The credentials check is a GitHub call, so its answer is
 * kept for a minute.
 */
import type { Octokit } from "./adapters/octokit-gateway.js";
import type { JobQueue } from "./ports/job-queue.js";
import type { SandboxRunner } from "./ports/sandbox-runner.js";

const CREDENTIALS_TTL_MS = 60_000;

export interface Readiness {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, string>>;
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function createReadiness(parts: {
  readonly queue: Pick<JobQueue<unknown>, "depth">;
  /** Undefined for a process that runs no repository code (`serve --workers 0`): no sandbox to check. */
  readonly runner: SandboxRunner | undefined;
  readonly app: () => Promise<Octokit>;
  readonly now?: () => number;
}): () => Promise<Readiness> {
  const now = parts.now ?? Date.now;
  let credentials: { readonly at: number; readonly result: string } | undefined;
  const check = async (run: () => Promise<unknown>): Promise<string> => {
    try {
      await run();
      return "ok";
    } catch (error) {
      return describe(error);
    }
  };
  return async () => {
    if (credentials === undefined || now() - credentials.at > CREDENTIALS_TTL_MS) {
      credentials = { at: now(), result: await check(async () => (await parts.app()).request("GET /app")) };
    }
    const runner = parts.runner;
    const checks = {
      queue: await check(() => parts.queue.depth()),
      ...(runner === undefined ? {} : { sandbox: await check(() => runner.describe()) }),
      credentials: credentials.result,
    };
    return { ready: Object.values(checks).every((result) => result === "ok"), checks };
  };
}
