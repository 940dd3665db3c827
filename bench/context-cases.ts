/**
 * Bug-fix commits as context-benchmark cases (pure): the commit's message is the request, the source files it
 * changed are the files the model needs, and the tree before it is the repository the request is made on.
 */
import { isTestPath } from "../src/agent/test-paths.js";
import { queryTerms } from "../src/agent/context/terms.js";

export interface CommitRecord {
  readonly sha: string;
  readonly subject: string;
  readonly body: string;
  /** `git diff-tree --name-status` lines: status, then path (renames: both). */
  readonly changes: ReadonlyArray<{ readonly status: string; readonly path: string }>;
}

export interface ContextCase {
  readonly repo: string;
  readonly sha: string;
  readonly instruction: string;
  /** The source files the fix changed (existing before it). */
  readonly gold: readonly string[];
  /** The existing test files the fix changed: the tests that fail before it, as a red baseline names them. */
  readonly failingTests: readonly string[];
}

const FIX = /\b(fix(e[sd])?|bug|regression|crash(es)?|broken|incorrect(ly)?|wrong(ly)?)\b/i;
const NOT_A_FIX =
  /^(chore|docs|ci|build|style|refactor|perf|test|release)(\(|!?:)|\b(typos?|readme|changelog|deps?|bump|lint|revert|merge|ci)\b/i;
const SOURCE = /\.(?:[cm]?[jt]sx?|py|go|rs)$/;
const NOT_CODE = /(^|\/)(docs?|examples?|benchmarks?|fixtures?|\.github)\//;
const TRAILER =
  /^(Signed-off-by|Co-authored-by|Reviewed-by|Acked-by|Tested-by|Fixes|Closes|Resolves|Refs|PR-URL|Change-Id|Credit to)\b.*$/gim;

export const MAX_GOLD = 2;
const MAX_CHANGED = 6;

/** The request a fix commit stands for: its subject and body, without the trailers. */
export function instructionOf(subject: string, body: string): string {
  const text = `${subject}\n\n${body.replace(TRAILER, "")}`.replace(/\n{3,}/g, "\n\n").trim();
  return text;
}

/**
 * Words a request needs before any context can be found from it: "Fix CI" or "Fix build script" point nowhere, and
 * the issue a real `/fix` answers says more than its title.
 */
export const MIN_TERMS = 3;

/** A commit whose message reads like a bug fix (and not like docs, chores, reverts or releases) and says enough. */
export function isFixMessage(subject: string, body: string): boolean {
  const text = instructionOf(subject, body);
  return (
    FIX.test(text) && !NOT_A_FIX.test(subject) && queryTerms(text).filter((t) => t.length >= 3).length >= MIN_TERMS
  );
}

/** The source files a fix changed (modified, not tests, docs or examples), or undefined when it is not a case. */
export function goldFiles(changes: CommitRecord["changes"]): string[] | undefined {
  if (changes.length === 0 || changes.length > MAX_CHANGED) return undefined;
  const gold = changes
    .filter((c) => c.status === "M" && SOURCE.test(c.path) && !isTestPath(c.path) && !NOT_CODE.test(c.path))
    .map((c) => c.path);
  return gold.length === 0 || gold.length > MAX_GOLD ? undefined : gold;
}

/** `git diff-tree --no-commit-id -r --name-status`: status and path per line (a rename names its new path). */
export function parseNameStatus(output: string): CommitRecord["changes"] {
  return output
    .split("\n")
    .map((line) => line.split("\t"))
    .filter((fields) => fields.length >= 2)
    .map((fields) => ({ status: (fields[0] ?? "").charAt(0), path: fields.at(-1) ?? "" }));
}

/** The test files a fix changed that existed before it: what fails until the fix is made. */
export function failingTestFiles(changes: CommitRecord["changes"]): string[] {
  return changes.filter((c) => c.status === "M" && SOURCE.test(c.path) && isTestPath(c.path)).map((c) => c.path);
}

/** The first `count` test files (by path) a fix did not change: tests to fail whatever the request. */
export function untouchedTestFiles(paths: readonly string[], failingTests: readonly string[], count: number): string[] {
  return paths
    .filter((p) => SOURCE.test(p) && isTestPath(p) && !failingTests.includes(p))
    .sort()
    .slice(0, count);
}
