/**
 * @hapi/lab's console reporter: after `Failed tests:`, each failure is `  1) title:` on one line (the titles of its
 * `describe`s and its own joined with spaces), then the assertion and its stack, up to the next
 * numbered failure or the `N of M tests failed` count, which tells lab's list from mocha's.
 */
import { repositoryFrame, tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const NUMBERED = /^\s{2}(\d+)\) (.+):\s*$/;
const COUNT = /^\s*\d+ of \d+ tests? failed\s*$/;

/**
 * The test's own frame: the outermost one in the repository (lab's frames call the test; the code it calls is
 * above, a stack overflow's hundreds of frames included).
 */
function testFrame(block: readonly string[]): { line: string; file: string } | undefined {
  let found: { line: string; file: string } | undefined;
  for (const line of block) {
    const file = repositoryFrame(line);
    if (file !== undefined) found = { line: line.trim(), file };
  }
  return found;
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
      const frame = testFrame(block);
      let text = tidyBlock([`${match[1]!}) ${name}`, ...block]);
      // The first frames kept are the code's; the test's line says where to read what it expects.
      if (frame !== undefined && !text.includes(frame.line)) text += `\n${frame.line}`;
      failures.push({ name, text, ...(frame === undefined ? {} : { file: frame.file }) });
    }
    return failures;
  },
};
