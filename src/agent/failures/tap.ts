/**
 * TAP (tape, node-tap, node:test's default reporter when not on a terminal). Each `not ok` is followed by an indented
 * YAML block (`---` … `...`) with the operator, expected and actual. A parent whose children failed is skipped
 * (their failures say why): node:test and node-tap report the children above the parent's `not ok`, indented
 * deeper; tap 14 buffers them in `{` … `}` after it. A parent none of whose children failed (a file that exited
 * early, timed out) is a failure of its own. Assertions (node-tap's, tape's) are named after the test they are in:
 * node-tap's by the `# Subtest:` names around them (the file first), tape's by the `# name` comment above them.
 */
import { indentOf, tidyBlock, withPlaces } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

/** A result TAP marks as not counting: `ok 3 - title # SKIP reason`, `not ok 4 - title # TODO`. */
export const DIRECTIVE = /\s#\s*(TODO|SKIP)\b/i;
const SUMMARY_COMMENT = /^#\s*(tests|pass|fail|skip|todo|cancelled|suites|duration_ms|ok)\b/i;
/** node:test's `location: '/…/test/a.test.mjs:3:1'` (made relative to the clone by then). */
const LOCATION = /^\s*location:\s*'(?:file:\/\/)?([^':]+):\d+:\d+'/;
const FILE_FAILED = /^\s*error:\s*'test failed'/;

/** The YAML diagnostics under a `not ok` line: from `---` to `...`, or the deeper-indented lines. */
function diagnostics(lines: readonly string[], from: number, indent: number): string[] {
  const out: string[] = [];
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") {
      out.push(line);
      continue;
    }
    if (indentOf(line) <= indent) break;
    if (line.trim() === "...") break;
    if (line.trim() === "---") continue;
    out.push(line.slice(indent + 2));
  }
  return out;
}

const RESULT = /^(\s*)(not ok|ok) \d+(?:\s+-(?=\s))?\s*(.*?)\s*$/;
const SUBTEST = /^(\s*)# Subtest: (.*?)\s*$/;

/** A result line and what encloses it. */
interface Result {
  readonly at: number;
  readonly indent: number;
  readonly ok: boolean;
  readonly description: string;
  /** The `# Subtest:` names open around it, outermost first (node-tap: the file first). */
  readonly parents: readonly string[];
  /** It closes a `# Subtest:` of its own name (a test, not an assertion inside one). */
  readonly test: boolean;
  /** tape: the `# name` comment above it. */
  readonly comment: string | undefined;
}

function results(lines: readonly string[]): Result[] {
  const found: Result[] = [];
  const open = new Map<number, string>();
  let comment: string | undefined;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at]!;
    const subtest = SUBTEST.exec(line);
    if (subtest !== null) {
      const indent = subtest[1]!.length;
      for (const deeper of [...open.keys()]) if (deeper >= indent) open.delete(deeper);
      open.set(indent, subtest[2]!);
      continue;
    }
    const named = /^#\s+(.+?)\s*$/.exec(line);
    if (named?.[1] !== undefined && !SUMMARY_COMMENT.test(line)) comment = named[1];
    const match = RESULT.exec(line);
    if (match === null) continue;
    const indent = match[1]!.length;
    const description = match[3]!.replace(/\s+#.*$/, "");
    const test = open.get(indent) === description;
    if (test) open.delete(indent);
    const parents = [...open]
      .filter(([depth]) => depth < indent)
      .sort(([a], [b]) => a - b)
      .map(([, name]) => name);
    found.push({ at, indent, ok: match[2] === "ok", description, parents, test, comment });
  }
  return found;
}

/**
 * An assertion's name: the subtests around it (node-tap), or tape's test comment, then its message. Assertions
 * keep their default message ("should be equal") unless given one, so a message that repeats among its test's
 * assertions gets its place among them (`withPlaces`): each failing assertion keeps a name of its own.
 */
function assertionNames(all: readonly Result[], nodeStyle: boolean): Map<Result, string> {
  const base = (r: Result): string | undefined => {
    if (r.test) return undefined;
    if (r.parents.length > 0) return [...r.parents, r.description].join(" › ");
    const tapeTest = !nodeStyle && r.indent === 0 && r.comment !== undefined && r.comment !== r.description;
    return tapeTest ? `${r.comment} › ${r.description}` : undefined;
  };
  const named = withPlaces(all.map(base));
  const names = new Map<Result, string>();
  all.forEach((r, k) => {
    if (named[k] !== undefined) names.set(r, named[k]);
  });
  return names;
}

/**
 * The lines of a result's children, if it has any: the deeper-indented lines right above it (node:test, node-tap),
 * or tap 14's `{` … `}` right after its diagnostics, at its own indentation.
 */
function childrenOf(lines: readonly string[], at: number, indent: number): { from: number; to: number } | undefined {
  const deeper = (line: string): boolean => line.trim() === "" || indentOf(line) > indent;
  let above = at;
  while (above > 0 && deeper(lines[above - 1]!)) above--;
  if (above < at) return { from: above - 1, to: at };
  let after = at + 1;
  while (after < lines.length && (deeper(lines[after]!) || /^\s*(?:---|\.\.\.)\s*$/.test(lines[after]!))) after++;
  if (lines[after]?.trim() !== "{" || indentOf(lines[after]!) !== indent) return undefined;
  let close = after + 1;
  while (close < lines.length && !(lines[close]!.trim() === "}" && indentOf(lines[close]!) === indent)) close++;
  return { from: after, to: close };
}

export const tap: RunnerFormat = {
  runner: "tap",
  detect: (lines, text) => /^TAP version \d+/m.test(text) || lines.some((l) => RESULT.exec(l)?.[2] === "not ok"),
  parse(lines) {
    const failures: FailureBlock[] = [];
    const nodeStyle = lines.some((l) => SUBTEST.test(l));
    const all = results(lines);
    const names = assertionNames(all, nodeStyle);
    const failingBetween = (from: number, to: number): boolean =>
      all.some((r) => !r.ok && r.at > from && r.at < to && !DIRECTIVE.test(lines[r.at]!));
    for (const result of all) {
      if (result.ok) continue;
      const { at, indent, description } = result;
      if (DIRECTIVE.test(lines[at]!)) continue;
      const block = diagnostics(lines, at + 1, indent);
      const children = childrenOf(lines, at, indent);
      if (children !== undefined && failingBetween(children.from, children.to)) continue;
      if (block.some((l) => /failureType:\s*'subtestsFailed'/.test(l))) continue;
      const name = names.get(result) ?? description;
      const text = tidyBlock([`not ok ${description}`, ...block]);
      // node:test says where each test is; a file that could not load is a test named after the file.
      const file = block.map((l) => LOCATION.exec(l)?.[1]).find((f) => f !== undefined);
      const notRun = file !== undefined && description === file && block.some((l) => FILE_FAILED.test(l));
      failures.push({ name, text, ...(file === undefined ? {} : { file }), ...(notRun ? { notRun } : {}) });
    }
    return failures;
  },
};
