/**
 * What the model reads of a test run (pure): a formatter's changes, the end of each failed step besides the tests,
 * the runner's failure blocks, then the end of the output, within a byte budget.
 */
import { DIRECTIVE } from "./failures/tap.js";
import type { FailureBlock } from "./failures/types.js";
import { stepFailure } from "./render-tests.js";
import { testNames } from "./test-names.js";
import { freshProblems } from "./fresh-problems.js";
import type { TestStepRun, TestSummary } from "./types.js";
import { failedSideSteps, testSteps, testStepsPassed } from "./verdict.js";

export const MAX_REFLECTED_LINES = 60;
export const MAX_REFLECTED_BYTES = 4096;

/**
 * A line of a dot reporter's progress marks: one mark a test, `x` (lab) or `!` (Mocha) for a failure; Mocha's `dot`
 * writes U+2024 (one dot leader) for a pass and `,` for a pending test.
 */
const PROGRESS = /^\s*[.\u2024xX·•!,]{8,}\s*$/;

/**
 * A line that says a test or a test file passed: Mocha's and node:test's `✔ title`, Vitest's `✓`, Jest's and
 * Vitest's `PASS file`, TAP's `ok 3 - title` (not one skipped: that one says something), pytest's `PASSED`.
 */
const PASSED_LINE = /^\s*(?:[✔✓√]\s|ok \d+\b)|^\s*PASS\s+\S|\sPASSED(?:\s|$)/;
const passed = (line: string): boolean => PASSED_LINE.test(line) && !DIRECTIVE.test(line);
const progress = (line: string): boolean => PROGRESS.test(line);

/** Runs shorter than this stay as they are: a few lines say more than a count. */
const SHORTEST_RUN = 4;

/**
 * The lines with each run of progress-mark lines, and each run of lines about passing tests, as one line saying
 * how many: joi's 1,800 tests are 36 lines of dots, and a suite's passing tests hundreds of lines, that would push
 * the lines before them out of the tail; the runner's failures and its summary say what they say.
 */
function withoutRuns(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const kind = progress(lines[i]!) ? progress : passed(lines[i]!) ? passed : undefined;
    let j = i;
    while (kind !== undefined && j + 1 < lines.length && kind(lines[j + 1]!)) j++;
    const run = j - i + 1;
    if (kind === progress && run > 1) out.push(`(${String(run)} lines of progress marks)`);
    else if (kind === passed && run >= SHORTEST_RUN) out.push(`(${String(run)} lines of passing tests)`);
    else out.push(...lines.slice(i, j + 1));
    i = j;
  }
  return out;
}

/**
 * The end of a test output, for the model: the last `maxLines` lines and at most `maxBytes` UTF-8 bytes (failure
 * summaries live at the bottom), with a note saying how much was cut so the model does not assume it saw it all.
 */
export function tailForModel(output: string, maxLines = MAX_REFLECTED_LINES, maxBytes = MAX_REFLECTED_BYTES): string {
  const lines = withoutRuns(output.replace(/\r\n/g, "\n").replace(/\n+$/, "").split("\n"));
  let kept = lines.slice(-maxLines);
  const encoder = new TextEncoder();
  let bytes = kept.reduce((sum, line) => sum + encoder.encode(line).length + 1, 0);
  while (kept.length > 1 && bytes > maxBytes) {
    bytes -= encoder.encode(kept[0]).length + 1;
    kept = kept.slice(1);
  }
  let text = kept.join("\n");
  // One enormous line (a minified stack, a JSON dump) still has to fit: keep its end.
  if (encoder.encode(text).length > maxBytes) text = text.slice(-Math.floor(maxBytes / 2));
  const cut = lines.length - kept.length;
  return cut > 0 ? `… (${cut} earlier line${cut === 1 ? "" : "s"} not shown)\n${text}` : text;
}

const byteLength = (text: string): number => Buffer.byteLength(text, "utf8");

/**
 * What the model reads of a test run: what a formatter whose check failed would change, the end of the output of
 * each step besides the tests that failed (a lint, a build; led by what it reports that it did not in `baseline`,
 * when the end leaves that out), then why each test failed (the runner's own failure blocks, parsed), then the end
 * of the output, together within `maxBytes`. The blocks get up to three quarters of what the steps left; failures
 * beyond that are named. An output no parser knows is the tail alone.
 */
export function testRunForModel(
  summary: TestSummary,
  baseline: TestSummary | null = null,
  maxBytes = MAX_REFLECTED_BYTES,
): string {
  if (summary.formatting === undefined) return runForModel(summary, maxBytes, baseline);
  const formatting = `What the formatter whose check failed would change (write the files so):\n${summary.formatting}`;
  const rest = runForModel(summary, Math.max(1024, maxBytes - byteLength(formatting) - 2), baseline);
  return `${formatting}\n\n${rest}`;
}

