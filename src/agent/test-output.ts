/**
 * Names of failing tests, read from the output of common runners (pure). Best effort: an unknown runner yields an
 * empty list, never a wrong verdict; pass/fail itself comes from the exit code.
 */

import { TailBuffer } from "../adapters/sandbox/tail-buffer.js";
import type { RunSummary } from "../ports/sandbox-runner.js";
import type { TestSummary } from "./types.js";

/** More names than this would not help the model or a human; the tail is still there. */
export const MAX_FAILING_NAMES = 100;

// eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

interface LinePattern {
  readonly pattern: RegExp;
  readonly name: (match: RegExpExecArray) => string | undefined;
}

const first = (match: RegExpExecArray): string | undefined => match[1];

const PATTERNS: readonly LinePattern[] = [
  // node:test spec, jest, vitest: "✖ name (1.2ms)", "✕ name (5 ms)", "× name 3ms".
  {
    pattern: /^\s*[✖✕×✗]\s+(.+?)(?:\s+\(?\d+(?:\.\d+)?\s?m?s\)?)?\s*$/,
    name: (match) => (match[1] === undefined || /^failing tests:?$/.test(match[1]) ? undefined : match[1]),
  },
  // vitest: "FAIL  test/a.test.ts > suite > name" (a bare file line names no test).
  { pattern: /^\s*FAIL\s+\S+\.[cm]?[jt]sx?\s+>\s+(.+?)\s*$/, name: first },
  // jest: "● suite › name".
  {
    pattern: /^\s*● (.+?)\s*$/,
    name: (match) =>
      match[1] === undefined || /^(Test suite failed to run|Console)$/.test(match[1]) ? undefined : match[1],
  },
  // pytest short summary: "FAILED tests/test_a.py::TestX::test_y - AssertionError".
  { pattern: /^(?:FAILED|ERROR)\s+(\S+::\S+)/, name: first },
  // unittest: "FAIL: test_y (tests.test_a.TestX.test_y)" (3.11+) or "(tests.test_a.TestX)" (older).
  {
    pattern: /^(?:FAIL|ERROR): (\S+) \(([^)\s]+)\)/,
    name: (match) => {
      const [, test, where] = match;
      if (test === undefined || where === undefined) return undefined;
      return where.endsWith(`.${test}`) ? where : `${where}.${test}`;
    },
  },
  // go test: "--- FAIL: TestName (0.00s)", subtests "    --- FAIL: TestName/case".
  { pattern: /^\s*--- FAIL: (\S+)/, name: first },
  // cargo test: "test module::name ... FAILED".
  { pattern: /^test (\S+) \.\.\. FAILED\s*$/, name: first },
];

const TAP_NOT_OK = /^(\s*)not ok \d+(?: -)? (.+?)\s*$/;
const TAP_DIRECTIVE = /\s#\s*(TODO|SKIP)\b/i;

/**
 * TAP (node:test's default when not on a terminal): a failing subtest makes its parent "not ok" too, and TAP reports
 * children first, so a "not ok" right after deeper ones is a parent and is skipped.
 */
function readTap(lines: readonly string[]): string[] {
  const names: string[] = [];
  let previousIndent = -1;
  for (const line of lines) {
    const match = TAP_NOT_OK.exec(line);
    if (match === null) continue;
    const indent = match[1]?.length ?? 0;
    const name = match[2] ?? "";
    const isParent = previousIndent > indent;
    previousIndent = indent;
    if (isParent || TAP_DIRECTIVE.test(line)) continue;
    names.push(name.replace(/\s+#.*$/, ""));
  }
  return names;
}

export function parseFailingTests(output: string): string[] {
  const lines = output.replace(ANSI, "").split(/\r?\n/);
  const found: string[] = [...readTap(lines)];
  for (const line of lines) {
    for (const { pattern, name } of PATTERNS) {
      const match = pattern.exec(line);
      if (match === null) continue;
      const value = name(match)?.trim();
      if (value !== undefined && value !== "") found.push(value);
      break;
    }
  }
  return [...new Set(found)].slice(0, MAX_FAILING_NAMES);
}

/** How much of a run's output a report keeps (the model gets less, see verdict.ts). */
export const REPORT_TAIL_BYTES = 64 * 1024;

/** A run of the tests as the loop judges it: the failing tests named from the whole kept output, a shorter tail. */
export function summarizeTestRun(run: RunSummary): TestSummary {
  const tail = new TailBuffer(REPORT_TAIL_BYTES);
  tail.push(Buffer.from(run.output, "utf8"));
  return {
    command: run.command,
    passed: run.passed,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    failing: parseFailingTests(run.output),
    tail: tail.text(),
    durationMs: run.durationMs,
    ...(run.limit === undefined ? {} : { limit: run.limit }),
  };
}
