/**
 * `go test`: `--- FAIL: TestName (0.00s)` (subtests indented, `TestName/case`), with the test's log lines — where
 * `t.Errorf` wrote the expected and the actual — indented under it.
 */
import { indentOf, tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const FAILED = /^(\s*)--- FAIL: (\S+)/;

function runLog(lines: readonly string[], before: number, name: string): string[] {
  const start = lines.slice(0, before).findLastIndex((l) => l.trim() === `=== RUN   ${name}`);
  if (start === -1) return [];
  const log: string[] = [];
  for (let j = start + 1; j < before && !/^\s*(===|---) /.test(lines[j]!); j++) log.push(lines[j]!);
  return log;
}

export const goTest: RunnerFormat = {
  runner: "go test",
  detect: (lines) => lines.some((l) => FAILED.test(l)),
  parse(lines) {
    const failures: FailureBlock[] = [];
    for (let i = 0; i < lines.length; i++) {
      const match = FAILED.exec(lines[i]!);
      if (match?.[2] === undefined) continue;
      const indent = match[1]?.length ?? 0;
      const block: string[] = [];
      for (let j = i + 1; j < lines.length; j++) {
        const line = lines[j]!;
        if (line.trim() !== "" && (indentOf(line) <= indent || /^\s*(---|===) /.test(line))) break;
        block.push(line);
      }
      // With -v the log lines come first, between `=== RUN   name` and the verdict.
      if (block.every((l) => l.trim() === "")) block.push(...runLog(lines, i, match[2]));
      failures.push({ name: match[2], text: tidyBlock([lines[i]!.trim(), ...block]) });
    }
    return failures;
  },
};
