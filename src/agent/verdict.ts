/**
 * The acceptance rule (pure): only the test command's runs decide. An attempt becomes a commit when its edits
 * applied and the tests are no worse than before it: no test fails that did not fail already (or could not run,
 * its file not loading), and no step run with them (npm's pretest, posttest) fails in a way it did not already.
 */
import { MAX_FAILING_NAMES } from "./failures/index.js";
import { failureLines, freshLine, sameness } from "./failure-lines.js";
import type { NotRun, TestStepRun, TestSummary } from "./types.js";

export type Comparison =
  /** Nothing fails any more. */
  | { readonly verdict: "green" }
  /**
   * Some tests still fail, but each of them failed before too; or, where no test can be named, the run (or a step
   * of it besides the tests) fails with no error line the baseline did not print (`unnamed`: those lines).
   */
  | {
      readonly verdict: "no-worse";
      readonly stillFailing: readonly string[];
      readonly unnamed?: readonly string[];
      /** Tests failing now that could not run before the change (their file did not load). */
      readonly notRunBefore?: readonly string[];
    }
  /** At least one test fails that passed before (or the run timed out, or failures cannot be compared). */
  | { readonly verdict: "worse"; readonly newFailures: readonly string[]; readonly why: string };

/** The steps of a run in steps that run tests (a script may run its runner more than once). */
export const testSteps = (summary: TestSummary): TestStepRun[] => (summary.steps ?? []).filter((step) => step.main);

/** Whether a run in steps had steps that run tests, and every one of them passed. */
export const testStepsPassed = (summary: TestSummary): boolean => {
  const steps = testSteps(summary);
  return steps.length > 0 && steps.every((step) => step.passed);
};

/** The first step that runs tests and failed, or else the first that runs tests. */
export const firstFailingTestStep = (summary: TestSummary): TestStepRun | undefined => {
  const steps = testSteps(summary);
  return steps.find((step) => !step.passed) ?? steps[0];
};

/** The steps besides the tests (a lint, a build, an audit) that failed. */
export const failedSideSteps = (summary: TestSummary): TestStepRun[] =>
  (summary.steps ?? []).filter((step) => !step.main && !step.passed);

/** How a run, its main step or another step ended, for the comparison: its failure lines read once. */
interface Ending {
  readonly passed: boolean;
  readonly exitCode: number | null;
  readonly failing: readonly string[];
  readonly lines: readonly string[];
  /** `outputDigest` of its output, where kept (steps). */
  readonly digest?: string;
  /** The test files it could not load. */
  readonly notRun?: NotRun;
  /** The test file of a failing test, where the runner named it. */
  readonly fileOf: (name: string) => string | undefined;
  /** The run it belongs to timed out: tests it had not reached yet did not run. */
  readonly cutShort?: boolean;
}

const filesOf = (summary: TestSummary): ((name: string) => string | undefined) => {
  const files = new Map((summary.failures ?? []).map((f) => [f.name, f.file]));
  return (name) => files.get(name);
};

/** A step of `summary` as an ending. */
const endingOfStep = (step: TestStepRun, summary?: TestSummary): Ending => ({
  passed: step.passed,
  exitCode: step.exitCode,
  failing: step.failing ?? [],
  lines: step.failureLines,
  digest: step.outputDigest,
  ...(step.notRun === undefined ? {} : { notRun: step.notRun }),
  fileOf: summary === undefined ? () => undefined : filesOf(summary),
  ...(summary?.timedOut === true ? { cutShort: true } : {}),
});

/** The whole run as one ending. */
function endingOf(summary: TestSummary): Ending {
  const { passed, exitCode, failing, notRun } = summary;
  return {
    passed,
    exitCode,
    failing,
    lines: [...failureLines(summary.tail)],
    ...(notRun === undefined ? {} : { notRun }),
    fileOf: filesOf(summary),
    ...(summary.timedOut ? { cutShort: true } : {}),
  };
}

