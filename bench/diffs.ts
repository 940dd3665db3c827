/**
 * The unified diffs the speed section feeds to every tool, built by hand from known changes (so the expected result
 * is known without trusting any diff library), git style, 3 lines of context, correct line numbers.
 */
import { createRng, generateLines, joinLines, statementLine } from "./generate.js";

/** One change: drop `remove` lines starting at 0-based line `at`, insert `add` there. */
export interface Change {
  readonly at: number;
  readonly remove: number;
  readonly add: readonly string[];
}

export interface PatchScenario {
  readonly id: "single-edit-100k" | "fifty-hunks-10k" | "failing-lookup-100k";
  readonly title: string;
  /** Path relative to the tree's root, as written in the diff. */
  readonly path: string;
  readonly before: string;
  /** The exact expected bytes, or undefined when every tool must refuse. */
  readonly after: string | undefined;
  readonly diff: string;
}

const CONTEXT = 3;
export const BENCH_PATH = "src/generated/big.ts";

/** Renders the changes (sorted, far enough apart not to share context) as one file's git-style unified diff. */
export function buildUnifiedDiff(
  path: string,
  lines: readonly string[],
  changes: readonly Change[],
): { diff: string; after: string } {
  const out = [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`];
  const after: string[] = [];
  let copied = 0;
  let delta = 0;
  let previousEnd = -1;
  for (const change of changes) {
    const from = Math.max(0, change.at - CONTEXT);
    const to = Math.min(lines.length, change.at + change.remove + CONTEXT);
    // Hunks sharing context would have to be merged; the generators never ask for that, so this is a bug.
    if (from <= previousEnd) throw new Error(`changes at ${change.at} overlap the previous hunk`);
    previousEnd = to;
    const before = lines.slice(from, change.at);
    const removed = lines.slice(change.at, change.at + change.remove);
    const trailing = lines.slice(change.at + change.remove, to);
    const oldCount = before.length + removed.length + trailing.length;
    const newCount = before.length + change.add.length + trailing.length;
    out.push(`@@ -${from + 1},${oldCount} +${from + 1 + delta},${newCount} @@`);
    for (const line of before) out.push(` ${line}`);
    for (const line of removed) out.push(`-${line}`);
    for (const line of change.add) out.push(`+${line}`);
    for (const line of trailing) out.push(` ${line}`);
    after.push(...lines.slice(copied, change.at), ...change.add);
    copied = change.at + change.remove;
    delta += change.add.length - change.remove;
  }
  after.push(...lines.slice(copied));
  return { diff: out.join("\n") + "\n", after: joinLines(after) };
}

/** The same hunks without line numbers (`@@ @@`, as models often write them): no hint, the whole file is searched. */
export const withoutLineNumbers = (diff: string): string =>
  diff.replace(/^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/gm, "@@ @@");

/** How often `block` (whole lines) occurs in `content`, counting at most two. */
export function countBlock(content: string, block: readonly string[]): number {
  const haystack = "\n" + content;
  const needle = "\n" + block.join("\n") + "\n";
  const first = haystack.indexOf(needle);
  if (first === -1) return 0;
  return haystack.indexOf(needle, first + 1) === -1 ? 1 : 2;
}

/** Statements only: braces, blank lines, block openers and returns are left alone (they repeat everywhere). */
const isStatement = (line: string): boolean => /^ {2,}\S/.test(line) && !/return |^\s*}|\{$/.test(line);

const indentOf = (line: string): string => /^\s*/.exec(line)![0];

/** A statement line (not a brace, blank or `return`) whose hunk would be unique: a fair target for every tool. */
function findEditableLine(lines: readonly string[], content: string, from: number, remove: number): number {
  for (let at = from; at < lines.length - CONTEXT - remove; at++) {
    if (!isStatement(lines[at]!)) continue;
    if (countBlock(content, lines.slice(at - CONTEXT, at + remove + CONTEXT)) === 1) return at;
  }
  throw new Error(`no editable line after ${from}`);
}

/** (a) One hunk (one line changed, one added) in the middle of a 100,000-line file. */
export function singleEditScenario(): PatchScenario {
  const lines = generateLines(100_000, 1);
  const content = joinLines(lines);
  const rng = createRng(101);
  const at = findEditableLine(lines, content, 50_000, 1);
  const indent = indentOf(lines[at]!);
  const add = [statementLine(rng, indent), statementLine(rng, indent)];
  const { diff, after } = buildUnifiedDiff(BENCH_PATH, lines, [{ at, remove: 1, add }]);
  return { id: "single-edit-100k", title: "(a) 1 edit, 100k lines", path: BENCH_PATH, before: content, after, diff };
}

/** (b) 50 hunks spread over a 10,000-line file: modify, modify + insert, delete, pure insertion, in turn. */
export function fiftyHunksScenario(): PatchScenario {
  const lines = generateLines(10_000, 2);
  const content = joinLines(lines);
  const rng = createRng(202);
  const changes: Change[] = [];
  let previousEnd = 0;
  for (let k = 0; k < 50; k++) {
    const kind = k % 4;
    const remove = kind === 3 ? 0 : 1;
    const wanted = Math.max(60 + k * 195 + Math.floor(rng() * 60), previousEnd + 2 * CONTEXT + 1);
    const at = findEditableLine(lines, content, wanted, remove);
    const indent = indentOf(lines[at]!);
    const add =
      kind === 0
        ? [statementLine(rng, indent)]
        : kind === 1
          ? [statementLine(rng, indent), statementLine(rng, indent)]
          : kind === 2
            ? []
            : [statementLine(rng, indent), statementLine(rng, indent)];
    changes.push({ at, remove, add });
    previousEnd = at + remove;
  }
  const { diff, after } = buildUnifiedDiff(BENCH_PATH, lines, changes);
  return { id: "fifty-hunks-10k", title: "(b) 50 hunks, 10k lines", path: BENCH_PATH, before: content, after, diff };
}

/**
 * (c) A hunk whose lines look like the file's (same grammar, names, indentation as the region its line numbers
 * point at) but occur nowhere: every tool must refuse, and the question is how long the refusal takes.
 */
export function failingLookupScenario(): PatchScenario {
  const lines = generateLines(100_000, 3);
  const content = joinLines(lines);
  const rng = createRng(303);
  const at = findEditableLine(lines, content, 50_000, 1);
  const fake = lines.slice(at - CONTEXT, at + 1 + CONTEXT).map((real) => {
    // Braces and blank lines stay as they are (they exist everywhere); statements are regenerated.
    if (!isStatement(real)) return real;
    let line = statementLine(rng, indentOf(real));
    while (content.includes(line)) line = statementLine(rng, indentOf(real));
    return line;
  });
  if (countBlock(content, fake) !== 0) throw new Error("the failing hunk exists in the file");
  const withFake = [...lines.slice(0, at - CONTEXT), ...fake, ...lines.slice(at + 1 + CONTEXT)];
  const { diff } = buildUnifiedDiff(BENCH_PATH, withFake, [
    { at, remove: 1, add: [statementLine(rng, indentOf(fake[CONTEXT]!))] },
  ]);
  return {
    id: "failing-lookup-100k",
    title: "(c) failing lookup, 100k lines",
    path: BENCH_PATH,
    before: content,
    after: undefined,
    diff,
  };
}
