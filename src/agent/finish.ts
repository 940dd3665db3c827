/** The end of a run: push when asked (with a lease, never forced), then the diff and the report. */
import type { Sandbox } from "../ports/git-sandbox.js";
import { readText } from "./apply-step.js";
import type { GatheredContext } from "./context/gather.js";
import type { FixDeps, WorkTree } from "./deps.js";
import { missingPiece, pythonModulesOf } from "./environment-check.js";
import type { LoopResult } from "./loop.js";
import type { RunScope } from "./run-steps.js";
import type { Session } from "./session.js";
import { setupNotes, type SetupReport } from "./setup-step.js";
import type { TestCommand } from "./test-command.js";
import type { ChangedFile, FixReport, FixRequest, FixStatus, TestSummary, Usage } from "./types.js";
import { summaryForReport } from "./test-output.js";
import { DEFAULT_TEST_TIMEOUT_MS } from "./test-runs.js";
import { splitNotLoaded, testNames } from "./test-names.js";
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
  const lease = leaseFor(request, sandbox, branch);
  await request.beforePush?.({ from: lease, to: await sandbox.headSha() });
  const result = await sandbox.push(branch, lease);
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

export interface ReportScope {
  readonly deps: FixDeps;
  readonly request: FixRequest;
  readonly scope: RunScope;
  readonly paths: readonly string[];
}

export interface ReportInput extends ReportScope {
  readonly setup?: SetupReport;
  readonly testCommand?: TestCommand;
  readonly before?: TestSummary | null;
  /** A run that ended before the loop (set-up failed, the tests cannot run): no model was asked. */
  readonly early?: { readonly reason: string; readonly message: string };
  readonly context?: GatheredContext;
  readonly loop?: LoopResult;
  readonly session?: Session;
}

function redactSetup(setup: SetupReport, redact: (text: string) => string): SetupReport {
  return setup.failure === undefined
    ? setup
    : { ...setup, failure: { ...setup.failure, tail: redact(setup.failure.tail) } };
}

