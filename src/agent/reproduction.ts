/** Red, then green (pure helpers): does the instruction describe a bug, and which changed file is its test? */
import { linesOutsideFences } from "../formats/shared/fences.js";
import { isTestPath } from "./test-paths.js";

const BUG =
  /\b(bug|broken|breaks?|crash(es|ed|ing)?|errors?|exceptions?|fails?|failing|failure|wrong|incorrect|regression|throws?|should(n't| not)?|instead of|doesn't|does not|returns? .* (but|instead)|gives? .* (but|instead)|ignored|ignores|unexpected(ly)?|no longer|(is|are) not (working|handled|considered|respected|honou?red|applied)|(isn't|aren't) (working|handled|considered|respected|honou?red|applied))\b/i;

export const looksLikeBugReport = (instruction: string): boolean => BUG.test(instruction);

/** The path on the reply's last `REPRO: path` line, outside fences. */
export function extractReproPath(reply: string): string | undefined {
  let found: string | undefined;
  for (const line of linesOutsideFences(reply)) {
    const match = /^\s*(?:\*\*)?REPRO(?:\*\*)?:\s*`?([^`\s]+)`?\s*$/.exec(line);
    if (match) found = match[1]!.replace(/^\.\//, "");
  }
  return found;
}

/** The reproducing test among the changed paths: the one the model named, else the only test file changed. */
export function pickReproTest(declared: string | undefined, changed: readonly string[]): string | undefined {
  if (declared !== undefined && changed.includes(declared)) return declared;
  const tests = changed.filter(isTestPath);
  return tests.length >= 1 && tests.length < changed.length ? tests[0] : undefined;
}
