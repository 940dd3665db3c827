/**
 * uvu: each failure opens with a `FAIL` line naming the test in quotes, after its suite's name when it has one
 * (`FAIL  parse  "throws on empty"`); the assertion, the difference and the stack follow, up to the next failure or
 * the closing `Total:` count, which tells uvu's output from other runners' FAIL lines.
 */
import { tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const FAILED = /^\s*FAIL\s+(?:(\S.*?)\s+)?"(.+)"\s*$/;
const TOTAL = /^\s*Total:\s+\d+\s*$/;

export const uvu: RunnerFormat = {
  runner: "uvu",
  detect: (lines) => lines.some((l) => TOTAL.test(l)) && lines.some((l) => FAILED.test(l)),
  parse(lines) {
    const failures: FailureBlock[] = [];
    for (let i = 0; i < lines.length; i++) {
      const match = FAILED.exec(lines[i]!);
      if (match === null) continue;
      const name = match[1] === undefined ? match[2]! : `${match[1]} › ${match[2]!}`;
      const block: string[] = [];
      for (let j = i + 1; j < lines.length && !FAILED.test(lines[j]!) && !TOTAL.test(lines[j]!); j++) {
        block.push(lines[j]!);
      }
      failures.push({ name, text: tidyBlock([`FAIL ${name}`, ...block]) });
    }
    return failures;
  },
};