/** Push when the run succeeded and was asked to, then the report: status, failure, notes, changes, timings. */
export async function finishReport(input: ReportInput): Promise<FixReport> {
  const { deps, request, scope, loop, session } = input;
  const { sandbox, tree, branch, redact, notes, timings, progress } = scope;
  const before = input.before ?? null;
  const headSha = await sandbox.headSha();
  const noCommit = request.noCommit === true;
  const touched = loop?.touched ?? new Set<string>();
  const changes = await timings.measure("report", () => collectChanges(sandbox, tree, touched, noCommit, headSha));
  let status: FixStatus = loop === undefined ? "failed" : decideStatus(loop, changes.changedFiles.length > 0);
  let failure: FixReport["failure"] = input.early;
  let pushed = false;
  if (
    loop !== undefined &&
    status === "success" &&
    request.push !== undefined &&
    request.push !== false &&
    !noCommit &&
    loop.commits.length > 0
  ) {
    progress("pushing", branch);
    const outcome = await timings.measure("push", () => pushBranch(request, sandbox, branch));
    pushed = outcome.pushed;
    if (outcome.failure) {
      status = "failed";
      failure = outcome.failure;
    }
  }
  if (loop !== undefined && status !== "success" && failure === undefined) {
    const why = loop.stop?.message ?? (loop.done ? "The change left nothing to commit." : "The tests do not pass yet.");
    const last = loop.lastProblem;
    failure = {
      reason: loop.stop?.reason ?? (loop.done ? "no-changes" : (last?.reason ?? "exhausted")),
      message: last ? `${why}\n\n${last.message}` : why,
    };
  }
  if (loop?.leftFailing !== undefined) {
    const { names, unnamed, notRunBefore = [] } = loop.leftFailing;
    const { failing: still, notLoaded } = splitNotLoaded(
      names.filter((name) => !notRunBefore.includes(name)),
      loop.finalTests,
    );
    const what = still.length > 0 ? `${String(still.length)} test(s): ${testNames(still, 10)}` : unnamed[0];
    if (still.length > 0 || (notRunBefore.length === 0 && notLoaded.length === 0))
      notes.push(
        `The tests still fail as they did before the change (${what ?? "unnamed"}); the model judged that unrelated ` +
          "to the request.",
      );
    if (notLoaded.length > 0) notes.push(notLoadedNote(notLoaded, loop.finalTests, input.paths));
    if (notRunBefore.length > 0)
      notes.push(
        `${String(notRunBefore.length)} test(s) could not run before the change (their file did not load) and fail ` +
          `with it: ${testNames(notRunBefore, 10)}; the model judged that unrelated to the request.`,
      );
  }
  const commits = loop?.commits ?? [];
  if (status !== "success" && commits.length > 0) {
    notes.push(`${commits.length} accepted change(s) are committed on ${branch}, but the run did not finish.`);
  }
  const reproduction = loop === undefined ? undefined : reproductionOf(loop, before, changes.changedFiles);
  if (reproduction && !reproduction.failedBefore)
    notes.push(`The new test ${reproduction.testPath} passed even without the fix: it may not reproduce the bug.`);
  const usage = session?.usage ?? emptyUsage;
  const estimated = usage.estimatedCalls ?? 0;
  if (estimated > 0) {
    notes.push(
      `The model endpoint reported no token usage for ${estimated} of ${usage.calls} model call(s): ` +
        "their tokens were estimated at about 4 characters a token, so the token figures are approximate.",
    );
  }
  if (input.setup !== undefined) notes.push(...setupNotes(input.setup));
  // A run cut short by what was left of the whole run's time says nothing of the limit on one run.
  const ms = request.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
  const runs = [before, ...(loop?.attempts ?? []).map((a) => a.tests)];
  if (runs.some((run) => run?.timedOut === true && run.durationMs >= ms * 0.9)) {
    const limit = ms < 60_000 ? `${String(Math.round(ms / 1000))} s` : `${String(Math.round(ms / 6000) / 10)} min`;
    notes.push(
      `A run of the tests was stopped at its time limit (${limit}). A suite that ` +
        "needs longer can have it: `budget: test-minutes:` in .github/patchsmith.yml (`patchsmith fix`: " +
        "--test-minutes).",
    );
  }
  const afterTests = loop !== undefined && loop.attempts.length > 0 ? loop.finalTests : before;
  const clean = (s: TestSummary | null): TestSummary | null => (s === null ? null : summaryForReport(s, redact));
  return {
    status,
    branch,
    baseSha: sandbox.baseSha,
    headSha,
    commits,
    attempts: loop?.attempts ?? [],
    tests: { before: clean(before), after: clean(afterTests) },
    usage,
    diffStat: changes.diffStat,
    diff: changes.diff,
    changedFiles: changes.changedFiles,
    pushed,
    ...(reproduction ? { reproduction } : {}),
    ...(failure ? { failure: { reason: failure.reason, message: redact(failure.message) } } : {}),
    ...(input.setup === undefined ? {} : { setup: redactSetup(input.setup, redact) }),
    ...(input.testCommand ? { testCommand: input.testCommand } : {}),
    ...(input.context === undefined
      ? {}
      : {
          context: {
            files: input.context.files.map((f) => ({
              path: f.path,
              why: f.why,
              ...(f.detail === undefined ? {} : { detail: f.detail }),
              ...(f.lines === undefined ? {} : { lines: f.lines }),
            })),
            omitted: input.context.omitted,
            ...(input.context.instructions === undefined
              ? {}
              : { instructions: input.context.instructions.map((n) => n.path) }),
          },
        }),
    ...(session !== undefined && session.lookupRounds > 0 ? { lookups: session.lookupRounds } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    timings: timings.snapshot(deps.clock.now() - scope.startedAt),
  };
}

/**
 * Test files that could not load before the change and still cannot: none of their tests judged it, which a
 * success must not hide (a suite whose main file lacks a dependency here tests next to nothing), with what they
 * lack when their errors say it.
 */
function notLoadedNote(files: readonly string[], run: TestSummary | null, paths: readonly string[]): string {
  const names = { pythonModules: pythonModulesOf(paths) };
  const texts = (run?.failures ?? []).filter((f) => files.includes(f.name)).map((f) => f.text);
  const missing = [...new Set(texts.flatMap((text) => missingPiece(text, names)?.why ?? []))];
  return (
    `${String(files.length)} test file(s) could not load, before the change and with it, so none of their tests ` +
    `judged it: ${testNames(files, 10)}${missing.length > 0 ? ` (${missing.slice(0, 5).join("; ")})` : ""}. ` +
    "`setup:` in .github/patchsmith.yml (`patchsmith fix`: --setup) can install what they need."
  );
}
