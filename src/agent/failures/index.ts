/**
 * The failing tests of a run and why they failed, read from the output of the common runners (pure). Every runner
 * whose format the output shows is read (a command may run two); an unknown runner gives nothing, and the caller
 * falls back to the output's tail. Pass or fail itself comes from the exit code, never from here.
 */
import { ava } from "./ava.js";
import { cargo } from "./cargo.js";
import { goTest } from "./go.js";
import { jasmine } from "./jasmine.js";
import { jest } from "./jest.js";
import { lab } from "./lab.js";
import { loadError } from "./load-error.js";
import { stripAnsi } from "./lines.js";
import { mocha } from "./mocha.js";
import { nodeSpec } from "./node-spec.js";
import { pytest } from "./pytest.js";
import { outputStreams } from "./streams.js";
import { tap } from "./tap.js";
import { tapeReporters } from "./tape-reporters.js";
import type { FailureBlock, RunnerFormat } from "./types.js";
import { unittest } from "./unittest.js";
import { uvu } from "./uvu.js";
import { vitest } from "./vitest.js";

export type { FailureBlock } from "./types.js";

/** More failure blocks than this would not help the model or a person; the tail is still there. */
export const MAX_FAILURES = 100;
/**
 * The failing tests' names are all kept up to this many: the verdict compares them with the baseline's, and a
 * suite that already fails by the hundreds (tests needing the network, a package not installed) must still show a
 * test the change broke. Past it a run cannot be judged by name (verdict.ts).
 */
export const MAX_FAILING_NAMES = 10_000;

/** In the order they are tried; formats are specific enough that at most one usually matches. */
const FORMATS: readonly RunnerFormat[] = [
  tap,
  tapeReporters,
  nodeSpec,
  jest,
  vitest,
  mocha,
  jasmine,
  lab,
  ava,
  uvu,
  pytest,
  unittest,
  goTest,
  cargo,
];

export interface ParsedFailures {
  /** The runners whose output was recognised. */
  readonly runners: readonly string[];
  readonly failures: readonly FailureBlock[];
  /** The run stopped at a test file it could not load, before any test ran. */
  readonly nothingRan?: boolean;
}

/** Absolute paths of the clone become repository paths, as the model knows them. */
export function relativize(text: string, root: string | undefined): string {
  if (root === undefined || root === "/" || root === "") return text;
  return text.split(`file://${root}/`).join("").split(`${root}/`).join("");
}

/** The first failure of each name, of lists read from several outputs (or parts of one), at most MAX_FAILING_NAMES. */
export function mergeFailures(lists: readonly (readonly FailureBlock[])[]): FailureBlock[] {
  const byName = new Map<string, FailureBlock>();
  for (const failure of lists.flat()) if (!byName.has(failure.name)) byName.set(failure.name, failure);
  return [...byName.values()].slice(0, MAX_FAILING_NAMES);
}

export function parseFailures(output: string, root?: string): ParsedFailures {
  const text = relativize(stripAnsi(output).replace(/\r\n?/g, "\n"), root);
  const all = text.split("\n");
  const runners = new Set<string>();
  const found: FailureBlock[][] = [];
  let stopped = false;
  for (const lines of outputStreams(all)) {
    const streamText = lines.join("\n");
    for (const format of FORMATS) {
      if (!format.detect(lines, streamText)) continue;
      runners.add(format.runner);
      stopped ||= format.stoppedEarly?.(lines) === true;
      found.push(format.parse(lines));
    }
  }
  // Nothing any runner knows: the run may have stopped at a test file that could not be loaded.
  if (runners.size === 0) {
    const failed = loadError(all);
    if (failed.length > 0) return { runners: [], failures: failed, nothingRan: true };
  }
  return { runners: [...runners], failures: mergeFailures(found), ...(stopped ? { nothingRan: true } : {}) };
}
