/**
 * Mocha's spec reporter: after "N failing", each failure is `  1) suite` with the rest of its title on the lines
 * below (the last ending in `:`), then the error, the diff and the stack, up to the next numbered failure.
 */
import { tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const NUMBERED = /^\s{2}(\d+)\) (.+?)\s*$/;

export const mocha: RunnerFormat = {
  runner: "mocha",
  detect: (lines) => lines.some((l) => /^\s+\d+ failing$/.test(l)),
  parse(lines) {
    const failures: FailureBlock[] = [];
    const start = lines.findIndex((l) => /^\s+\d+ failing$/.test(l));
    for (let i = start + 1; i < lines.length; i++) {
      const first = NUMBERED.exec(lines[i]!);
      if (first?.[2] === undefined) continue;
      const title = [first[2]];
      let j = i + 1;
      // The title continues on deeper lines until one ends with ":" (a one-line title ends with ":" itself).
      if (!first[2].endsWith(":")) {
        for (; j < lines.length && lines[j]!.trim() !== ""; j++) {
          title.push(lines[j]!.trim());
          if (lines[j]!.trim().endsWith(":")) {
            j++;
            break;
          }
        }
      }
      const block: string[] = [];
      for (; j < lines.length && !NUMBERED.test(lines[j]!); j++) block.push(lines[j]!);
      const name = title.join(" › ").replace(/:$/, "");
      failures.push({ name, text: tidyBlock([`${first[1] ?? ""}) ${name}`, ...block]) });
    }
    return failures;
  },
};
