/**
 * After an attempt's edits landed: red then green for a new reproducing test, the test run, the acceptance rule,
 * and the commit of an accepted change (only the paths the model changed: test artifacts are put back first).
 */
import type { Sandbox } from "../ports/git-sandbox.js";
import { readText } from "./apply-step.js";
import type { EditPhase } from "./attempt.js";
import type { WorkTree } from "./deps.js";
import { extractReproPath, pickReproTest } from "./reproduction.js";
import type { TestSummary } from "./types.js";
import { compareTests, showsNewFailure, type Comparison } from "./verdict.js";

export interface Evaluation {
  readonly tests: TestSummary | null;
  readonly comparison: Comparison | null;
  readonly accepted: boolean;
  /** Set when this attempt brought a reproducing test and it was checked without the fix. */
  readonly red?: { readonly testPath: string; readonly failedBefore: boolean; readonly run: TestSummary };
  readonly note?: string;
}

export interface EvaluateInput {
  readonly tree: WorkTree;
  readonly phase: EditPhase;
  readonly baseline: TestSummary | null;
  /** Runs the tests; undefined when the repository has no test command. */
  readonly test: (() => Promise<TestSummary>) | undefined;
  readonly checkReproduction: boolean;
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
  const current = new Map<string, string | null>();
  for (const path of fixPaths) current.set(path, (await readText(input.tree, path)) ?? null);
  const without = new Map(fixPaths.map((p) => [p, input.phase.preimages.get(p) ?? null] as const));
  const undone = await input.tree.commit(without);
  if (!undone.ok) return undefined;
  try {
    const run = await test();
    return { testPath, failedBefore: showsNewFailure(input.baseline, run), run };
  } finally {
    await input.tree.commit(current);
  }
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
  const tests = await input.test();
  const comparison = compareTests(input.baseline, tests);
  const accepted = comparison.verdict !== "worse";
  const note =
    comparison.verdict === "worse"
      ? comparison.why
      : comparison.verdict === "no-worse"
        ? `no new failures, but ${comparison.stillFailing.length} test(s) that failed before still fail`
        : undefined;
  return { tests, comparison, accepted, ...(red ? { red } : {}), ...(note ? { note } : {}) };
}

/**
 * Puts back every path the model did not write (test artifacts, tracked files a test rewrote) so the commit holds
 * only the model's change, then commits. Returns the SHA, or undefined when nothing was left to commit.
 */
export async function commitChange(
  sandbox: Sandbox,
  tree: WorkTree,
  modelPaths: ReadonlySet<string>,
  message: string,
  author: { name: string; email: string },
): Promise<string | undefined> {
  const stray = (await sandbox.changedPaths()).filter((p) => !modelPaths.has(p) && !p.endsWith("/"));
  if (stray.length > 0) {
    const restore = new Map<string, string | null>();
    for (const path of stray) restore.set(path, (await sandbox.show("HEAD", path)) ?? null);
    await tree.commit(restore);
  }
  return sandbox.commitAll(message, author);
}
