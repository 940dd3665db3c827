/**
 * After an attempt's edits landed: red then green for a new reproducing test, the test run, the acceptance rule,
 * and the commit of an accepted change (only the paths the model changed: test artifacts are put back first).
 */
import type { Sandbox } from "../ports/git-sandbox.js";
import { readText } from "./apply-step.js";
import type { EditPhase } from "./attempt.js";
import type { WorkTree } from "./deps.js";
import { heldVerdict, heldVersions, madePass, requestNames } from "./held-tests.js";
import { extractReproPath, pickReproTest } from "./reproduction.js";
import { splitNotLoaded, type SplitNames } from "./test-names.js";
import type { TestSummary } from "./types.js";
import { compareTests, showsNewFailure, type Comparison } from "./verdict.js";

export interface Evaluation {
  readonly tests: TestSummary | null;
  readonly comparison: Comparison | null;
  readonly accepted: boolean;
  /** Set when this attempt brought a reproducing test and it was checked without the fix. */
  readonly red?: { readonly testPath: string; readonly failedBefore: boolean; readonly run: TestSummary };
  readonly note?: string;
  /**
   * Set when the change did not hold with the tests as they were: the test-defining files, now put back as they
   * were (null: removed), and what failed.
   */
  readonly held?: { readonly versions: ReadonlyMap<string, string | null>; readonly failing: readonly string[] };
}

export interface EvaluateInput {
  readonly tree: WorkTree;
  readonly sandbox: Sandbox;
  /** What the engine last wrote to each path: the tree is put back to it after the tests. */
  readonly written: ReadonlyMap<string, string | null>;
  readonly phase: EditPhase;
  readonly baseline: TestSummary | null;
  /** Runs the tests; undefined when the repository has no test command. */
  readonly test: (() => Promise<TestSummary>) | undefined;
  readonly checkReproduction: boolean;
  /** What a path held at the last accepted state (null: it did not exist; undefined: never written). */
  readonly accepted: (path: string) => string | null | undefined;
  /** The request: a change to the tests it names is what it asks for. */
  readonly instruction: string;
  /** Whether a run that looks worse may be run again (true at most once a job). */
  readonly mayRerun?: () => boolean;
}

/** A run that fails this many tests more than before, or fewer, is run again before it counts; more is a break. */
const MAX_RERUN_FAILURES = 3;

/**
 * The run and its verdict, confirmed: tests that pass before a change and fail once after it may be flaky (a
 * timer, a port, an order), and a change must not be refused, nor the model sent after them, on one run. When a
 * few tests newly fail, the tests run once more (once a job); if that run is no worse, it is the one that counts,
 * and the tests that failed only the first time are named.
 */
async function confirmed(
  input: EvaluateInput,
  test: () => Promise<TestSummary>,
  tests: TestSummary,
  comparison: Comparison,
): Promise<{ tests: TestSummary; comparison: Comparison; flaky?: readonly string[] }> {
  const few =
    comparison.verdict === "worse" &&
    comparison.newFailures.length > 0 &&
    comparison.newFailures.length <= MAX_RERUN_FAILURES;
  if (!few || tests.timedOut || tests.limit !== undefined || input.mayRerun?.() !== true) return { tests, comparison };
  const again = await test();
  await restoreAfterTests(input.sandbox, input.tree, input.written);
  const second = compareTests(input.baseline, again);
  if (second.verdict === "worse") return { tests, comparison };
  return { tests: again, comparison: second, flaky: comparison.newFailures };
}

/**
 * Runs the suite with only the new test in place (the attempt's other files put back as they were), then restores
 * the attempt's files. Returns the run, or undefined when the attempt does not separate a test from a fix.
 */
async function runRed(input: EvaluateInput, test: () => Promise<TestSummary>) {
  const declared = input.phase.replies
    .map(extractReproPath)
    .filter((p) => p !== undefined)
    .pop();
  const testPath = pickReproTest(declared, input.phase.written);
  if (testPath === undefined) return undefined;
  const fixPaths = input.phase.written.filter((p) => p !== testPath);
  const without = new Map(fixPaths.map((p) => [p, input.phase.preimages.get(p) ?? null] as const));
  const undone = await input.tree.commit(without);
  if (!undone.ok) return undefined;
  try {
    const run = await test();
    return { testPath, failedBefore: showsNewFailure(input.baseline, run), run };
  } finally {
    // The fix goes back in, and whatever the run left behind goes.
    await restoreAfterTests(input.sandbox, input.tree, input.written);
  }
}

