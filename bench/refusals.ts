/**
 * Refusals on very large files: an ambiguous one-line SEARCH (`}`) in a 1,000,000-line file, as written, with
 * trailing whitespace, re-indented and in a CRLF file. Every place is counted (that is what makes the ambiguity
 * visible), but the answer comes in well under a second and its message names at most 20 places and the count.
 */
import { performance } from "node:perf_hooks";
import { refusalOf } from "./patchsmith.js";
import type { Section } from "./section.js";
import { markdownTable } from "./table.js";

const LINES = 1_000_000;
const RUNS = 5;
const TARGET_MS = 1000;
const MAX_MESSAGE_BYTES = 1024;

function bigFile(eol: string): string {
  const lines: string[] = [];
  for (let i = 0; i < LINES; i++) lines.push(i % 3 === 2 ? "}" : i % 3 === 0 ? `function f${i}() {` : `  return ${i};`);
  return lines.join(eol) + eol;
}

const replyFor = (search: string): string =>
  ["big.js", "```", "<<<<<<< SEARCH", search, "=======", "};", ">>>>>>> REPLACE", "```", ""].join("\n");

export interface RefusalFigure {
  readonly case: string;
  readonly medianMs: number;
  readonly reason: string;
  readonly messageBytes: number;
}

export async function runRefusalBench(): Promise<RefusalFigure[]> {
  const lf = bigFile("\n");
  const crlf = bigFile("\r\n");
  const cases = [
    ["`}` as written", "}", lf],
    ["`}   ` (trailing whitespace)", "}   ", lf],
    ["`    }` (re-indented)", "    }", lf],
    ["`}` in a CRLF file", "}", crlf],
  ] as const;
  const figures: RefusalFigure[] = [];
  for (const [name, search, file] of cases) {
    const times: number[] = [];
    let last = { reason: "", message: "" };
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      last = await refusalOf(replyFor(search), "big.js", file);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    figures.push({
      case: name,
      medianMs: times[Math.floor(RUNS / 2)]!,
      reason: last.reason,
      messageBytes: Buffer.byteLength(last.message),
    });
  }
  return figures;
}

export const refusalsSection: Section = {
  name: "refusals",
  async run({ log }) {
    log("refusals: ambiguous one-line SEARCH in 1,000,000 lines");
    const figures = await runRefusalBench();
    const rows = figures.map((f) => [f.case, `${f.medianMs.toFixed(0)} ms`, f.reason, String(f.messageBytes)]);
    const slowest = Math.max(...figures.map((f) => f.medianMs));
    const longest = Math.max(...figures.map((f) => f.messageBytes));
    const refused = figures.every((f) => f.reason === "ambiguous-match");
    return {
      markdown: [
        "## Refusals on a 1,000,000-line file",
        "",
        `An ambiguous one-line SEARCH (333,333 places); median of ${String(RUNS)} runs, in memory.`,
        "",
        markdownTable(["SEARCH", "time", "reason", "message bytes"], rows),
        "",
      ].join("\n"),
      figures,
      targets: [
        {
          target: `ambiguous one-line SEARCH on 1,000,000 lines refused < ${String(TARGET_MS)} ms`,
          measured: `${slowest.toFixed(0)} ms (slowest case)`,
          met: slowest < TARGET_MS && refused,
        },
        {
          target: `its message ≤ ${String(MAX_MESSAGE_BYTES)} bytes (20 places and the count)`,
          measured: `${String(longest)} bytes`,
          met: longest <= MAX_MESSAGE_BYTES,
        },
      ],
      findings: refused ? [] : ["refusals: an ambiguous SEARCH was not refused as ambiguous-match"],
    };
  },
};
