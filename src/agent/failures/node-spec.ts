/**
 * node:test's spec reporter (its default on a terminal, and what `--test-reporter=spec` prints): `✖ name (1.2ms)`
 * with the error indented under it. A suite is marked ✖ too when a child failed; it has no error of its own. The
 * "✖ failing tests:" recap repeats every failure, so only the first report of a name counts.
 */
import { indentOf, tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const FAILED = /^(\s*)✖ (.+?)(?:\s+\(\d+(?:\.\d+)?m?s\))?\s*$/;

export const nodeSpec: RunnerFormat = {
  runner: "node:test",
  detect: (lines) =>
    lines.some((l) => /^✖ failing tests:/.test(l)) ||
    (lines.some((l) => FAILED.test(l)) && lines.some((l) => /^ℹ tests \d+/.test(l))),
  parse(lines) {
    const failures = new Map<string, FailureBlock>();
    const recap = lines.findIndex((l) => /^✖ failing tests:/.test(l));
    const end = recap === -1 ? lines.length : recap;
    for (let i = 0; i < end; i++) {
      const match = FAILED.exec(lines[i]!);
      if (match?.[2] === undefined || match[2] === "failing tests:") continue;
      const indent = match[1]?.length ?? 0;
      const block: string[] = [];
      for (let j = i + 1; j < end; j++) {
        const line = lines[j]!;
        if (line.trim() !== "" && indentOf(line) <= indent) break;
        block.push(line.slice(indent));
      }
      // A suite whose children failed carries no error of its own.
      if (block.every((l) => l.trim() === "")) continue;
      if (!failures.has(match[2]))
        failures.set(match[2], { name: match[2], text: tidyBlock([`✖ ${match[2]}`, ...block]) });
    }
    return [...failures.values()];
  },
};
