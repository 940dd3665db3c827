/**
 * AVA: `✘ [fail]: name` lines name the failures (AVA 4 and later; AVA 3 writes `✖ name`, with a duration when slow);
 * the details follow after a rule, each under the test's name on a line of its own (the file and line, the code,
 * the difference). A test file that throws is `Uncaught exception in test/x.js` with the error under it; when that
 * is Node's report of a module that could not load, none of the file's tests ran, while AVA went on with the others.
 */
import { loadError } from "./load-error.js";
import { failedToRun, tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

/** The rule AVA draws before the failures' details and between them. */
const RULE = /^\s*─+\s*$/;
const UNCAUGHT = /^\s*Uncaught exception in (\S+)\s*$/;
const UNCAUGHT_COUNT = /^\s*\d+ uncaught exceptions?\s*$/;
/** Where an uncaught exception's report ends: AVA's line about the file's process, or a rule. */
const endsUncaughtReport = (line: string): boolean =>
  RULE.test(line) || /^\s*✘ .* exited with a non-zero exit code/.test(line);
/** The first line of a failure's details: the file and line of the assertion. */
const DETAIL_FILE = /^\s*(\S+\.[cm]?[jt]sx?):\d+\s*$/;

/** The test files that threw: those that could not load (none of their tests ran), and those that threw later. */
function uncaught(lines: readonly string[]): FailureBlock[] {
  const failures: FailureBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const file = UNCAUGHT.exec(lines[i]!)?.[1];
    if (file === undefined) continue;
    let end = i + 1;
    while (end < lines.length && !endsUncaughtReport(lines[end]!) && !UNCAUGHT.test(lines[end]!)) end++;
    const report = lines.slice(i + 1, end);
    const text = tidyBlock([lines[i]!.trim(), ...report.filter((l) => l.trim() !== "")]);
    failures.push(
      loadError(report).length > 0
        ? { name: failedToRun(file), text, file, notRun: true }
        : { name: `${file} (uncaught exception)`, text, file },
    );
  }
  return failures;
}

const FAILED = /^\s*✘ \[fail\]: (.+?)(?:\s+Error thrown in test)?\s*$/;
const FAILED_V3 = /^\s*✖ (.+?)(?:\s+Error thrown in test)?(?:\s+\(\d+m?s\))?\s*$/;
/** AVA 3's ✖ lines that are no test: a file that failed to run, a run that timed out. */
const NOT_A_TEST =
  /^(?:Timed out\b|No tests found\b|Couldn’t find any files|Couldn't find any files|.* exited with a non-zero exit code\b|Internal error\b)/;
/** AVA 3's closing count, which tells its ✖ lines from node:test's (that one closes with `ℹ tests N`). */
const SUMMARY_V3 = /^\s*\d+ (?:tests? failed|known failures?|uncaught exceptions?|unhandled rejections?)\s*$/;

/** The lines of the failures' details (after the first rule), among which each failure's title stands alone. */
function detailLines(lines: readonly string[]): string[] {
  const from = lines.findIndex((l) => RULE.test(l));
  return from < 0
    ? []
    : lines
        .slice(from + 1)
        .map((l) => l.trim())
        .filter((l) => l !== "");
}

/**
 * AVA 4+ writes the error's message after a failed test's title on its summary line (`✘ [fail]: title Rejected
 * promise returned by test`, or the assertion's own message), and the title alone above its details: a summary
 * name that is a title followed by more words is that title.
 */
function titleOf(name: string, titles: readonly string[]): string {
  const found = titles.filter((t) => name === t || name.startsWith(`${t} `));
  return found.length === 0 ? name : found.reduce((a, b) => (b.length > a.length ? b : a));
}

function failedNames(lines: readonly string[]): string[] {
  const names = lines.map((l) => FAILED.exec(l)?.[1]).filter((n): n is string => n !== undefined);
  if (names.length > 0) {
    const titles = detailLines(lines);
    return names.map((name) => titleOf(name, titles));
  }
  if (!lines.some((l) => SUMMARY_V3.test(l))) return names;
  return lines.map((l) => FAILED_V3.exec(l)?.[1]).filter((n): n is string => n !== undefined && !NOT_A_TEST.test(n));
}

export const ava: RunnerFormat = {
  runner: "ava",
  detect: (lines) =>
    failedNames(lines).length > 0 || (lines.some((l) => UNCAUGHT.test(l)) && lines.some((l) => UNCAUGHT_COUNT.test(l))),
  parse(lines) {
    const names = failedNames(lines);
    const heading = (line: string): string | undefined =>
      names.find((n) => line.trim() === n || line.trim().endsWith(` › ${n}`));
    const detailsFrom = lines.findIndex((l) => RULE.test(l));
    const failures: FailureBlock[] = [];
    for (const name of names) {
      const at = lines.findIndex((l, i) => i > detailsFrom && detailsFrom >= 0 && heading(l) === name);
      const block: string[] = [];
      if (at !== -1) {
        for (let j = at + 1; j < lines.length && heading(lines[j]!) === undefined && !RULE.test(lines[j]!); j++) {
          block.push(lines[j]!);
        }
      }
      const file = DETAIL_FILE.exec(block.find((l) => l.trim() !== "") ?? "")?.[1];
      failures.push({ name, text: tidyBlock([`✘ ${name}`, ...block]), ...(file === undefined ? {} : { file }) });
    }
    return [...failures, ...uncaught(lines)];
  },
};
