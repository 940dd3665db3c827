/**
 * Off the happy path: one reply of 50 hunks on a 100,000-line file, exact, with trailing spaces added to every
 * context line (a model that pads lines), and with one typo in one context line of each hunk; patchsmith in memory
 * beside jsdiff's applyPatch given what it needs to apply the same drift (a compareLine that ignores trailing
 * whitespace; a fuzz factor of 1). Target: drifted hunks within a few times the cost of exact ones.
 *
 * Two files: real code (100,000 lines of TypeScript's own compiler, `typescript/lib/typescript.js`, installed as a
 * dev dependency) and the generated file of the speed section, where thousands of functions share their first and
 * last lines: a hunk across a function boundary shares half its lines with every other boundary, and the fuzzy
 * rung must show that none of them comes within its margin.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyPatch } from "diff";
import { BUILT_CLI } from "../test/global-build.js";
import { applyEdits } from "../src/engine.js";
import { BENCH_PATH, buildUnifiedDiff, type Change } from "./diffs.js";
import { createRng, generateLines, joinLines, statementLine } from "./generate.js";
import type { Section } from "./section.js";
import { markdownTable } from "./table.js";
import { formatMs, measure, measureMemory } from "./timing.js";
import { asReply } from "./tools.js";

const LINES = 100_000;
const HUNKS = 50;
/** Drifted replies may cost at most this many times the exact one. */
const TARGET_FACTOR = 5;
/** The human output (one diff per file) may cost at most this many times `--json`. */
const OUTPUT_FACTOR = 3;