/**
 * The steps that run tests, after the change beside the same steps before it, when both runs went step by step
 * with the same steps running tests; undefined otherwise (the runs are then compared whole).
 */
function testStepPairs(baseline: TestSummary, after: TestSummary): [TestStepRun, TestStepRun][] | undefined {
  const now = testSteps(after);
  const was = testSteps(baseline);
  if (now.length === 0 || now.length !== was.length || now.some((step, i) => step.command !== was[i]!.command))
    return undefined;
  return now.map((step, i) => [step, was[i]!]);
}

/**
 * Whether a failing run (or step) that names no test fails as `was` did: the same exit code, and the same output
 * or only failure lines `was` printed (at least one: nothing proves nothing new broke).
 */
function failsAsBefore(now: Ending, was: Ending): boolean {
  if (now.exitCode !== was.exitCode) return false;
  if (now.digest !== undefined && now.digest === was.digest) return true;
  const before = new Set(was.lines.map(sameness));
  return now.lines.length > 0 && now.lines.every((line) => before.has(sameness(line)));
}

/**
 * Each step besides the tests (a lint in `pretest`, an audit in `posttest`) that fails must fail as it did in the
 * baseline. Returns why not, or the lines it failed with.
 */
function compareSideSteps(baseline: TestSummary, after: TestSummary): { why: string } | { lines: string[] } {
  const lines: string[] = [];
  for (const step of failedSideSteps(after)) {
    const before = baseline.steps?.find((b) => b.command === step.command);
    if (before === undefined) return { why: `\`${step.command}\` fails now, and did not run before the change` };
    if (before.passed) return { why: `\`${step.command}\` passed before the change and fails now` };
    if (!failsAsBefore(endingOfStep(step), endingOfStep(before))) {
      const fresh = freshLine(step.failureLines, before.failureLines);
      return {
        why: `\`${step.command}\` fails differently than before the change${fresh === undefined ? "" : `: ${fresh}`}`,
      };
    }
    lines.push(...(step.failureLines.length > 0 ? step.failureLines : [`\`${step.command}\` fails as before`]));
  }
  return { lines };
}

/**
 * Compares a test run with the baseline (the run before the attempt). When the runner names no failing test, a
 * failing run is "no worse" only if it fails the same way as the baseline: the same exit code, and not one failure
 * line the baseline did not print (a lint step failing before and after the change, on lines the change did not
 * touch), whether or not the baseline also named failing tests. Anything else counts as worse: nothing proves
 * nothing new broke. A command run step by step is judged step by step: every other step as such a run, each step
 * that runs tests by the names of those failing in it.
 */
export function compareTests(baseline: TestSummary | null, after: TestSummary): Comparison {
  if (after.passed) return { verdict: "green" };
  if (after.timedOut) return { verdict: "worse", newFailures: [], why: "the tests timed out" };
  // A limit the baseline did not run into says the change made the tests outgrow the sandbox.
  if (after.limit !== undefined && baseline?.limit?.kind !== after.limit.kind) {
    return {
      verdict: "worse",
      newFailures: [...after.failing],
      why: `the tests ran into a limit: ${after.limit.message}`,
    };
  }
  if (baseline === null || baseline.passed) {
    return { verdict: "worse", newFailures: [...after.failing], why: "tests that passed before now fail" };
  }
  const stepwise = after.steps !== undefined && baseline.steps !== undefined;
  const side = stepwise ? compareSideSteps(baseline, after) : { lines: [] };
  if ("why" in side) return { verdict: "worse", newFailures: [], why: side.why };
  const pairs = stepwise ? testStepPairs(baseline, after) : undefined;
  if (pairs === undefined) return judgeTests(endingOf(after), endingOf(baseline), side.lines);
  const verdicts = pairs.map(([now, was]) => judgeTests(endingOfStep(now, after), endingOfStep(was, baseline), []));
  const worse = verdicts.filter((v) => v.verdict === "worse");
  if (worse.length > 0) return { ...worse[0]!, newFailures: [...new Set(worse.flatMap((v) => v.newFailures))] };
  const kept = verdicts.filter((v) => v.verdict === "no-worse");
  const unnamed = [...side.lines, ...kept.flatMap((v) => v.unnamed ?? [])];
  const notRunBefore = [...new Set(kept.flatMap((v) => v.notRunBefore ?? []))];
  return {
    verdict: "no-worse",
    stillFailing: [...new Set(kept.flatMap((v) => v.stillFailing))],
    ...(side.lines.length > 0 || kept.some((v) => v.unnamed !== undefined) ? { unnamed } : {}),
    ...(notRunBefore.length > 0 ? { notRunBefore } : {}),
  };
}