/** `testRunForModel` without the formatter's changes. */
function runForModel(summary: TestSummary, maxBytes: number, baseline: TestSummary | null): string {
  const sides = failedSideSteps(summary).filter((step) => (step.tail ?? "").trim() !== "");
  if (sides.length === 0) return testsForModel(summary, maxBytes);
  // The steps' own output says why they failed; with the tests passing it is all there is to say.
  const share = Math.floor((maxBytes * (testStepsPassed(summary) ? 0.75 : 0.5)) / sides.length);
  const shown = sides.map((step) =>
    sideStepForModel(
      step,
      share,
      baseline?.steps?.find((b) => b.command === step.command),
    ),
  );
  const head = shown.join("\n\n");
  // The whole run's tail holds the side steps' output too, shown above: the tests' steps' own is what is left.
  const own = testSteps(summary).map((step) => step.tail ?? "");
  const tests = own.some((tail) => tail.trim() !== "") ? { ...summary, tail: own.join("\n") } : summary;
  const rest = testsForModel(tests, Math.max(512, maxBytes - byteLength(head) - 40));
  return `${head}\n\nThe tests' run:\n${rest}`;
}

/** The share of a failed step's output the lines it did not print before may take, at most. */
const FRESH_SHARE = 0.5;

/**
 * A failed side step for the model, within `share` bytes: why it failed and the end of its output, led by the
 * problems it reports that it did not before the change when the end of its output leaves one of them out.
 */
function sideStepForModel(step: TestStepRun, share: number, before: TestStepRun | undefined): string {
  const why = stepFailure(step);
  const tail = step.tail!;
  const heading = `\`${step.command}\` failed (${why}); the end of its output:`;
  const end = (bytes: number): string => tailForModel(tail, MAX_REFLECTED_LINES, bytes);
  const whole = end(share - byteLength(heading) - 2);
  const fresh = before === undefined ? [] : freshProblems(tail, before.failureLines);
  if (fresh.every((line) => whole.includes(line))) return `${heading}\n${whole}`;
  const lead = `\`${step.command}\` failed (${why}); what it reports that it did not before your change:`;
  const kept = headForModel(fresh, Math.floor(share * FRESH_SHARE));
  const rest = share - byteLength(lead) - byteLength(kept) - 40;
  return `${lead}\n${kept}\n\nThe end of its output:\n${end(Math.max(256, rest))}`;
}

/** The first of `lines` within `maxBytes` (the first error is often the cause of those after it), and how many not. */
function headForModel(lines: readonly string[], maxBytes: number): string {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines.slice(0, MAX_REFLECTED_LINES)) {
    bytes += byteLength(line) + 1;
    if (bytes > maxBytes && kept.length > 0) break;
    kept.push(line);
  }
  const cut = lines.length - kept.length;
  return cut > 0 ? `${kept.join("\n")}\n… (${cut} more line${cut === 1 ? "" : "s"} not shown)` : kept.join("\n");
}

interface ShownBlock {
  readonly names: readonly string[];
  readonly text: string;
}

/**
 * Failure blocks in order, those next to each other that say the same below their first line (a parametrised test
 * failing alike for several inputs) as one: their first lines, then what they share once.
 */
function sharingErrors(blocks: readonly FailureBlock[]): ShownBlock[] {
  const shown: { names: string[]; heads: string[]; body: string }[] = [];
  for (const block of blocks) {
    const cut = block.text.indexOf("\n");
    const head = cut < 0 ? block.text : block.text.slice(0, cut);
    const body = cut < 0 ? "" : block.text.slice(cut);
    const last = shown.at(-1);
    if (last !== undefined && body.trim() !== "" && last.body === body) {
      last.names.push(block.name);
      last.heads.push(head);
    } else shown.push({ names: [block.name], heads: [head], body });
  }
  return shown.map((s) => ({ names: s.names, text: `${s.heads.join("\n")}${s.body}` }));
}

/** The tests' part of a run for the model: their failure blocks, then the end of the output. */
function testsForModel(summary: TestSummary, maxBytes: number): string {
  const blocks = sharingErrors(summary.failures ?? []);
  if (blocks.length === 0) return tailForModel(summary.tail, MAX_REFLECTED_LINES, maxBytes);
  let budget = Math.floor(maxBytes * 0.75);
  const shown: string[] = [];
  for (const block of blocks) {
    const size = byteLength(block.text) + 2;
    if (size > budget) {
      if (shown.length === 0) shown.push(`${block.text.slice(0, Math.max(0, budget - 40))}…`);
      break;
    }
    shown.push(block.text);
    budget -= size;
  }
  const rest = blocks.slice(shown.length).flatMap((b) => b.names);
  const more = rest.length === 0 ? "" : `\n\nAlso failing (not shown): ${testNames(rest, 20)}`;
  const head = `${shown.join("\n\n")}${more}`;
  const left = Math.max(256, maxBytes - byteLength(head) - 40);
  return `${head}\n\nThe end of the output:\n${tailForModel(summary.tail, MAX_REFLECTED_LINES, left)}`;
}
