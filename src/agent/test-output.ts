/** A test run's raw result made into what the loop judges and reports (pure). */
import { TailBuffer } from "../core/tail-buffer.js";
import type { RunSummary } from "../ports/sandbox-runner.js";
import { parseFailures } from "./failures/index.js";
import type { TestSummary } from "./types.js";

/** How much of a run's output a report keeps (the model gets less, see verdict.ts). */
export const REPORT_TAIL_BYTES = 64 * 1024;

/**
 * A run of the tests as the loop judges it: the failing tests and why, read from the whole kept output (paths made
 * relative to the clone at `root`), and a shorter tail.
 */
export function summarizeTestRun(run: RunSummary, root?: string): TestSummary {
  const parsed = parseFailures(run.output, root);
  const tail = new TailBuffer(REPORT_TAIL_BYTES);
  tail.push(Buffer.from(run.output, "utf8"));
  return {
    command: run.command,
    passed: run.passed,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    failing: parsed.failures.map((f) => f.name),
    ...(parsed.failures.length === 0 ? {} : { failures: parsed.failures }),
    tail: tail.text(),
    durationMs: run.durationMs,
    ...(run.limit === undefined ? {} : { limit: run.limit }),
  };
}