/** The tests after the change (a run, or a step that runs tests) against the same before it. */
function judgeTests(now: Ending, was: Ending, sideLines: readonly string[]): Comparison {
  if (now.passed) return { verdict: "no-worse", stillFailing: [], unnamed: sideLines };
  if (was.passed) return { verdict: "worse", newFailures: [...now.failing], why: "tests that passed before now fail" };
  // The tests the baseline named may all pass now while a step they share a command with still fails as before
  // (a lint after the tests in one script): the named failures are gone, the rest is the baseline's own.
  if (now.failing.length === 0 && failsAsBefore(now, was)) {
    const same = now.lines.length > 0 ? now.lines : ["the tests fail as before, printing the same"];
    return { verdict: "no-worse", stillFailing: [], unnamed: [...sideLines, ...same] };
  }
  if (now.failing.length === 0 || was.failing.length === 0) {
    // Every named failure gone while the run still fails (a coverage threshold, a leak check): say on what.
    const fresh = now.failing.length === 0 ? freshLine(now.lines, was.lines) : undefined;
    return {
      verdict: "worse",
      newFailures: [],
      why:
        fresh === undefined
          ? "the tests still fail and the failing tests could not be named, so nothing proves the change is no worse"
          : `no test fails by name now, but the run fails on a line it did not print before: ${fresh}`,
    };
  }
  // Past the names a run keeps, a test the change broke may be one of those left out.
  if (now.failing.length >= MAX_FAILING_NAMES) {
    return {
      verdict: "worse",
      newFailures: [],
      why: `${String(MAX_FAILING_NAMES)} or more tests fail, too many to tell whether the change broke one`,
    };
  }
  const before = new Set(was.failing);
  // A test whose file could not be loaded before the change (a test importing what the change adds) did not pass
  // then: failing now, it is not newly broken.
  const couldNotRun = (name: string): boolean => {
    const file = now.fileOf(name);
    return was.notRun !== undefined && (was.notRun.all || (file !== undefined && was.notRun.files.includes(file)));
  };
  const newFailures = now.failing.filter((name) => !before.has(name) && !couldNotRun(name));
  if (newFailures.length > 0) {
    // A baseline cut short by its time limit may never have reached them: that is all that can be said.
    const why = `${newFailures.length} test(s) fail that did not fail before${
      was.cutShort === true ? " (the run before the change timed out, so they may not have run then)" : ""
    }`;
    return { verdict: "worse", newFailures, why };
  }
  const notRunBefore = now.failing.filter((name) => !before.has(name));
  return {
    verdict: "no-worse",
    stillFailing: now.failing.filter((name) => before.has(name)),
    ...(sideLines.length > 0 ? { unnamed: [...sideLines] } : {}),
    ...(notRunBefore.length > 0 ? { notRunBefore } : {}),
  };
}

/**
 * True when `run` shows a failure the baseline did not have, as far as can be told: a failing run over a passing
 * (or absent) baseline, or a named failure the baseline did not name. Unnamed failures over a failing baseline
 * cannot be told apart, so they do not count (used for "does the new test fail without the fix?").
 */
export function showsNewFailure(baseline: TestSummary | null, run: TestSummary): boolean {
  if (run.passed || run.timedOut) return false;
  if (baseline === null || baseline.passed) return true;
  const before = new Set(baseline.failing);
  return run.failing.some((name) => !before.has(name));
}
