/**
 * `runFix`: the whole job without GitHub. Clone into a throwaway folder, pick the test command and run it once,
 * gather context, then the bounded loop; commit accepted changes on the target branch, push with a lease when
 * asked, and report. The caller's working tree is never touched; the clone is removed unless `keep` is set.
 */
import { DEFAULT_MODEL } from "../config/env.js";
import { redactSecrets } from "../core/redact.js";
import type { Sandbox } from "../ports/git-sandbox.js";
import { REPO_CONFIG_PATH } from "../config/repo-config.js";
import { createPathGuard, DEFAULT_FORBIDDEN, readText } from "./apply-step.js";
import { resolveLimits } from "./budget.js";
import { checkBranchName, targetBranch } from "./branch.js";
import { buildSystemPrompt, buildTaskPrompt } from "./build-prompt.js";
import { DEFAULT_BOT_IDENTITY, parseIdentity } from "./commit-message.js";
import { gatherContext } from "./context.js";
import type { FixDeps, WorkTree } from "./deps.js";
import { collectChanges, decideStatus, emptyUsage, pushBranch, reproductionOf } from "./finish.js";
import { runLoop } from "./loop.js";
import { withRepoSettings } from "./repo-settings.js";
import { earlierRun, resumedReport } from "./resume.js";
import { looksLikeBugReport } from "./reproduction.js";
import { Session } from "./session.js";
import { DEFAULT_TEST_TIMEOUT_MS, readMany, resolveTestCommand, runTests } from "./setup.js";
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
  progress("cloning", request.repo);
  let sandbox: Sandbox;
  try {
    sandbox = await deps.git.clone({
      repo: request.repo,
      ...(request.branch !== undefined ? { branch: request.branch } : {}),
      ...(request.token !== undefined ? { token: request.token } : {}),
      ...(deps.tempRoot !== undefined ? { tempRoot: deps.tempRoot } : {}),
    });
  } catch (error) {
    const message = redact(`Cloning ${request.repo} failed: ${error instanceof Error ? error.message : String(error)}`);
    progress("done", "failed");
    return earlyFailure(branch, "clone-failed", message);
  }
  try {
    const report = await runInClone(deps, request, sandbox, branch, startedAt, redact, progress);
    progress("done", report.status);
    if (request.keep !== true) return report;
    await deps.runner.reclaim(sandbox.dir);
    return { ...report, clonePath: sandbox.dir };
  } catch (error) {
    // A bug or a broken adapter: still a report (and the clone is still removed), never a hung run.
    deps.logger.error("fix run crashed", { error: error instanceof Error ? error.stack : String(error) });
    progress("done", "failed");
    const message = redact(`patchsmith failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
    return { ...earlyFailure(branch, "internal-error", message), baseSha: sandbox.baseSha, headSha: sandbox.baseSha };
  } finally {
    if (request.keep !== true) await sandbox.dispose().catch(() => undefined);
  }
}

async function runInClone(
  deps: FixDeps,
  request: FixRequest,
  sandbox: Sandbox,
  branch: string,
  startedAt: number,
  redact: (text: string) => string,
  progress: (stage: FixStage, detail?: string) => void,
): Promise<FixReport> {
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
  return runWithSettings(deps, settings.request, settings.testCommand, {
    sandbox,
    tree,
    branch,
    startedAt,
    redact,
    progress,
    notes,
  });
}

interface RunScope {
  readonly sandbox: Sandbox;
  readonly tree: WorkTree;
  readonly branch: string;
  readonly startedAt: number;
  readonly redact: (text: string) => string;
  readonly progress: (stage: FixStage, detail?: string) => void;
  readonly notes: string[];
}

async function runWithSettings(
  deps: FixDeps,
  request: FixRequest,
  configuredTest: string | undefined,
  { sandbox, tree, branch, startedAt, redact, progress, notes }: RunScope,
): Promise<FixReport> {
  const paths = await sandbox.listFiles();
  const limits = resolveLimits(request);

  const testCommand = await resolveTestCommand(
    deps,
    sandbox,
    tree,
    { requested: request.testCommand, configured: configuredTest },
    paths,
  );
  const testTimeout = request.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
  const test = testCommand
    ? () =>
        runTests(
          deps,
          sandbox,
          testCommand.command,
          Math.min(testTimeout, limits.wallTimeMs - (deps.clock.now() - startedAt)),
        )
    : undefined;
  if (test) progress("testing-before", testCommand?.command);
  else
    notes.push(
      "No test command was found (pass --test or set `test` in .github/patchsmith.yml): the change is untested.",
    );
  // The first test run and the context gathering do not depend on each other: one waits on a child process, the
  // other on the file system.
  const [before, context] = await Promise.all([
    test ? test() : Promise.resolve(null),
    gatherContext({
      instruction: request.instruction,
      ...(request.context !== undefined ? { extra: request.context } : {}),
      ...(request.focus !== undefined ? { focus: request.focus } : {}),
      paths,
      read: (wanted) => readMany(tree, wanted),
      grep: (words) => sandbox.grep(words),
    }),
  ]);
  if (context.omitted.length > 0) notes.push(`Too big for the model's context: ${context.omitted.join(", ")}.`);
  const reproduce = request.reproduce ?? looksLikeBugReport(request.instruction);
  const forbidden = request.forbiddenPaths ?? DEFAULT_FORBIDDEN;
  const model = request.model ?? deps.defaultModel ?? DEFAULT_MODEL;
  const session = new Session(deps, model, limits, startedAt, buildSystemPrompt({ forbidden, reproduce }));
  const firstPrompt = buildTaskPrompt({
    instruction: request.instruction,
    ...(request.context !== undefined ? { extra: request.context } : {}),
    ...(request.focus !== undefined ? { focus: request.focus } : {}),
    context,
    testCommand: testCommand?.command,
    before,
    redact,
  });

  const loop = await runLoop({
    deps,
    request,
    session,
    sandbox,
    tree,
    knownPaths: paths,
    guard: createPathGuard(forbidden),
    firstPrompt,
    before,
    test,
    reproduce,
    bot: request.botIdentity ?? DEFAULT_BOT_IDENTITY,
    redact,
    progress,
  });

  const headSha = await sandbox.headSha();
  const noCommit = request.noCommit === true;
  const changes = await collectChanges(sandbox, tree, loop.touched, noCommit, headSha);
  let status = decideStatus(loop, changes.changedFiles.length > 0);
  let failure: FixReport["failure"];
  let pushed = false;
  if (
    status === "success" &&
    request.push !== undefined &&
    request.push !== false &&
    !noCommit &&
    loop.commits.length > 0
  ) {
    progress("pushing", branch);
    const outcome = await pushBranch(request, sandbox, branch);
    pushed = outcome.pushed;
    if (outcome.failure) {
      status = "failed";
      failure = outcome.failure;
    }
  }
  if (status !== "success" && failure === undefined) {
    const why = loop.stop?.message ?? (loop.done ? "The change left nothing to commit." : "The tests do not pass yet.");
    const last = loop.lastProblem;
    failure = {
      reason: loop.stop?.reason ?? (loop.done ? "no-changes" : (last?.reason ?? "exhausted")),
      message: last ? `${why}\n\n${last.message}` : why,
    };
  }
  if (status !== "success" && loop.commits.length > 0) {
    notes.push(`${loop.commits.length} accepted change(s) are committed on ${branch}, but the run did not finish.`);
  }
  const reproduction = reproductionOf(loop, before, changes.changedFiles);
  if (reproduction && !reproduction.failedBefore)
    notes.push(`The new test ${reproduction.testPath} passed even without the fix: it may not reproduce the bug.`);
  const estimated = session.usage.estimatedCalls ?? 0;
  if (estimated > 0) {
    notes.push(
      `The model endpoint reported no token usage for ${estimated} of ${session.usage.calls} model call(s): ` +
        "their tokens were estimated at about 4 characters a token, so the token figures are approximate.",
    );
  }
  const afterTests = loop.attempts.length > 0 ? loop.finalTests : before;
  const redactTail = <T extends { tail: string }>(s: T | null): T | null =>
    s === null ? null : { ...s, tail: redact(s.tail) };
  return {
    status,
    branch,
    baseSha: sandbox.baseSha,
    headSha,
    commits: loop.commits,
    attempts: loop.attempts,
    tests: { before: redactTail(before), after: redactTail(afterTests) },
    usage: session.usage,
    diffStat: changes.diffStat,
    diff: changes.diff,
    changedFiles: changes.changedFiles,
    pushed,
    ...(reproduction ? { reproduction } : {}),
    ...(failure ? { failure: { reason: failure.reason, message: redact(failure.message) } } : {}),
    ...(testCommand ? { testCommand } : {}),
    context: { files: context.files.map((f) => f.path), omitted: context.omitted },
    ...(notes.length > 0 ? { notes } : {}),
  };
}
