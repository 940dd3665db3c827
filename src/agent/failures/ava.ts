/**
 * AVA: `✘ [fail]: name` lines name the failures; the details follow after a rule, each under the test's name on a
 * line of its own (the file and line, the code, the difference).
 */
import { tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const FAILED = /^\s*✘ \[fail\]: (.+?)(?:\s+Error thrown in test)?\s*$/;

export const ava: RunnerFormat = {
  runner: "ava",
  detect: (lines) => lines.some((l) => FAILED.test(l)),
  parse(lines) {
    const names = lines.map((l) => FAILED.exec(l)?.[1]).filter((n): n is string => n !== undefined);
    const heading = (line: string): string | undefined =>
      names.find((n) => line.trim() === n || line.trim().endsWith(` › ${n}`));
    const detailsFrom = lines.findIndex((l) => /^\s*─+\s*$/.test(l));
    const failures: FailureBlock[] = [];
    for (const name of names) {
      const at = lines.findIndex((l, i) => i > detailsFrom && detailsFrom >= 0 && heading(l) === name);
      const block: string[] = [];
      if (at !== -1) {
        for (
          let j = at + 1;
          j < lines.length && heading(lines[j]!) === undefined && !/^\s*─+\s*$/.test(lines[j]!);
          j++
        ) {
          block.push(lines[j]!);
        }
      }
      failures.push({ name, text: tidyBlock([`✘ ${name}`, ...block]) });
    }
    return failures;
  },
};
