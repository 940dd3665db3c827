/** Choosing the test command and running it in the sandbox, offline, in the environment set-up prepared. */
import type { WorkTree } from "./deps.js";
import type { FixDeps } from "./deps.js";
import {
  foreignOrigin,
  originProbe,
  pathSettingFiles,
  runsPythonDirectly,
  setsImportPath,
  srcPackages,
} from "./python-origin.js";
import { formattingFor, type FailedRun } from "./formatter-diff.js";
import type { RunSummary } from "../ports/sandbox-runner.js";
import { WORKFLOW_PATH } from "./ci-env.js";
import { readMany } from "./read-files.js";
import { cacheMount, runRequest, type RunPlace } from "./run-place.js";
import { detectTestCommand, DETECTION_FILES, withAddedChecks, type TestCommand } from "./test-command.js";
import { summarizeTestRun, summarizeTestSteps, type StepRun } from "./test-output.js";
import type { TestSummary } from "./types.js";

export const DEFAULT_TEST_TIMEOUT_MS = 5 * 60_000;
const PROBE_TIMEOUT_MS = 30_000;

/** The request's test command, else the repo config's, else one detected from the project's files. */
export async function resolveTestCommand(
  deps: FixDeps,
  place: RunPlace,
  tree: WorkTree,
  given: { readonly requested: string | undefined; readonly configured: string | undefined },
  paths: readonly string[],
): Promise<TestCommand | undefined> {
  const { requested, configured } = given;
  if (requested !== undefined && requested.trim() !== "") return { command: requested.trim(), source: "request" };
  if (configured !== undefined && configured.trim() !== "")
    return { command: configured.trim(), source: "repo-config" };
  // The workflows too: the checks CI runs after the tests come from them (workflow-checks.ts).
  const small = await readMany(tree, [
    ...DETECTION_FILES.filter((f) => paths.includes(f)),
    ...paths.filter((p) => WORKFLOW_PATH.test(p)),
  ]);
  const detection = detectTestCommand({ paths, read: (p) => small.get(p) });
  switch (detection.kind) {
    case "none":
      return undefined;
    case "command":
      return {
        command: detection.command,
        source: "detected",
        ...(detection.steps === undefined ? {} : { steps: detection.steps }),
      };
    case "python": {
      // Asked inside the environment set-up made: pytest may live in its virtual environment only.
      const probe = await deps.runner.run({
        ...runRequest(place),
        ...cacheMount(place, false),
        command: detection.probe,
        timeoutMs: PROBE_TIMEOUT_MS,
      });
      return {
        ...withAddedChecks(probe.passed ? detection.pytest : detection.fallback, detection.added),
        source: "detected",
      };
    }
  }
}

type RunCommand = (command: string, timeoutMs: number) => Promise<RunSummary>;

/** The command line, or its steps one after the other, each whatever the others' outcome; and what failed printed. */
async function runCommand(
  run: RunCommand,
  test: Pick<TestCommand, "command" | "steps">,
  timeoutMs: number,
  root: string,
): Promise<{ summary: TestSummary; failed: FailedRun[] }> {
  if (test.steps === undefined) {
    const result = await run(test.command, timeoutMs);
    return { summary: summarizeTestRun(result, root), failed: result.passed ? [] : [result] };
  }
  const deadline = Date.now() + timeoutMs;
  const runs: StepRun[] = [];
  for (const step of test.steps) {
    // A check patchsmith added runs on a time limit of its own (test-command.ts).
    const result = await run(step.command, step.added === true ? timeoutMs : deadline - Date.now());
    runs.push({ step, run: result });
    if (result.timedOut && step.added !== true) break;
  }
  const failed = runs.filter((r) => !r.run.passed).map((r) => r.run);
  return { summary: summarizeTestSteps(test.command, runs, root), failed };
}

/**
 * Runs the tests (runCommand). With `formatting`, when a formatter's check failed, what the formatter would change
 * is asked too (formatter-diff.ts).
 */
export async function runTests(
  deps: FixDeps,
  place: RunPlace,
  tree: WorkTree,
  test: Pick<TestCommand, "command" | "steps">,
  timeoutMs: number,
  formatting = true,
): Promise<TestSummary> {
  const run: RunCommand = (command, ms) =>
    deps.runner.run({
      ...runRequest(place),
      ...cacheMount(place, false),
      command,
      timeoutMs: Math.max(1_000, ms),
    });
  const { summary, failed } = await runCommand(run, test, timeoutMs, place.sandbox.dir);
  if (!formatting || summary.timedOut || failed.length === 0) return summary;
  const changes = await formattingFor(deps, place, tree, failed);
  return changes === undefined ? summary : { ...summary, formatting: changes };
}

/**
 * Why the tests would not import the repository's src-layout Python package from the clone (python-origin.ts), if
 * so: asked inside the run's environment, as the tests will import it.
 */
export async function importedElsewhere(
  deps: FixDeps,
  place: RunPlace,
  tree: WorkTree,
  command: string,
  paths: readonly string[],
): Promise<string | undefined> {
  const names = srcPackages(paths);
  if (names.length === 0 || !runsPythonDirectly(command)) return undefined;
  if (setsImportPath((await readMany(tree, pathSettingFiles(paths))).values())) return undefined;
  const probe = await deps.runner.run({
    ...runRequest(place),
    ...cacheMount(place, false),
    command: originProbe(names),
    timeoutMs: PROBE_TIMEOUT_MS,
  });
  return probe.passed ? foreignOrigin(probe.output, names, place.sandbox.dir) : undefined;
}
