/**
 * The checks patchsmith adds after `npm test` (the project's type check, its lint: test-command.ts) stand in for
 * the CI that runs them. One that fails on the untouched code is not enforced there (or cannot run here): judged,
 * it would refuse a right fix for a warning nobody acts on. It is left out for the rest of the job, from the
 * baseline too, and the report says so (pure). Unless the request is about what it checks ("fix the lint errors",
 * "the mypy findings"): then its failures are the request's specification.
 */
import { THEN, type CheckKind, type TestCommand } from "./test-command.js";
import type { TestSummary } from "./types.js";

export interface EnforcedChecks {
  readonly test: TestCommand;
  readonly baseline: TestSummary;
  /** The added checks left out, by command. */
  readonly dropped: readonly string[];
}

/** Words of a request about lint findings, and about type errors. */
const ASKS: Readonly<Record<CheckKind, RegExp>> = {
  // Black only beside a word about code style: "black" alone is more often a colour.
  lint: new RegExp(
    String.raw`\b(?:lint\w*|eslint|oxlint|biome|stylelint|flake8|ruff|pyflakes|pycodestyle|pep ?8|isort|` +
      String.raw`black (?:format\w*|check\w*|style))\b`,
    "i",
  ),
  types: /\b(?:type[- ]?check\w*|type errors?|typing errors?|mypy|tsc|typescript errors?|pyright)\b/i,
};

/** What a request asks to be checked: the kinds of added checks it is about. */
export const checksAskedFor = (request: string): ReadonlySet<CheckKind> =>
  new Set((Object.keys(ASKS) as CheckKind[]).filter((kind) => ASKS[kind].test(request)));

/**
 * The test command and its baseline without the added checks that failed in it, but those of a kind the request
 * `asks` about; undefined when none is left out.
 */
export function withoutUnenforcedChecks(
  test: TestCommand,
  baseline: TestSummary,
  asks: ReadonlySet<CheckKind> = new Set(),
): EnforcedChecks | undefined {
  const failed = (command: string): boolean =>
    baseline.steps?.some((step) => step.command === command && !step.passed) === true;
  const dropped = (test.steps ?? [])
    .filter((step) => step.added === true && failed(step.command))
    .filter((step) => step.checks === undefined || !asks.has(step.checks))
    .map((step) => step.command);
  if (dropped.length === 0) return undefined;
  const kept = (command: string): boolean => !dropped.includes(command);
  const steps = (test.steps ?? []).filter((step) => kept(step.command));
  const baselineSteps = (baseline.steps ?? []).filter((step) => kept(step.command));
  const firstFailed = baselineSteps.find((step) => !step.passed);
  const command = test.command
    .split(THEN)
    .filter((part, i) => i === 0 || kept(part))
    .join(THEN);
  return {
    test: { ...test, command, steps },
    baseline: {
      ...baseline,
      command,
      tail: withoutEndingOutputs(baseline, dropped),
      steps: baselineSteps,
      passed: firstFailed === undefined && !baseline.timedOut,
      exitCode: firstFailed === undefined ? (baseline.timedOut ? baseline.exitCode : 0) : firstFailed.exitCode,
    },
    dropped,
  };
}

/** What the report says of the checks left out. */
export function droppedNote(dropped: readonly string[]): string {
  const which = dropped.map((command) => `\`${command}\``).join(" and ");
  const [them, they] = dropped.length === 1 ? ["it", "it was"] : ["them", "they were"];
  return `${which} failed before any change, so the project does not enforce ${them} here: ${they} not run again.`;
}

/**
 * The run's tail without the output of the dropped checks, which ran last (added after the tests) and end it: the
 * model would read their old complaints as the baseline's. Each step's own tail is the end of its output, so an
 * output longer than that leaves its beginning in the run's tail; one not found at the very end stops the cutting.
 */
function withoutEndingOutputs(baseline: TestSummary, dropped: readonly string[]): string {
  let tail = baseline.tail;
  for (const step of [...(baseline.steps ?? [])].reverse()) {
    if (!dropped.includes(step.command)) break;
    const output = (step.tail ?? "").replace(/\n*$/, "\n");
    const at = tail.lastIndexOf(output);
    if (output.trim() === "" || at < 0 || at + output.length !== tail.length) break;
    tail = tail.slice(0, at);
  }
  return tail;
}
