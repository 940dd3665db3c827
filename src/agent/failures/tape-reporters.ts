/**
 * The reporters tape's users pipe its TAP through (`tape test/*.js | tap-spec`), which print no TAP of their own:
 * tap-spec (`✔`/`✖` under each test's name, the YAML diagnostics under a rule of dashes; version 5 prints the
 * stack unindented) and tap-arc (`✓`/`✗ [n]`, then `Expected … but got …` and `At: …` indented deeper). Both close
 * with a list of the failures and `total:`/`passing:`/`failing:` counts, which tell them from node:test's and AVA's
 * `✖` lines. Assertions are named as tap.ts names tape's own TAP: the test's name, then the message, with its place
 * among its namesakes when the message repeats.
 */
import { indentOf, tidyBlock, withPlaces } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const RESULT = /^(\s*)([✔✓✖✗])\s+(?:\[\d+\]\s+)?(.*?)\s*$/;
const FAILED = new Set(["✖", "✗"]);
/** Where the listing ends: the list of failures (names only), or the counts when there is none. */
const CLOSING = /^\s*Failed tests:/i;
const TOTAL = /^\s*total:\s+\d+\s*$/;
const FAILING = /^\s*failing:\s+\d+\s*$/;
/** tap-spec's rule under a failed assertion. */
const RULE = /^\s*-{3,}\s*$/;

interface Assertion {
  readonly mark: string;
  readonly failed: boolean;
  readonly message: string;
  readonly test: string | undefined;
  /** The lines under a failed one that say why. */
  readonly details: readonly string[];
}

/**
 * A failed assertion's details run to the next result, or to a line no deeper than its mark after a blank line
 * (the next test's name). tap-spec 5 prints the stack at the left margin right under `stack: |-`: lines that follow
 * a detail line without a blank one are details too.
 */
function detailsOf(lines: readonly string[], from: number, indent: number): number {
  let i = from;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (RESULT.test(line)) break;
    if (line.trim() !== "" && indentOf(line) <= indent && lines[i - 1]!.trim() === "") break;
  }
  return i;
}

function assertions(lines: readonly string[]): Assertion[] {
  const found: Assertion[] = [];
  // The lines that may name a test, latest last: a test's name stands alone after a blank line, less indented than
  // its assertions. What a test printed (tap-spec indents it as the assertions) names nothing: a name holding a
  // time or a count would change from run to run.
  const names: { readonly text: string; readonly indent: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const match = RESULT.exec(line);
    if (match === null) {
      if (line.trim() !== "" && (i === 0 || lines[i - 1]!.trim() === "")) {
        names.push({ text: line.trim(), indent: indentOf(line) });
      }
      continue;
    }
    const indent = match[1]!.length;
    const test = names.findLast((n) => n.indent < indent)?.text;
    const mark = match[2]!;
    const failed = FAILED.has(mark);
    const end = failed ? detailsOf(lines, i + 1, indent) : i + 1;
    const details = lines.slice(i + 1, end).filter((l) => !RULE.test(l));
    found.push({ mark, failed, message: match[3]!, test, details });
    i = end - 1;
  }
  return found;
}

/** The lines before the closing list of failures (which repeats their names without saying why). */
function listing(lines: readonly string[]): readonly string[] {
  const closing = lines.findIndex((l) => CLOSING.test(l));
  const end = closing >= 0 ? closing : lines.findIndex((l) => TOTAL.test(l));
  return end >= 0 ? lines.slice(0, end) : lines;
}

export const tapeReporters: RunnerFormat = {
  runner: "tape (tap-spec, tap-arc)",
  detect: (lines) =>
    lines.some((l) => TOTAL.test(l)) &&
    lines.some((l) => FAILING.test(l)) &&
    lines.some((l) => FAILED.has(RESULT.exec(l)?.[2] ?? "")),
  parse(lines) {
    const all = assertions(listing(lines));
    const names = withPlaces(
      all.map((a) => (a.test === undefined || a.test === a.message ? a.message : `${a.test} › ${a.message}`)),
    );
    return all.flatMap((a, k): FailureBlock[] =>
      a.failed ? [{ name: names[k]!, text: tidyBlock([`${a.mark} ${a.message}`, ...a.details]) }] : [],
    );
  },
};
