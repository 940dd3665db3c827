/**
 * Jest: every failure gets a `● suite › name` heading, then the matcher's message, the code frame and the stack,
 * up to the next heading, the next test file's result (`PASS file`, `FAIL file`) or the summary. "Test suite failed
 * to run" is a file that could not load: it is reported under the file's name.
 */
import { failedToRun, tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const HEADING = /^\s*● (.+?)\s*$/;
const END =
  /^(Test Suites:|Tests:|Snapshots:|Time:|Ran all test suites|Snapshot Summary|(?:PASS|FAIL)\s+\S| › \d+ snapshots? )/;

export const jest: RunnerFormat = {
  runner: "jest",
  detect: (lines) => lines.some((l) => /^Test Suites: /.test(l)) && lines.some((l) => HEADING.test(l)),
  parse(lines) {
    const failures: FailureBlock[] = [];
    let file: string | undefined;
    for (let i = 0; i < lines.length; i++) {
      const suite = /^FAIL\s+(\S+)/.exec(lines[i]!);
      if (suite?.[1] !== undefined) file = suite[1];
      const heading = HEADING.exec(lines[i]!);
      if (heading?.[1] === undefined || heading[1] === "Console") continue;
      const block: string[] = [];
      for (let j = i + 1; j < lines.length && !HEADING.test(lines[j]!) && !END.test(lines[j]!); j++)
        block.push(lines[j]!);
      const notRun = heading[1] === "Test suite failed to run" && file !== undefined;
      const name = notRun && file !== undefined ? failedToRun(file) : heading[1];
      const text = tidyBlock([`● ${heading[1]}`, ...block]);
      failures.push({ name, text, ...(file === undefined ? {} : { file }), ...(notRun ? { notRun } : {}) });
    }
    return failures;
  },
};
