/**
 * What a failed step besides the tests (a lint, a type check) reports now that it did not report before the change
 * (pure): a linter's report on a repository with hundreds of old warnings holds the one new error far above the end
 * of its output, which is all the model would otherwise read of it.
 */
import { stripAnsi } from "./failures/lines.js";
import { isFailureLine, sameness, shown } from "./failure-lines.js";

/**
 * A line that is a file's path alone, maybe with a place: the heading ESLint's stylish report and XO write above a
 * file's problems, whose own lines then name only a line and a column.
 */
const PATH_ALONE = /^\s*[\w@.~/\\-]*[\w-]\.[A-Za-z0-9]{1,10}(?::\d+(?::\d+)?)?\s*$/;

/**
 * The failure lines of `output` that no line of `before` (the same step's failure lines in the baseline, as
 * failure-lines.ts shows them) matches, in order, each group under the path heading above it, if any (until a
 * blank line or the next heading).
 */
export function freshProblems(output: string, before: readonly string[]): string[] {
  const printed = new Set(before.map(sameness));
  const fresh: string[] = [];
  let heading: string | undefined;
  let headingShown = false;
  for (const raw of output.split("\n")) {
    const line = stripAnsi(raw).trimEnd();
    if (line.trim() === "" || PATH_ALONE.test(line)) {
      heading = line.trim() === "" ? undefined : line;
      headingShown = false;
      continue;
    }
    if (!isFailureLine(line) || printed.has(sameness(shown(line)))) continue;
    if (heading !== undefined && !headingShown) {
      fresh.push(heading);
      headingShown = true;
    }
    fresh.push(line);
  }
  return fresh;
}
