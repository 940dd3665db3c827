/** A test run's raw result made into what the loop judges and reports (pure). */
import { TailBuffer } from "../core/tail-buffer.js";
import type { RunSummary } from "../ports/sandbox-runner.js";
import {
  MAX_FAILURES,
  mergeFailures,
  parseFailures,
  relativize,
  type FailureBlock,
  type ParsedFailures,
} from "./failures/index.js";
import type { TestStep } from "./test-command.js";
import type { NotRun, TestSummary } from "./types.js";
import { failureLines, outputDigest } from "./failure-lines.js";

/** How much of a run's output a report keeps (the model gets less, see test-run-for-model.ts). */
export const REPORT_TAIL_BYTES = 64 * 1024;

/**
 * A run of the tests as the loop judges it: the failing tests and why, read from the whole kept output, and a
 * shorter tail; paths in the clone at `root` made relative everywhere (a lint names files by their absolute path),
 * so that neither the model nor a report sees where the clone was.
 */
export function summarizeTestRun(run: RunSummary, root?: string): TestSummary {
  const output = relativize(run.output, root);
  const parsed = parseFailures(output);
  const notRun = notRunOf(parsed);
  return {
    command: run.command,
    passed: run.passed,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    ...failingOf(parsed.failures),
    tail: tailOf(output),
    durationMs: run.durationMs,
    ...(run.limit === undefined ? {} : { limit: run.limit }),
    ...(notRun === undefined ? {} : { notRun }),
  };
}

/** A run's failing tests: their names, and why each failed. */
function failingOf(failures: readonly FailureBlock[]): Pick<TestSummary, "failing" | "failures"> {
  return { failing: failures.map((f) => f.name), ...(failures.length === 0 ? {} : { failures }) };
}

/** The test files a parsed run could not load, if any. */
function notRunOf(parsed: ParsedFailures): NotRun | undefined {
  const files = parsed.failures.flatMap((f) => (f.notRun === true && f.file !== undefined ? [f.file] : []));
  return files.length === 0 ? undefined : { all: parsed.nothingRan === true, files };
}

/** The last REPORT_TAIL_BYTES of an output, cut at a character boundary. */
export function tailOf(output: string): string {
  const tail = new TailBuffer(REPORT_TAIL_BYTES);
  tail.push(Buffer.from(output, "utf8"));
  return tail.text();
}

export interface StepRun {
  readonly step: TestStep;
  readonly run: RunSummary;
}

/**
 * A command run step by step, as one run: the steps' outputs one after the other, passed when every step passed,
 * the exit code of the first that failed; the failing tests read from the outputs of the steps that run tests
 * alone (each step's names kept too), each step's failure lines kept for the verdict. Steps after a timeout did
 * not run.
 */
export function summarizeTestSteps(command: string, stepRuns: readonly StepRun[], root?: string): TestSummary {
  const runs = stepRuns.map(({ step, run }) => ({ step, run: { ...run, output: relativize(run.output, root) } }));
  const parsedRuns = runs.map(({ step, run }) => (step.main ? parseFailures(run.output) : undefined));
  const failures = mergeFailures(parsedRuns.map((parsed) => parsed?.failures ?? []));
  const stepsNotRun = parsedRuns.map((parsed) => (parsed === undefined ? undefined : notRunOf(parsed)));
  const notRunFiles = stepsNotRun.flatMap((n) => n?.files ?? []);
  // No test ran when no step that runs tests got to run one.
  const notRun =
    notRunFiles.length === 0
      ? undefined
      : {
          all: parsedRuns.every((parsed, i) => parsed === undefined || stepsNotRun[i]?.all === true),
          files: notRunFiles,
        };
  const tail = new TailBuffer(REPORT_TAIL_BYTES);
  for (const { run } of runs)
    tail.push(Buffer.from(run.output.endsWith("\n") ? run.output : `${run.output}\n`, "utf8"));
  const failed = runs.find((r) => !r.run.passed)?.run;
  // The limit the tests ran into: a lint stopped by one keeps it on its step, where the report shows it.
  const testRuns = runs.filter((r) => r.step.main);
  const limit = (testRuns.length > 0 ? testRuns : runs).find((r) => r.run.limit !== undefined)?.run.limit;
  return {
    command,
    passed: failed === undefined,
    exitCode: failed === undefined ? 0 : failed.exitCode,
    // A check patchsmith added that ran out of its own time fails as a step; the tests did not time out.
    timedOut: runs.some((r) => r.run.timedOut && r.step.added !== true),
    ...failingOf(failures),
    tail: tail.text(),
    durationMs: runs.reduce((sum, r) => sum + r.run.durationMs, 0),
    ...(limit === undefined ? {} : { limit }),
    ...(notRun === undefined ? {} : { notRun }),
    steps: runs.map(({ step, run }, i) => ({
      command: step.command,
      main: step.main,
      ...(step.main ? { failing: (parsedRuns[i]?.failures ?? []).map((f) => f.name) } : {}),
      ...(stepsNotRun[i] === undefined ? {} : { notRun: stepsNotRun[i] }),
      passed: run.passed,
      exitCode: run.exitCode,
      failureLines: [...failureLines(run.output)],
      outputDigest: outputDigest(run.output),
      ...(step.main || !run.passed ? { tail: tailOf(run.output) } : {}),
      ...(run.limit === undefined ? {} : { limit: run.limit }),
      ...(run.timedOut ? { timedOut: true } : {}),
    })),
  };
}

/**
 * The summary as a report keeps it: every text the run printed redacted (its tail, its failure blocks, its steps'
 * lines and tails), and the first MAX_FAILURES blocks (every name stays): thousands of blocks would help no reader.
 */
export function summaryForReport(summary: TestSummary, redact: (text: string) => string): TestSummary {
  return {
    ...summary,
    tail: redact(summary.tail),
    ...(summary.formatting === undefined ? {} : { formatting: redact(summary.formatting) }),
    ...(summary.failures === undefined
      ? {}
      : { failures: summary.failures.slice(0, MAX_FAILURES).map((f) => ({ ...f, text: redact(f.text) })) }),
    ...(summary.steps === undefined
      ? {}
      : {
          steps: summary.steps.map((s) => ({
            ...s,
            failureLines: s.failureLines.map(redact),
            ...(s.tail === undefined ? {} : { tail: redact(s.tail) }),
          })),
        }),
  };
}
