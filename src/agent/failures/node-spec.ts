/**
 * node:test's spec reporter (its default on a terminal, and what `--test-reporter=spec` prints): `✖ name (1.2ms)`
 * with the error indented under it. A suite is marked ✖ too when a child failed; it has no error of its own. The
 * "✖ failing tests:" recap repeats every failure, so only the first report of a name that carries an error counts
 * (Node.js 20 prints the error in the listing and again in the recap; Node.js 24, the Docker image's, only in the
 * recap); it also says where each is (`test at test/a.test.mjs:3:1`). A file that could not load is a failing test
 * named after the file. The dot reporter (`--test-reporter=dot`) prints only such a recap, headed `Failed tests:`,
 * where a suite whose children failed says so (`'2 subtests failed'`) instead of carrying nothing.
 */
import { indentOf, tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const FAILED = /^(\s*)✖ (.+?)(?:\s+\(\d+(?:\.\d+)?m?s\))?\s*$/;
const WHERE = /^test at (?:file:\/\/)?([^:]+):\d+:\d+\s*$/;
/** The recap's heading: the spec reporter's, or the dot reporter's. */
const RECAP = /^(?:✖ failing tests:|Failed tests:\s*$)/;
/** What a suite whose children failed carries in the dot reporter's recap. */
const SUBTESTS_FAILED = /^'\d+ subtests? failed'$/;

/** Each failure's file, from the recap: `test at <file>:<line>:<column>` above its `✖ name`. */
function filesInRecap(lines: readonly string[], recap: number): Map<string, string> {
  const files = new Map<string, string>();
  for (let i = recap + 1; i < lines.length - 1; i++) {
    const file = WHERE.exec(lines[i]!)?.[1];
    const name = FAILED.exec(lines[i + 1]!)?.[2];
    if (file !== undefined && name !== undefined && !files.has(name)) files.set(name, file);
  }
  return files;
}

export const nodeSpec: RunnerFormat = {
  runner: "node:test",
  detect: (lines) =>
    lines.some((l) => /^✖ failing tests:/.test(l)) ||
    (lines.some((l) => FAILED.test(l)) && lines.some((l) => /^ℹ tests \d+|^Failed tests:\s*$/.test(l))),
  parse(lines) {
    const failures = new Map<string, FailureBlock>();
    const recap = lines.findIndex((l) => RECAP.test(l));
    const files = recap === -1 ? new Map<string, string>() : filesInRecap(lines, recap);
    for (let i = 0; i < lines.length; i++) {
      const match = FAILED.exec(lines[i]!);
      if (match?.[2] === undefined || match[2] === "failing tests:") continue;
      const indent = match[1]?.length ?? 0;
      // A block in the listing ends where the recap starts.
      const end = recap > i ? recap : lines.length;
      const block: string[] = [];
      for (let j = i + 1; j < end; j++) {
        const line = lines[j]!;
        if (line.trim() !== "" && indentOf(line) <= indent) break;
        block.push(line.slice(indent));
      }
      // A suite whose children failed carries no error of its own.
      if (block.every((l) => l.trim() === "" || SUBTESTS_FAILED.test(l.trim()))) continue;
      if (failures.has(match[2])) continue;
      const file = files.get(match[2]);
      const notRun = file === match[2] && block.some((l) => l.trim() === "'test failed'");
      const text = tidyBlock([`✖ ${match[2]}`, ...block]);
      failures.set(match[2], {
        name: match[2],
        text,
        ...(file === undefined ? {} : { file }),
        ...(notRun ? { notRun } : {}),
      });
    }
    return [...failures.values()];
  },
};
