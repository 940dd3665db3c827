/**
 * Vitest: after "Failed Tests N", each failure is ` FAIL  file > suite > name`, the error, the diff and a code
 * frame, closed by a `⎯⎯⎯[1/2]⎯` rule. A file that failed to load is ` FAIL  file` alone. In a workspace of
 * projects the project's name stands before the file (` FAIL   web  file > …`, `|web|` in older versions). Tests
 * that failed with the same error have their headings on consecutive lines above it once.
 */
import { failedToRun, tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const HEADING = /^\s*FAIL\s+(?:\|[^|]*\|\s+|\S+\s{2,}(?=\S))?(\S+?)(?:\s+>\s+(.+?))?\s*$/;
const RULE = /^⎯+(?:\[\d+\/\d+\]⎯*)?\s*$/;

export const vitest: RunnerFormat = {
  runner: "vitest",
  detect: (lines) =>
    lines.some((l) => /^\s*Test Files\s+/.test(l)) && lines.some((l) => /⎯ Failed (Tests|Suites) \d+ ⎯/.test(l)),
  parse(lines) {
    const failures: FailureBlock[] = [];
    const start = lines.findIndex((l) => /⎯ Failed (Tests|Suites) \d+ ⎯/.test(l));
    for (let i = Math.max(0, start); i < lines.length; i++) {
      const heading = HEADING.exec(lines[i]!);
      if (heading?.[1] === undefined) continue;
      // The headings right below this one share its error: it stands after the last of them.
      let body = i + 1;
      while (body < lines.length && HEADING.test(lines[body]!)) body++;
      const block: string[] = [];
      for (let j = body; j < lines.length && !RULE.test(lines[j]!) && !HEADING.test(lines[j]!); j++)
        block.push(lines[j]!);
      const notRun = heading[2] === undefined;
      const name = heading[2] ?? failedToRun(heading[1]);
      const text = tidyBlock([lines[i]!.trim(), ...block]);
      failures.push({ name, text, file: heading[1], ...(notRun ? { notRun } : {}) });
    }
    return failures;
  },
};
