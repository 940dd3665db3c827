/**
 * unittest: each failure is a `=====` rule, `FAIL: test_y (tests.test_a.TestX.test_y)` (3.11+; older Pythons put
 * only the class in the parentheses), a `-----` rule and the traceback, up to the next rule.
 */
import { tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const HEADING = /^(?:FAIL|ERROR): (\S+) \(([^)\s]+)\)/;
const RULE = /^(?:={20,}|-{20,})$/;

export const unittest: RunnerFormat = {
  runner: "unittest",
  detect: (lines) => lines.some((l) => HEADING.test(l)) && lines.some((l) => /^Ran \d+ tests? in /.test(l)),
  parse(lines) {
    const failures: FailureBlock[] = [];
    for (let i = 0; i < lines.length; i++) {
      const match = HEADING.exec(lines[i]!);
      if (match?.[1] === undefined || match[2] === undefined) continue;
      const name = match[2].endsWith(`.${match[1]}`) ? match[2] : `${match[2]}.${match[1]}`;
      let j = i + 1;
      if (RULE.test(lines[j] ?? "")) j++;
      const block: string[] = [];
      for (; j < lines.length && !RULE.test(lines[j]!); j++) block.push(lines[j]!);
      failures.push({ name, text: tidyBlock([lines[i]!, ...block]) });
    }
    return failures;
  },
};
