/**
 * The lines of a run's output that say it failed, as two runs are compared (pure): what counts as a failure line,
 * how a line is shown (no colours, no durations) and when two runs' lines are the same failure (no timestamps, no
 * `line:column` places), and which new line says most. The verdict (verdict.ts) weighs them.
 */
import { createHash } from "node:crypto";
import { stripAnsi } from "./failures/lines.js";

/**
 * Lines that report a failure: errors, failed assertions, runner summaries, and a coverage threshold missed in the
 * words lab and Jest use (nyc and c8 say ERROR).
 */
const FAILURE_LINE = /error|fail|✖|✗|not ok|exception|traceback|panic|below threshold|threshold\b.*\bnot met/i;
/** A count of none (`# fail 0`, `0 failed`, `errors: 0`): a summary saying nothing failed reports no failure. */
const NONE_FAILED = /\b0\s+(?:fail\w*|errors?)\b|\b(?:fail\w*|errors?)\s*[:=]?\s*0\b(?![.\d])/gi;
/**
 * Lines that only look like failures: a passing test whose title holds one of the words (`✔ reports an error`),
 * a coverage table's row for a file so named (`yerror.ts | 100 | 50 |`, whose figures change with the code).
 */
const NOT_A_FAILURE = /^\s*(?:[✔✓√]|ok \d)|^[^|]*\|(?:\s*[\d.]+\s*\|){3}/;

/** A line as shown and compared: colours and durations left out (they differ from run to run), spaces collapsed. */
export const shown = (line: string): string =>
  stripAnsi(line)
    .replace(/\d+(?:\.\d+)?\s*(?:ms|s|sec|seconds|m)\b/g, "#")
    .replace(/\s+/g, " ")
    .trim();

/** A date: `2026-02-03`, `2026/02/03`, or day, month and year as loggers write them (`03 02 2026`, `3.2.2026`). */
const DATE = /\b(?:\d{4}([-/.])\d{1,2}\1\d{1,2}|\d{1,2}([ /.-])\d{1,2}\2\d{4})(?!\d)/g;
/**
 * A time of day or a place in a file: `10:41:07.118`, `T10:41:07Z`, `12:5`, `a.js:12:5`, tsc's `(12,5)`, and a time
 * written where a file name cannot hold colons (npm's log file `…T17_40_40_377Z-debug-0.log`).
 */
const TIME_OR_PLACE =
  /(?<![\d.])\d+(?::\d+)+(?:[.,]\d+)?|\(\d+,\d+\)|(?<![\d_])\d{1,2}(?:_\d{2}){2}(?:_\d{1,3})?(?![\d_])/g;

/**
 * What a shown line must share with one of another run to be the same failure: also without timestamps, and
 * without the line numbers of a failure below an edit (a lint error on a line the change moved down is the same).
 */
export const sameness = (line: string): string => line.replace(DATE, "#").replace(TIME_OR_PLACE, "#");

/** A line naming an error and its message (`TypeCheckError: …`, `AssertionError [ERR_X]: …`, `error TS2322: …`). */
const ERROR_WITH_MESSAGE = /\b[A-Za-z]*(?:Error|Exception)\b(?:\s*\[[^\]]*\])?:\s*\S|\berror\s+[A-Z]*\d+:\s*\S/;
/** A banner: a title between rules (`⎯⎯⎯ Unhandled Errors ⎯⎯⎯`, `===== 2 failed =====`). */
const BANNER = /^\s*[⎯─━═=\-_*#~]{3,}/;

/**
 * Of the failure lines a run printed that `before` did not, the one that says most: an error with its message,
 * else the first that is not a banner, else the first.
 */
export function freshLine(lines: readonly string[], before: readonly string[]): string | undefined {
  const printed = new Set(before.map(sameness));
  const fresh = lines.filter((line) => !printed.has(sameness(line)));
  return fresh.find((l) => ERROR_WITH_MESSAGE.test(l)) ?? fresh.find((l) => !BANNER.test(l)) ?? fresh[0];
}

/** Whether a line of an output reports a failure. */
export const isFailureLine = (line: string): boolean =>
  FAILURE_LINE.test(line.replace(NONE_FAILED, "")) && !NOT_A_FAILURE.test(line);

/** The failure lines of an output, as shown (`sameness` tells two runs' lines apart). */
export function failureLines(output: string): Set<string> {
  const lines = new Set<string>();
  for (const line of output.split("\n")) if (isFailureLine(line)) lines.add(shown(line));
  return lines;
}

/**
 * A digest of an output's lines as compared: two runs of a step that print the same fail the same way, whether or
 * not a line of it reads as a failure (a template check listing the files it wants changed).
 */
export function outputDigest(output: string): string {
  const hash = createHash("sha256");
  for (const line of output.split("\n")) hash.update(`${sameness(shown(line))}\n`);
  return hash.digest("hex");
}
