/**
 * @hapi/lab's console reporter: after `Failed tests:`, each failure is `  1) title:` on one line (the titles of its
 * `describe`s and its own joined with spaces), then the assertion and its stack, up to the next
 * numbered failure or the `N of M tests failed` count, which tells lab's list from mocha's.
 */
import { tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const NUMBERED = /^\s{2}(\d+)\) (.+):\s*$/;
const COUNT = /^\s*\d+ of \d+ tests? failed\s*$/;
/** The frame naming where in which file the test failed: `at test/calc.js:16:45` (or `at fn (test/calc.js:…)`). */
const FRAME = /^\s*at (?:.*\()?([^\s()]+?):\d+:\d+\)?\s*$/;

/** The test file: the outermost frame in the repository (lab's own frames call the test; the code it calls is above). */
function fileOf(block: readonly string[]): string | undefined {
  let file: string | undefined;
  for (const line of block) {
    const path = FRAME.exec(line)?.[1];
    if (path !== undefined && !/node_modules|^node:|^internal\//.test(path)) file = path;
  }
  return file;
}

export const lab: RunnerFormat = {
  runner: "lab",
  detect: (lines) => lines.some((l) => COUNT.test(l)) && lines.some((l) => l.trim() === "Failed tests:"),
  parse(lines) {
    const failures: FailureBlock[] = [];
    const start = lines.findIndex((l) => l.trim() === "Failed tests:");
    for (let i = start + 1; i < lines.length; i++) {
      const match = NUMBERED.exec(lines[i]!);
      if (match === null) continue;
      const name = match[2]!;
      const block: string[] = [];
      for (let j = i + 1; j < lines.length && !NUMBERED.test(lines[j]!) && !COUNT.test(lines[j]!); j++) {
        block.push(lines[j]!);
      }
      const file = fileOf(block);
      failures.push({
        name,
        text: tidyBlock([`${match[1]!}) ${name}`, ...block]),
        ...(file === undefined ? {} : { file }),
      });
    }
    return failures;
  },
};