/** Wall time of `patchsmith apply` (the built CLI) on a reply, median of 3, human output or `--json`. */
function cliApplyMs(before: string, diff: string, json: boolean): number {
  const base = mkdtempSync(join(tmpdir(), "patchsmith-bench-apply-"));
  try {
    const root = join(base, "root");
    const file = join(root, BENCH_PATH);
    mkdirSync(dirname(file), { recursive: true });
    const reply = join(base, "reply.md");
    writeFileSync(reply, asReply(diff));
    const samples: number[] = [];
    for (let run = 0; run < 3; run++) {
      writeFileSync(file, before);
      const started = performance.now();
      const args = [BUILT_CLI, "apply", "--root", root, ...(json ? ["--json"] : []), reply];
      const result = spawnSync(process.execPath, args, { encoding: "utf8" });
      samples.push(performance.now() - started);
      if (result.status !== 0) throw new Error(`patchsmith apply failed: ${result.stderr}`);
    }
    return samples.sort((a, b) => a - b)[1]!;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

interface Variant {
  readonly name: string;
  readonly diff: string;
  readonly jsdiff: (before: string, diff: string) => string | false;
  /** What applying it gives, when not the whole reply's result. */
  readonly after?: string;
}

/** The reply of one typo hunk alone: what any drifted reply pays once per file, and one search. */
const ONE_TYPO_HUNK = "one typo hunk alone";

/** The third non-blank character of a context line (after the diff's space) gets a wrong letter. */
function withTypo(line: string): string {
  const at = line.slice(1).search(/\S/) + 3;
  return `${line.slice(0, at)}${line[at] === "x" ? "y" : "x"}${line.slice(at + 1)}`;
}

interface BenchFile {
  readonly name: string;
  readonly lines: readonly string[];
}

/** 100,000 lines of real code, from the middle of TypeScript's compiler; undefined when it is not installed. */
function realFile(): BenchFile | undefined {
  const path = fileURLToPath(new URL("../node_modules/typescript/lib/typescript.js", import.meta.url));
  if (!existsSync(path)) return undefined;
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .slice(20_000, 20_000 + LINES);
  return lines.length === LINES ? { name: "real code (typescript.js)", lines } : undefined;
}

function variants(file: BenchFile): { before: string; after: string; list: Variant[] } {
  const { lines } = file;
  const rng = createRng(11);
  const changes: Change[] = Array.from({ length: HUNKS }, (_, k) => ({
    at: Math.floor((k + 0.5) * (LINES / HUNKS)),
    remove: 1,
    add: [statementLine(rng, "    ")],
  }));
  const { diff, after } = buildUnifiedDiff(BENCH_PATH, lines, changes);
  const firstOnly = buildUnifiedDiff(BENCH_PATH, lines, changes.slice(0, 1)).after;
  const padded = diff
    .split("\n")
    .map((l) => (l.startsWith(" ") && l.trim() !== "" ? `${l}  ` : l))
    .join("\n");
  let first = true;
  const typo = diff
    .split("\n")
    .map((l) => {
      if (l.startsWith("@@")) first = true;
      if (!first || !l.startsWith(" ") || l.trim().length < 9) return l;
      first = false;
      return withTypo(l);
    })
    .join("\n");
  return {
    before: joinLines(lines),
    after,
    list: [
      { name: "exact", diff, jsdiff: (b, d) => applyPatch(b, d) },
      {
        name: "trailing spaces on every context line",
        diff: padded,
        jsdiff: (b, d) =>
          applyPatch(b, d, { compareLine: (_n, line, _op, patch) => line.trimEnd() === patch.trimEnd() }),
      },
      { name: "one typo per hunk", diff: typo, jsdiff: (b, d) => applyPatch(b, d, { fuzzFactor: 1 }) },
      {
        name: ONE_TYPO_HUNK,
        diff: typo
          .split(/\n(?=@@)/)
          .slice(0, 2)
          .join("\n"),
        jsdiff: (b, d) => applyPatch(b, d, { fuzzFactor: 1 }),
        after: firstOnly,
      },
    ],
  };
}

interface Figure {
  readonly file: string;
  readonly name: string;
  readonly patchsmithMs: number;
  readonly jsdiffMs: number;
  readonly allocatedMb: number;
  readonly right: boolean;
}

/** Each reply of `file` applied by patchsmith and by jsdiff, with a table row each. */
async function measureFile(
  file: BenchFile,
  log: (line: string) => void,
): Promise<{ figures: Figure[]; rows: string[][] }> {
  const { before, after, list } = variants(file);
  const figures: Figure[] = [];
  const rows: string[][] = [];
  for (const variant of list) {
    log(`drifted: ${file.name}, ${variant.name}`);
    const reply = asReply(variant.diff);
    const read = (p: string): string | undefined => (p === BENCH_PATH ? before : undefined);
    const ours = await measure(() => applyEdits(reply, read), { warmup: 1, runs: 5 });
    const theirs = await measure(() => variant.jsdiff(before, variant.diff), { warmup: 1, runs: 5 });
    const memory = await measureMemory(() => applyEdits(reply, read));
    const result = await applyEdits(reply, read);
    const right = result.files.get(BENCH_PATH) === (variant.after ?? after);
    const refused = result.results.filter((r) => !r.ok && r.reason !== "not-applied").length;
    figures.push({
      file: file.name,
      name: variant.name,
      patchsmithMs: ours.medianMs,
      jsdiffMs: theirs.medianMs,
      allocatedMb: memory.allocatedMb,
      right,
    });
    rows.push([
      file.name,
      variant.name,
      `${formatMs(ours.medianMs)} ms`,
      `${memory.allocatedMb.toFixed(0)} MB`,
      `${formatMs(theirs.medianMs)} ms`,
      right ? "applied" : refused === 0 ? "different bytes" : `${String(refused)} hunks refused (reply not applied)`,
    ]);
  }
  return { figures, rows };
}

export const driftedSection: Section = {
  name: "drifted",
  async run({ log }) {
    const generated: BenchFile = { name: "generated code", lines: generateLines(LINES, 2) };
    // Lines ending with a space make every exactly found hunk check for a window differing only there.
    const spaced: BenchFile = {
      name: "generated, every 1,000th line ending with a space",
      lines: generated.lines.map((line, i) => (i % 1000 === 999 ? `${line} ` : line)),
    };
    const files = [realFile(), generated, spaced].filter((f): f is BenchFile => f !== undefined);
    const figures: Figure[] = [];
    const rows: string[][] = [];
    for (const file of files) {
      const measured = await measureFile(file, log);
      figures.push(...measured.figures);
      rows.push(...measured.rows);
    }
    log("drifted: patchsmith apply, human output and --json");
    const { before, list } = variants(generated);
    const human = cliApplyMs(before, list[0]!.diff, false);
    const json = cliApplyMs(before, list[0]!.diff, true);
    // Every drifted reply of all the hunks counts, refused hunks included: a refusal costs its lookup too.
    const factor = (file: string): { worst: Figure; exact: Figure } => {
      const own = figures.filter((f) => f.file === file && f.name !== ONE_TYPO_HUNK);
      const worst = own.slice(1).reduce((a, b) => (b.patchsmithMs > a.patchsmithMs ? b : a));
      return { worst, exact: own[0]! };
    };
    const markdown = [
      "## Drifted hunks",
      "",
      `One reply of ${String(HUNKS)} hunks on a ${LINES.toLocaleString("en")}-line file (median of 5 runs).`,
      "",
      markdownTable(
        ["file", "reply", "patchsmith", "allocated", "jsdiff applyPatch (with its drift option)", "patchsmith result"],
        rows,
      ),
      "",
      `\`patchsmith apply\` (the built CLI, process start included) on the exact reply to the generated file, median of ` +
        `3: human output ${formatMs(human)} ms, \`--json\` ${formatMs(json)} ms.`,
      "",
      ...onceNotes(figures),
    ].join("\n");
    return {
      markdown,
      figures: { replies: figures, applyHumanMs: human, applyJsonMs: json },
      targets: [
        ...files.map((file) => {
          const { worst, exact } = factor(file.name);
          return {
            target: `${file.name}: drifted hunks within ${String(TARGET_FACTOR)}× the exact reply's cost`,
            measured: `×${(worst.patchsmithMs / exact.patchsmithMs).toFixed(1)} (${worst.name})`,
            met: worst.patchsmithMs <= exact.patchsmithMs * TARGET_FACTOR,
          };
        }),
        {
          target: `apply's human output within ${String(OUTPUT_FACTOR)}× --json`,
          measured: `×${(human / json).toFixed(1)}`,
          met: human <= json * OUTPUT_FACTOR,
        },
      ],
      findings: figures
        .filter((f) => !f.right && f.name !== "one typo per hunk")
        .map((f) => `drifted: ${f.file}, ${f.name} not applied`),
    };
  },
};

/**
 * What a drifted reply pays once per file, whatever its hunks: the reply of one typo hunk alone (the lines' loose
 * keys, their index and one search) against the exact reply of all the hunks.
 */
function onceNotes(figures: readonly Figure[]): string[] {
  return figures
    .filter((f) => f.name === ONE_TYPO_HUNK)
    .map((one) => {
      const exact = figures.find((f) => f.file === one.file && f.name === "exact")!;
      return (
        `${one.file}: one typo hunk alone costs ${formatMs(one.patchsmithMs)} ms, ` +
        `×${(one.patchsmithMs / exact.patchsmithMs).toFixed(1)} the exact reply of ${String(HUNKS)} hunks ` +
        "(what the first drifted hunk of a file pays once: its lines' loose keys and their index)."
      );
    })
    .flatMap((line) => [line, ""]);
}
