/**
 * `runFix`: the whole job without GitHub. Clone into a throwaway folder, read the settings, then the steps
 * (run-steps.ts): set-up, the baseline tests, the context, the bounded loop, the report. The caller's working tree
 * is never touched; the clone is removed unless `keep` is set.
 */
import { redactSecrets } from "../core/redact.js";
import type { Sandbox } from "../ports/git-sandbox.js";
import { REPO_CONFIG_PATH } from "../config/repo-config.js";
import { readText } from "./apply-step.js";
import { checkBranchName, targetBranch } from "./branch.js";
import { parseIdentity } from "./commit-message.js";
import type { FixDeps } from "./deps.js";
import { deliverCommits, freshBranch } from "./deliver.js";
import { emptyUsage } from "./finish.js";
import { withRepoSettings } from "./repo-settings.js";
import { earlierRun, resumedReport } from "./resume.js";
import { runSteps, type RunScope } from "./run-steps.js";
import { Timings } from "./timings.js";
import type { FixReport, FixRequest, FixStage } from "./types.js";

export type { FixDeps } from "./deps.js";

function earlyFailure(branch: string, reason: string, message: string, notes: string[] = []): FixReport {
  return {
    status: "failed",
    branch,
    baseSha: "",
    headSha: "",
    commits: [],
    attempts: [],
    tests: { before: null, after: null },
    usage: emptyUsage,
    diffStat: "",
    diff: "",
    changedFiles: [],
    pushed: false,
    failure: { reason, message },
    ...(notes.length > 0 ? { notes } : {}),
  };
}

export async function runFix(deps: FixDeps, request: FixRequest): Promise<FixReport> {
  const secrets = [...(deps.secrets ?? []), ...(request.token !== undefined ? [request.token] : [])];
  const redact = (text: string): string => redactSecrets(text, secrets);
  const progress = (stage: FixStage, detail?: string): void => {
    try {
      request.onProgress?.(stage, detail === undefined ? undefined : redact(detail));
    } catch {
      // A progress consumer's failure must not end the run.
    }
  };
  const branch = targetBranch(request.instruction, request.into);
  for (const name of [branch, ...(request.branch !== undefined ? [request.branch] : [])]) {
    const check = checkBranchName(name);
    if (!check.ok)
      return earlyFailure(branch, "invalid-branch", `The branch name ${JSON.stringify(name)} ${check.why}.`);
  }
  if (request.coAuthor !== undefined && parseIdentity(request.coAuthor) === undefined) {
    return earlyFailure(
      branch,
      "invalid-co-author",
      `The co-author must read "Name <email>", got ${JSON.stringify(request.coAuthor)}.`,
    );
  }
  if (request.instruction.trim() === "") return earlyFailure(branch, "empty-instruction", "The instruction is empty.");

  const startedAt = deps.clock.now();
  const timings = new Timings(() => deps.clock.now());
  progress("cloning", request.repo);
  let sandbox: Sandbox;
  try {
    sandbox = await timings.measure("clone", () =>
      deps.git.clone({
        repo: request.repo,
        ...(request.branch !== undefined ? { branch: request.branch } : {}),
        ...(request.token !== undefined ? { token: request.token } : {}),
        ...(deps.tempRoot !== undefined ? { tempRoot: deps.tempRoot } : {}),
      }),
    );
  } catch (error) {
    const message = redact(`Cloning ${request.repo} failed: ${error instanceof Error ? error.message : String(error)}`);
    progress("done", "failed");
    return earlyFailure(branch, "clone-failed", message);
  }
  let keep = request.keep === true;
  try {
    const named = request.into === undefined ? await freshBranch(sandbox, branch) : branch;
    const keepSecret = (...values: readonly string[]): void => void secrets.push(...values);
    const scope = { branch: named, startedAt, redact, secrets, keepSecret, progress, timings };
    const ran = await runInClone(deps, request, sandbox, scope);
    const delivered = await deliverCommits(request, sandbox, ran);
    keep ||= delivered.keep;
    const report = delivered.report;
    progress("done", report.status);
    if (!keep) return report;
    await deps.runner.reclaim(sandbox.dir);
    return { ...report, clonePath: sandbox.dir };
  } catch (error) {
    // A bug or a broken adapter: still a report (and the clone is still removed), never a hung run.
    deps.logger.error("fix run crashed", { error: error instanceof Error ? error.stack : String(error) });
    progress("done", "failed");
    const message = redact(`patchsmith failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
    return { ...earlyFailure(branch, "internal-error", message), baseSha: sandbox.baseSha, headSha: sandbox.baseSha };
  } finally {
    if (!keep) await sandbox.dispose().catch(() => undefined);
  }
}

/** What the run hands the clone's steps, before the clone's own parts (its tree, its notes). */
type CloneScope = Omit<RunScope, "sandbox" | "tree" | "notes">;

async function runInClone(deps: FixDeps, request: FixRequest, sandbox: Sandbox, scope: CloneScope): Promise<FixReport> {
  const { branch } = scope;
  if (branch !== sandbox.baseBranch) await sandbox.checkoutNewBranch(branch);
  if (request.resumeTrailer !== undefined) {
    const earlier = await earlierRun(sandbox, request.resumeTrailer);
    if (earlier !== undefined) return resumedReport(sandbox, branch, earlier);
  }
  const tree = deps.files(sandbox.dir);
  const notes: string[] = [];
  const settings =
    request.readRepoConfig === false
      ? ({ ok: true, request } as const)
      : withRepoSettings(request, await readText(tree, REPO_CONFIG_PATH));
  if (!settings.ok) {
    return {
      ...earlyFailure(branch, settings.reason, settings.message),
      baseSha: sandbox.baseSha,
      headSha: sandbox.baseSha,
    };
  }
  if (settings.note !== undefined) notes.push(settings.note);
  return runSteps(deps, settings.request, settings.testCommand, { ...scope, sandbox, tree, notes });
}
