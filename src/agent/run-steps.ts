/**
 * The run inside its clone, step by step: the environment (set-up, test command), the baseline test run beside the
 * context gathering, the check that the tests can run at all, the bounded loop, then the report. Steps that cannot
 * go on end the run with a report that says why, before any model call when the environment is at fault.
 */
import { DEFAULT_MODEL } from "../config/env.js";
import type { Sandbox } from "../ports/git-sandbox.js";
import { DEFAULT_FORBIDDEN } from "../config/repo-config.js";
import { credentialValues, isCredentialPath } from "../core/credential-files.js";
import { createPathGuard, readText } from "./apply-step.js";
import { resolveLimits } from "./budget.js";
import { buildSystemPrompt, buildTaskPrompt, DEFAULT_EDIT_FORMAT } from "./build-prompt.js";
import { DEFAULT_BOT_IDENTITY } from "./commit-message.js";
import type { GatheredContext } from "./context/gather.js";
import { rankContext } from "./context/rank.js";
import { selectContext } from "./context/select.js";
import type { FixDeps, WorkTree } from "./deps.js";
import { environmentProblem, pythonModulesOf, type EnvironmentProblem } from "./environment-check.js";
import { ciEnvironmentNote } from "./ci-env.js";
import { restoreAfterTests } from "./evaluate.js";
import { finishReport, type ReportScope } from "./finish.js";
import { runLoop } from "./loop.js";
import { prepareEnvironment } from "./prepare-environment.js";
import { readMany } from "./read-files.js";
import { answerLookup } from "./lookups.js";
import { looksLikeBugReport } from "./reproduction.js";
import { Session } from "./session.js";
import { DEFAULT_TEST_TIMEOUT_MS, importedElsewhere, runTests } from "./test-runs.js";
import type { TestCommand } from "./test-command.js";
import { checksAskedFor, droppedNote, withoutUnenforcedChecks } from "./unenforced-checks.js";
import type { Timings } from "./timings.js";
import type { FixReport, FixRequest, FixStage, TestSummary } from "./types.js";
import { tailForModel } from "./test-run-for-model.js";

export interface RunScope {
  readonly sandbox: Sandbox;
  readonly tree: WorkTree;
  readonly branch: string;
  readonly startedAt: number;
  readonly redact: (text: string) => string;
  /** Values no edit may write and every report redacts (the model key, the token). */
  readonly secrets: readonly string[];
  /** Adds values to `secrets`: redacted from then on, and refused in edits. */
  readonly keepSecret: (...values: readonly string[]) => void;
  readonly progress: (stage: FixStage, detail?: string) => void;
  readonly notes: string[];
  readonly timings: Timings;
}

/** The closing line of a stop before the model: what the user can set. */
const SET_SETUP_OR_TEST =
  "Set `setup:` in .github/patchsmith.yml to the commands that install what the tests need, or `test:` to a " +
  "command that runs them (`patchsmith fix`: --setup, --test).";

