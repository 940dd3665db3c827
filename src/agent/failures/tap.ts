/**
 * TAP (tape, node-tap, node:test's default reporter when not on a terminal). Each `not ok` is followed by an indented
 * YAML block (`---` … `...`) with the operator, expected and actual. node:test reports children before their
 * parent, so a `not ok` right after deeper ones is a parent and is skipped; tape names its assertions, so the test's
 * own name comes from the `# name` comment above them.
 */
import { indentOf, tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const NOT_OK = /^(\s*)not ok \d+(?:\s+-(?=\s))?\s*(.*?)\s*$/;
const DIRECTIVE = /\s#\s*(TODO|SKIP)\b/i;
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

export const tap: RunnerFormat = {
  runner: "tap",
  detect: (lines, text) => /^TAP version \d+/m.test(text) || lines.some((l) => NOT_OK.test(l)),
  parse(lines) {
    const failures: FailureBlock[] = [];
    const nodeStyle = lines.some((l) => /^\s*# Subtest:/.test(l));
    let previousIndent = -1;
    let comment: string | undefined;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const named = /^#\s+(?!Subtest:)(.+?)\s*$/.exec(line);
      if (named?.[1] !== undefined && !SUMMARY_COMMENT.test(line)) comment = named[1];
      const match = NOT_OK.exec(line);
      if (match === null) continue;
      const indent = match[1]?.length ?? 0;
      const description = (match[2] ?? "").replace(/\s+#.*$/, "");
      const isParent = previousIndent > indent;
      previousIndent = indent;
      if (isParent || DIRECTIVE.test(line)) continue;
      const block = diagnostics(lines, i + 1, indent);
      if (block.some((l) => /failureType:\s*'subtestsFailed'/.test(l))) continue;
      // tape: "# averages" then "not ok 2 should be equal": the test's name says which; the message says what.
      const tapeTest = !nodeStyle && indent === 0 && comment !== undefined && comment !== description;
      const name = tapeTest ? `${comment} › ${description}` : description;
      const text = tidyBlock([`not ok ${description}`, ...block]);
      // node:test says where each test is; a file that could not load is a test named after the file.
      const file = block.map((l) => LOCATION.exec(l)?.[1]).find((f) => f !== undefined);
      const notRun = file !== undefined && description === file && block.some((l) => FILE_FAILED.test(l));
      failures.push({ name, text, ...(file === undefined ? {} : { file }), ...(notRun ? { notRun } : {}) });
    }
    return failures;
  },
};
