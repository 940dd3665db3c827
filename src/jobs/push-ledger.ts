/**
 * What patchsmith itself pushed. A command queued behind another on the same pull request was written when the
 * branch was at some SHA; by the time it runs, its predecessor may have pushed on top. Those commits are patchsmith's
 * own work for the same thread, so they are no reason to stop ("someone pushed meanwhile"); anyone else's are.
 *
 * Each push is recorded as `to ← from` (the lease it was pushed on, so `to` descends from `from`) in the job store's
 * claims, which are durable and shared by every worker. A chain of such records from the branch's head back to the
 * SHA the command saw proves that only patchsmith moved the branch; the SHAs come from git, so nobody can forge one
 * the way a commit's author can be forged.
 */
import type { JobQueue } from "../ports/job-queue.js";
import type { Logger } from "../ports/logger.js";

/** A branch moved by more pushes than this between a command and its job is not followed further. */
const MAX_CHAIN = 20;

export interface PushLedger {
  /** Notes that patchsmith moved a branch of `repo` (`owner/name`) from `from` to `to`. */
  record(repo: string, from: string, to: string): Promise<void>;
  /** True when only patchsmith's own recorded pushes lead from `from` to `to`. */
  onlyOwnPushes(repo: string, from: string, to: string): Promise<boolean>;
}

const keyOf = (repo: string, sha: string): string => `pushed:${repo.toLowerCase()}:${sha}`;

export function createPushLedger(store: Pick<JobQueue<unknown>, "claim" | "recall">): PushLedger {
  return {
    async record(repo, from, to) {
      if (from === to) return;
      await store.claim(keyOf(repo, to), from);
    },
    async onlyOwnPushes(repo, from, to) {
      let sha = to;
      for (let step = 0; step < MAX_CHAIN; step++) {
        const parent = await store.recall(keyOf(repo, sha));
        if (parent === undefined || parent === "") return false;
        if (parent === from) return true;
        sha = parent;
      }
      return false;
    },
  };
}

/** Records a push; a failure is logged, as it only costs the next queued command on the thread a "branch moved" stop. */
export async function notePush(
  pushes: PushLedger | undefined,
  logger: Logger,
  push: { readonly repo: string; readonly from: string; readonly to: string },
): Promise<void> {
  if (pushes === undefined) return;
  try {
    await pushes.record(push.repo, push.from, push.to);
  } catch (error) {
    logger.warn("could not record patchsmith's push", {
      repo: push.repo,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
