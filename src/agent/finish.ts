/** The end of a run: push when asked (with a lease, never forced), then the diff and the report. */
import type { Sandbox } from "../ports/git-sandbox.js";
import { readText } from "./apply-step.js";
import type { WorkTree } from "./deps.js";
import type { LoopResult } from "./loop.js";
import type { ChangedFile, FixReport, FixRequest, FixStatus, TestSummary, Usage } from "./types.js";
import { compareTests } from "./verdict.js";

export interface PushOutcome {
  readonly pushed: boolean;
  readonly failure?: { readonly reason: string; readonly message: string };
}

/**
 * The lease: the caller's, or — when continuing the branch that was cloned — the SHA read at clone time; a new
 * branch must not exist on the remote (null).
 */
export function leaseFor(request: FixRequest, sandbox: Sandbox, branch: string): string | null {
  const given = request.push === undefined || request.push === false ? null : request.push.lease;
  if (branch === sandbox.baseBranch) return given ?? sandbox.baseSha;
  return given;
}

export async function pushBranch(request: FixRequest, sandbox: Sandbox, branch: string): Promise<PushOutcome> {
  const result = await sandbox.push(branch, leaseFor(request, sandbox, branch));
  if (result.ok) return { pushed: true };
  const stale = result.reason === "rejected-stale";
  return {
    pushed: false,
    failure: {
      reason: stale ? "push-rejected-stale" : "push-failed",
      message: stale
        ? `The push of ${branch} was refused because the remote branch changed (or already exists) since the run ` +
          `started; nothing was overwritten. Re-run on the new head. ${result.message ?? ""}`.trim()
        : `The push of ${branch} failed: ${result.message ?? "unknown error"}`,
    },
  };
}

export async function collectChanges(
  sandbox: Sandbox,
  tree: WorkTree,
  touched: ReadonlySet<string>,
  noCommit: boolean,
  headSha: string,
): Promise<{ diff: string; diffStat: string; changedFiles: ChangedFile[] }> {
  const { patch, stat } = noCommit ? await sandbox.diff(sandbox.baseSha) : await sandbox.diff(sandbox.baseSha, headSha);
  const changedFiles: ChangedFile[] = [];
  for (const path of [...touched].sort()) {
    const before = (await sandbox.show(sandbox.baseSha, path)) ?? null;
    const after = (noCommit ? await readText(tree, path) : await sandbox.show(headSha, path)) ?? null;
    if (before !== after) changedFiles.push({ path, before, after });
  }
  return { diff: patch, diffStat: stat, changedFiles };
}

export function decideStatus(loop: LoopResult, changed: boolean): FixStatus {
  if (loop.stop?.reason === "model-error") return "failed";
  if (loop.done && changed) return "success";
  return "exhausted";
}

export function reproductionOf(
  loop: LoopResult,
  before: TestSummary | null,
  changedFiles: readonly ChangedFile[],
): FixReport["reproduction"] {
  if (!loop.red) return undefined;
  const kept = changedFiles.some((f) => f.path === loop.red?.testPath && f.after !== null);
  const passesAfter = kept && loop.finalTests !== null && compareTests(before, loop.finalTests).verdict !== "worse";
  return { testPath: loop.red.testPath, failedBefore: loop.red.failedBefore, passesAfter };
}

export const emptyUsage: Usage = { calls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 };
