/**
 * A test run that stopped before any test ran, because a test file could not be loaded (pure): Node's own report of
 * an error thrown while loading a module, which runners that load every file before running one (Mocha) print and
 * nothing else. Node writes the file and line, the source line and a caret under it, then the error and its stack;
 * a missing module is reported with the file that imported it, or the chain of files that required it. Read only
 * when no runner's format is in the output: a runner that reports such a file itself (Jest's "Test suite failed to
 * run") names it there.
 */
import { failedToRun, tidyBlock } from "./lines.js";
import { isTestPath } from "../test-paths.js";
import type { FailureBlock } from "./types.js";

/** What a runner may put before Node's report: Mocha 10+ writes ` Exception during run: `. */
const LEAD = String.raw`^\s*(?:Exception during run:\s*)?`;
/** Node's first line of a module that threw while loading: `file:///…/test/a.js:36` or `/…/test/a.js:36`. */
const THROWN_AT = new RegExp(String.raw`${LEAD}(?:file:\/\/)?(\/?[^\s:]+\.[cm]?[jt]sx?):\d+$`);
const CARET = /^\s*\^+\s*$/;
/** An error's first line: `SyntaxError: …`, `Error [ERR_MODULE_NOT_FOUND]: …`. */
const ERROR = new RegExp(String.raw`${LEAD}\w*Error(?: \[\w+\])?: `);
const MISSING_MODULE = new RegExp(String.raw`${LEAD}Error(?: \[\w+\])?: Cannot find (?:module|package) `);
/** A file named after the error: `imported from /…/test/a.js`, a frame `(/…/test/a.js:3:9)`, `- /…/test/a.js`. */
const FILE_IN = /(?:imported from |\(|at |- )(?:file:\/\/)?(\/?[^\s():]+\.[cm]?[jt]sx?)(?::\d+)*\)?\s*$/;

/** Where the report starts: the file-and-line header of an error with a caret, or a missing module's error. */
function reportStart(lines: readonly string[]): number {
  for (let i = 0; i < lines.length; i++) {
    if (!ERROR.test(lines[i]!)) continue;
    const from = Math.max(0, i - 6);
    const header = lines.slice(from, i).findIndex((line) => THROWN_AT.test(line));
    if (header >= 0 && lines.slice(from + header, i).some((line) => CARET.test(line))) return from + header;
  }
  return lines.findIndex((line) => MISSING_MODULE.test(line));
}

/** The failure of the test file that could not be loaded; none when the output is not such a report. */
export function loadError(lines: readonly string[]): FailureBlock[] {
  const start = reportStart(lines);
  if (start < 0) return [];
  const report = lines.slice(start, start + 30);
  // The test file is the one that threw, or the first test file among those named after the error.
  const files = [THROWN_AT.exec(report[0]!)?.[1], ...report.map((line) => FILE_IN.exec(line)?.[1])].filter(
    (f): f is string => f !== undefined && !f.includes("node_modules/") && !f.startsWith("node:"),
  );
  const file = files.find((f) => isTestPath(f)) ?? files[0];
  if (file === undefined) return [];
  const text = tidyBlock(report.filter((line) => line.trim() !== ""));
  return [{ name: failedToRun(file), text, file, notRun: true }];
}
