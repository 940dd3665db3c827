/**
 * unittest: each failure is a `=====` rule, `FAIL: test_y (tests.test_a.TestX.test_y)` (3.11+; older Pythons put
 * only the class in the parentheses), the first line of the test's docstring if it has one, a `-----` rule and the
 * traceback, up to the next rule. A test module that could not be imported is an ERROR of
 * `unittest.loader._FailedTest`: none of its tests ran, while the other modules' did. Each failure's file is the
 * first test file in its traceback. A failing `subTest` is named with its message and parameters after the test's
 * name, as unittest heads it (`[pairs] (n=1)`): one subtest the change breaks is not hidden by another of the same
 * test that failed before.
 */
import { isTestPath } from "../test-paths.js";
import { failedToRun, tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

/** The test's name, its id, and a subtest's message and parameters (`[msg] (i=1)`), if any. */
const HEADING = /^(?:FAIL|ERROR): (\S+) \(([^)\s]+)\)(?: (.+?))?\s*$/;
const RULE = /^(?:={20,}|-{20,})$/;
/** A traceback frame in the repository (made relative to it): `File "tests/test_a.py", line 6, in test_y`. */
const FRAME = /^\s*File "([^"/][^"]*)", line \d+, in /;

export const unittest: RunnerFormat = {
  runner: "unittest",
  detect: (lines) => lines.some((l) => HEADING.test(l)) && lines.some((l) => /^Ran \d+ tests? in /.test(l)),
  parse(lines) {
    const failures: FailureBlock[] = [];
    for (let i = 0; i < lines.length; i++) {
      const match = HEADING.exec(lines[i]!);
      if (match?.[1] === undefined || match[2] === undefined) continue;
      const test = match[2].endsWith(`.${match[1]}`) ? match[2] : `${match[2]}.${match[1]}`;
      const name = match[3] === undefined ? test : `${test} ${match[3]}`;
      // The test's docstring (its first line), when it has one, stands between the heading and the rule.
      const block: string[] = [];
      let j = i + 1;
      if (j < lines.length && !RULE.test(lines[j]!)) block.push(lines[j++]!);
      if (RULE.test(lines[j] ?? "")) j++;
      for (; j < lines.length && !RULE.test(lines[j]!); j++) block.push(lines[j]!);
      const file = block.map((l) => FRAME.exec(l)?.[1]).find((f) => f !== undefined && isTestPath(f));
      const text = tidyBlock([lines[i]!, ...block]);
      if (match[2].startsWith("unittest.loader._FailedTest") && file !== undefined)
        failures.push({ name: failedToRun(file), text, file, notRun: true });
      else failures.push({ name, text, ...(file === undefined ? {} : { file }) });
    }
    return failures;
  },
};
