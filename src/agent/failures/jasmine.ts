/**
 * Jasmine's console reporter: after `Failures:`, each failure is `N) full name` (its suites' and its own
 * descriptions joined by spaces, as Jasmine names a spec), then a `Message:` and a `Stack:` for each expectation that
 * failed; a suite whose `beforeAll`/`afterAll` threw is `Suite error: name`. The closing count (`9 specs, 8
 * failures`) tells Jasmine's output from Mocha's numbered failures. The spec's file is the first frame in the
 * repository (Jasmine's own frames read `at <Jasmine>`).
 */
import { repositoryFrame, tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const SUMMARY = /^\d+ specs?, \d+ failures?\b/;
const FAILED = /^(?:\d+\) |Suite error: )(.+?)\s*$/;
/** Where the list of failures ends, when no further failure does: the pending specs, or the count. */
const ENDS = /^(?:Pending:|\d+ specs?, )/;

export const jasmine: RunnerFormat = {
  runner: "jasmine",
  detect: (lines) => lines.some((l) => SUMMARY.test(l)) && lines.some((l) => /^Failures:\s*$/.test(l)),
  parse(lines) {
    const failures: FailureBlock[] = [];
    const from = lines.findIndex((l) => /^Failures:\s*$/.test(l));
    for (let i = from + 1; i < lines.length && !ENDS.test(lines[i]!); i++) {
      const name = FAILED.exec(lines[i]!)?.[1];
      if (name === undefined) continue;
      let end = i + 1;
      while (end < lines.length && !FAILED.test(lines[end]!) && !ENDS.test(lines[end]!)) end++;
      const block = lines.slice(i + 1, end);
      const file = block.map(repositoryFrame).find((f) => f !== undefined);
      failures.push({ name, text: tidyBlock([lines[i]!, ...block]), ...(file === undefined ? {} : { file }) });
      i = end - 1;
    }
    return failures;
  },
};
