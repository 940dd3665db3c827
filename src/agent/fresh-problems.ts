/**
 * What a failed step besides the tests (a lint, a type check) reports now that it did not report before the change
 * (pure): a linter's report on a repository with hundreds of old warnings holds the one new error far above the end
 * of its output, which is all the model would otherwise read of it.
 */
import { stripAnsi } from "./failures/lines.js";
import { isFailureLine, sameness, shown } from "./failure-lines.js";

/**
 * A line that starts with a file's path, maybe with a place: alone, the heading ESLint's stylish report and XO
 * write above a file's problems, whose own lines then name only a line and a column; followed by a rule's name,
 * Biome's heading above its `✖` message (a blank line between them).
 */
const PATH = String.raw`^\s*[\w@.~/\\-]*[\w-]\.[A-Za-z0-9]{1,10}(?::\d+(?::\d+)?)?`;
const PATH_ALONE = new RegExp(String.raw`${PATH}\s*$`);
const PATH_FIRST = new RegExp(String.raw`${PATH}\s`);

/**
 * The failure lines of `output` that no line of `before` (the same step's failure lines in the baseline, as
 * failure-lines.ts shows them) matches, in order, each group under the path heading above it, if any (until the
 * next heading, or a blank line after the group's lines). A line that starts with a path and reports a failure
 * (`a.js:3:5: error …`) is a problem of its own, not a heading.
 */
export function freshProblems(output: string, before: readonly string[]): string[] {
  const printed = new Set(before.map(sameness));
  const fresh: string[] = [];
  // The heading of the group being read, whether it was given already, and whether it is the last line read.
  let heading: string | undefined;
  let headingShown = false;
  let justHeaded = false;
  for (const raw of output.split("\n")) {
    const line = stripAnsi(raw).trimEnd();
    if (line.trim() === "") {
      if (!justHeaded) heading = undefined;
      continue;
    }
    const failure = isFailureLine(line);
    justHeaded = PATH_ALONE.test(line) || (!failure && PATH_FIRST.test(line));
    if (justHeaded) {
      heading = line;
      headingShown = false;
      continue;
    }
    if (!failure || printed.has(sameness(shown(line)))) continue;
    if (heading !== undefined && !headingShown) {
      fresh.push(heading);
      headingShown = true;
    }
    fresh.push(line);
  }
  return fresh;
}