/** Why the baseline says nothing about the code, for the report: the problem, the output's end, what to set. */
export function describeBrokenTests(problem: EnvironmentProblem, before: TestSummary): string {
  const how = before.timedOut ? "timed out" : `ended with exit code ${String(before.exitCode ?? "none")}`;
  return [
    `The tests cannot run here: ${problem.why}. No model was asked, since no change to the code can fix that.`,
    "",
    ...(problem.evidence === undefined || problem.evidence === ""
      ? []
      : ["It printed:", "```", problem.evidence.replace(/```/g, "'''"), "```", ""]),
    `\`${before.command}\` ${how}:`,
    "```",
    tailForModel(before.tail).replace(/```/g, "'''"),
    "```",
    "",
    SET_SETUP_OR_TEST,
  ].join("\n");
}

/** The ranking of the repository's files for the context: it depends on nothing set-up or the tests do. */
function startRanking(request: FixRequest, scope: RunScope, paths: readonly string[]) {
  const { sandbox, tree, timings } = scope;
  const ranking = timings.measure("context", () =>
    rankContext({
      instruction: request.instruction,
      ...(request.context !== undefined ? { extra: request.context } : {}),
      ...(request.focus !== undefined ? { focus: request.focus } : {}),
      paths,
      read: (wanted) => readMany(tree, wanted),
      termCounts: (terms) => sandbox.termCounts(terms),
      sizes: () => sandbox.fileSizes(),
    }),
  );
  ranking.catch(() => undefined);
  return ranking;
}

/** The conversation with the model, taught the request's dialect, and the first prompt with its context. */
function startConversation(
  deps: FixDeps,
  request: FixRequest,
  scope: RunScope,
  setting: {
    readonly limits: ReturnType<typeof resolveLimits>;
    readonly context: GatheredContext;
    readonly testCommand: string | undefined;
    readonly before: TestSummary | null;
  },
) {
  const { sandbox, tree, startedAt, redact } = scope;
  const reproduce = request.reproduce ?? looksLikeBugReport(request.instruction);
  const forbidden = request.forbiddenPaths ?? DEFAULT_FORBIDDEN;
  const model = request.model ?? deps.defaultModel ?? DEFAULT_MODEL;
  const format = request.editFormat ?? deps.model.editFormatFor?.(model) ?? DEFAULT_EDIT_FORMAT;
  // What the model asks to see is read from the clone, redacted, never from `.git`.
  const lookupSources = { tree, sandbox, hidden: isCredentialPath, redact };
  const session = new Session(
    deps,
    model,
    setting.limits,
    startedAt,
    buildSystemPrompt({ forbidden, reproduce, format }),
    (asked) => answerLookup(lookupSources, asked),
  );
  const firstPrompt = buildTaskPrompt({
    instruction: request.instruction,
    ...(request.context !== undefined ? { extra: request.context } : {}),
    ...(request.focus !== undefined ? { focus: request.focus } : {}),
    context: setting.context,
    testCommand: setting.testCommand,
    before: setting.before,
    redact,
  });
  return { session, firstPrompt, reproduce, forbidden, format };
}

export async function runSteps(
  deps: FixDeps,
  request: FixRequest,
  configuredTest: string | undefined,
  scope: RunScope,
): Promise<FixReport> {
  const { sandbox, tree, startedAt, redact, progress, notes, timings } = scope;
  const paths = await sandbox.listFiles();
  // What a committed credential file holds is redacted wherever the run's text goes, and no edit may write it.
  for (const path of paths.filter(isCredentialPath)) {
    scope.keepSecret(...credentialValues((await readText(tree, path)) ?? ""));
  }
  const limits = resolveLimits(request);
  const timeLeft = (): number => limits.wallTimeMs - (deps.clock.now() - startedAt);
  // The failing tests' files join the ranking once the baseline has named them.
  const rankingPromise = startRanking(request, scope, paths);
  const base: ReportScope = { deps, request, scope, paths };

  progress("setting-up");
  const prepared = await timings.measure("setup", () =>
    prepareEnvironment(deps, request, sandbox, tree, paths, configuredTest, timeLeft),
  );
  if (!prepared.ok)
    return finishReport({
      ...base,
      early: { reason: prepared.reason, message: prepared.message },
      setup: prepared.setup,
    });
  const { place, setup } = prepared;
  const ciNote = ciEnvironmentNote(prepared.ci);
  if (ciNote !== undefined) notes.push(ciNote);
  const extrasOf = (testCommand: TestCommand | undefined) => ({
    ...(setup === undefined ? {} : { setup }),
    ...(testCommand === undefined ? {} : { testCommand }),
  });

  const missingSubmodules = sandbox.submodules.filter((s) => !s.ok);
  if (missingSubmodules.length > 0) {
    notes.push(
      `Submodules not checked out: ${missingSubmodules.map((s) => s.path).join(", ")} ` +
        `(${missingSubmodules[0]!.message ?? "unknown reason"}).`,
    );
  }
  // Tests that would import another copy of the package pass or fail whatever the change: not even the baseline runs.
  const detected = prepared.testCommand;
  const elsewhere =
    detected === undefined ? undefined : await importedElsewhere(deps, place, tree, detected.command, paths);
  if (elsewhere !== undefined) {
    const message = `The tests cannot run here: ${elsewhere}. No model was asked, and the tests were not run.\n\n${SET_SETUP_OR_TEST}`;
    return finishReport({ ...base, ...extrasOf(detected), early: { reason: "tests-cannot-run", message } });
  }
  const testTimeout = request.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
  // What a formatter would change is asked after the model's edits only: before them it is not the model's to fix.
  const runOnce = (command: TestCommand, formatting: boolean) =>
    runTests(deps, place, tree, command, Math.min(testTimeout, timeLeft()), formatting);
  if (detected !== undefined) progress("testing-before", detected.command);
  else
    notes.push(
      "No test command was found (pass --test or set `test` in .github/patchsmith.yml): the change is untested.",
    );
  const measured = detected === undefined ? null : await timings.measure("baseline", () => runOnce(detected, false));
  // What the baseline run wrote (to tracked files too) must not become the ground the model's edits stand on.
  if (measured !== null) await restoreAfterTests(sandbox, tree, new Map());
  const enforced =
    measured === null || detected === undefined
      ? undefined
      : withoutUnenforcedChecks(detected, measured, checksAskedFor(request.instruction));
  if (enforced !== undefined) notes.push(droppedNote(enforced.dropped));
  const testCommand = enforced?.test ?? detected;
  const before: TestSummary | null = enforced?.baseline ?? measured;
  // The baseline is timed as such; the loop's runs as "tests".
  const test = testCommand === undefined ? undefined : () => timings.measure("tests", () => runOnce(testCommand, true));
  const extras = extrasOf(testCommand);
  const ranking = await rankingPromise;
  if (before !== null) {
    const problem = environmentProblem(before, {
      pythonModules: pythonModulesOf(paths),
      missingSubmodules: missingSubmodules.map((s) => s.path),
    });
    if (problem !== undefined) {
      return finishReport({
        ...base,
        ...extras,
        before,
        early: { reason: "tests-cannot-run", message: describeBrokenTests(problem, before) },
      });
    }
  }
  const context: GatheredContext = await timings.measure("context", () => selectContext(ranking, before?.failures));
  if (context.omitted.length > 0) notes.push(`Too big for the model's context: ${context.omitted.join(", ")}.`);

  const { session, firstPrompt, reproduce, forbidden, format } = startConversation(deps, request, scope, {
    limits,
    context,
    testCommand: testCommand?.command,
    before,
  });
  const loop = await runLoop({
    deps,
    request: { ...request, editFormat: format },
    session,
    sandbox,
    tree,
    rules: { knownPaths: paths, guard: createPathGuard(forbidden), secrets: scope.secrets },
    firstPrompt,
    before,
    test,
    reproduce,
    bot: request.botIdentity ?? DEFAULT_BOT_IDENTITY,
    redact,
    progress,
    timings,
  });
  return finishReport({ ...base, ...extras, before, context, loop, session });
}