/**
 * Runs the suite with the files that define the tests as they were at the last accepted state (the rest of the
 * change in place), then restores the attempt's files. Returns why the change does not hold there, or undefined
 * (also when it made no test pass that failed before, changed no such file, or the request names the one it
 * changed).
 */
async function runHeld(input: EvaluateInput, test: () => Promise<TestSummary>, after: TestSummary) {
  if (madePass(input.baseline, after).length === 0) return undefined;
  const versions = heldVersions(input.written, input.accepted);
  if (versions.size === 0 || requestNames(input.instruction, versions.keys())) return undefined;
  const put = await input.tree.commit(versions);
  if (!put.ok) return undefined;
  let verdict: ReturnType<typeof heldVerdict>;
  let run: TestSummary;
  try {
    run = await test();
    verdict = heldVerdict(input.baseline, after, run);
  } finally {
    // A change to the tests that the change needed in order to pass is undone; any other is put back.
    const kept = verdict === undefined ? input.written : new Map([...input.written, ...versions]);
    await restoreAfterTests(input.sandbox, input.tree, kept);
  }
  return verdict === undefined ? undefined : { ...verdict, run, versions };
}

export async function evaluateAttempt(input: EvaluateInput): Promise<Evaluation> {
  const cleanEdits = input.phase.failures.length === 0;
  if (input.test === undefined) {
    // Nothing can judge the change: only a reply whose every edit landed is taken.
    return {
      tests: null,
      comparison: null,
      accepted: cleanEdits,
      ...(cleanEdits ? {} : { note: "some edits failed and there are no tests to judge the rest" }),
    };
  }
  const red = input.checkReproduction ? await runRed(input, input.test) : undefined;
  const first = await input.test();
  await restoreAfterTests(input.sandbox, input.tree, input.written);
  const { tests, comparison, flaky } = await confirmed(input, input.test, first, compareTests(input.baseline, first));
  const held = comparison.verdict === "worse" ? undefined : await runHeld(input, input.test, tests);
  if (held !== undefined) {
    return {
      tests: held.run,
      comparison: { verdict: "worse", newFailures: held.failing, why: held.why },
      accepted: false,
      note: held.why,
      held: { versions: held.versions, failing: held.failing },
      ...(red ? { red } : {}),
    };
  }
  const accepted = comparison.verdict !== "worse";
  const verdictNote =
    comparison.verdict === "worse"
      ? comparison.why
      : comparison.verdict === "no-worse"
        ? comparison.notRunBefore !== undefined
          ? `no new failures, but ${comparison.notRunBefore.length} test(s) that could not run before the change fail`
          : comparison.stillFailing.length === 0 && comparison.unnamed !== undefined
            ? `no new failures: the run fails as it did before the change (${comparison.unnamed[0] ?? ""})`
            : `no new failures, but ${stillFailingPhrase(splitNotLoaded(comparison.stillFailing, tests))}`
        : undefined;
  const flakyNote =
    flaky === undefined
      ? undefined
      : `${flaky.length} test(s) failed on the first run and passed when run again (flaky?): ${flaky.join(", ")}`;
  const note = [flakyNote, verdictNote].filter((n) => n !== undefined).join("; ");
  return { tests, comparison, accepted, ...(red ? { red } : {}), ...(note !== "" ? { note } : {}) };
}

/**
 * After a test run: the tree holds exactly HEAD plus what the engine wrote. Tracked files the tests changed are
 * restored, files and nested repositories they made are removed, and an edited file they changed gets the engine's
 * bytes back; what set-up made and ignored build output stay.
 */
export async function restoreAfterTests(
  sandbox: Sandbox,
  tree: WorkTree,
  written: ReadonlyMap<string, string | null>,
): Promise<void> {
  await sandbox.discardExcept(new Set(written.keys()));
  const back = new Map<string, string | null>();
  for (const [path, content] of written) {
    if (((await readText(tree, path)) ?? null) !== content) back.set(path, content);
  }
  if (back.size > 0) await tree.commit(back);
}

/** What still fails, counting apart the test files that could not load, before the change and still. */
function stillFailingPhrase(still: SplitNames): string {
  const failing = `${still.failing.length} test(s) that failed before still fail`;
  const notLoaded = `${still.notLoaded.length} test file(s) that could not load before still cannot`;
  if (still.notLoaded.length === 0) return failing;
  return still.failing.length === 0 ? notLoaded : `${failing}, and ${notLoaded}`;
}
