/**
 * Drift: the seeded drift harness (test/drift) at benchmark size. Realistic model faults (whitespace, indentation,
 * CRLF, Unicode punctuation, elisions, typos, dropped/invented/stale lines, ambiguous placement) over real source
 * files, in every dialect, scored per fault kind × dialect as correct / refused / wrong / doubtful.
 *
 * `runDriftBench` returns the figures; `driftSection` renders them as a bench section (add
 * `{ name: "drift", load: async () => (await import("./drift.js")).driftSection }` to SECTIONS in run.ts).
 */
import { FAULT_KINDS } from "../test/drift/faults.js";
import { DIALECTS } from "../test/drift/render.js";
import { describeCase, describeMulti, emptyTally, groupBy, runDrift, runMulti, type Tally } from "../test/drift/run.js";
import type { Section, SectionReport } from "./section.js";
import { markdownTable, percent } from "./table.js";

export interface DriftCell extends Tally {
  readonly fault: string;
  readonly dialect: string;
}

export interface DriftBench {
  readonly count: number;
  readonly seed: number;
  readonly total: Tally;
  /** One entry per fault kind × dialect that had cases. */
  readonly cells: readonly DriftCell[];
  readonly byFault: ReadonlyMap<string, Tally>;
  readonly byDialect: ReadonlyMap<string, Tally>;
  /** Full descriptions (reply included) of the wrong cases, then of a few doubtful and needless ones. */
  readonly examples: { readonly wrong: string[]; readonly doubtful: string[]; readonly needless: string[] };
  readonly ms: number;
}

export async function runDriftBench(count = 2000, seed = 1): Promise<DriftBench> {
  const started = performance.now();
  const run = await runDrift(count, seed);
  const ms = performance.now() - started;
  const cells = [...run.cells].map(([key, tally]) => {
    const [fault = "", dialect = ""] = key.split("|");
    return { fault, dialect, ...tally };
  });
  const pick = (keep: (j: (typeof run.judged)[number]) => boolean, most: number): string[] =>
    run.judged.filter(keep).slice(0, most).map(describeCase);
  return {
    count,
    seed,
    total: run.total,
    cells,
    byFault: groupBy(run, (c) => c.fault, FAULT_KINDS),
    byDialect: groupBy(run, (c) => c.dialect, DIALECTS),
    examples: {
      wrong: pick((j) => j.verdict.outcome === "wrong", 50),
      doubtful: pick((j) => j.verdict.outcome === "doubtful", 10),
      needless: pick((j) => j.verdict.needless, 10),
    },
    ms,
  };
}

function tallyRows(groups: ReadonlyMap<string, Tally>): string[][] {
  return [...groups]
    .filter(([, t]) => t.correct + t.refused + t.wrong + t.doubtful > 0)
    .map(([name, t]) => [
      name,
      String(t.correct + t.refused + t.wrong + t.doubtful),
      String(t.correct),
      String(t.refused),
      String(t.wrong),
      String(t.doubtful),
      `${t.needless}/${t.mustLand}`,
    ]);
}

const HEADER = ["", "cases", "correct", "refused", "wrong", "doubtful", "needless/must land"];
const ALIGN = ["left", "right", "right", "right", "right", "right", "right"] as const;

export function renderDriftBench(b: DriftBench): string {
  const t = b.total;
  return [
    "## Drift",
    "",
    `${b.count} generated cases (seed ${b.seed}) over real source files, ${b.ms.toFixed(0)} ms. Refused is right for`,
    "`ambiguous*` cases without a position hint and for whole-file elisions; `needless` counts refusals of mild drift",
    "on windows unique even loosely.",
    "",
    markdownTable(["fault", ...HEADER.slice(1)], tallyRows(b.byFault), [...ALIGN]),
    "",
    markdownTable(["dialect", ...HEADER.slice(1)], tallyRows(b.byDialect), [...ALIGN]),
    "",
    `Total: ${t.correct} correct, ${t.refused} refused, **${t.wrong} wrong**, ${t.doubtful} doubtful; needless refusals ${t.needless} of ${t.mustLand} (${percent(t.needless, t.mustLand)}).`,
    "",
  ].join("\n");
}

/** One mode of the harness over fresh seeds: its variable, cases per seed, and one seed's run. */
interface FreshMode {
  readonly variable: string;
  readonly title: string;
  readonly count: number;
  readonly run: (seed: number, count: number) => Promise<{ total: Tally; wrong: string[] }>;
}

/** Single edits, 1,500 a seed (the size of the sets the outside checks draw), and multi-edit replies, 600 a seed. */
const FRESH_MODES: readonly FreshMode[] = [
  {
    variable: "PATCHSMITH_BENCH_DRIFT_SEEDS",
    title: "Fresh seeds",
    count: 1500,
    run: async (seed, count) => {
      const run = await runDrift(count, seed);
      return { total: run.total, wrong: run.judged.filter((j) => j.verdict.outcome === "wrong").map(describeCase) };
    },
  },
  {
    variable: "PATCHSMITH_BENCH_MULTI_SEEDS",
    title: "Fresh multi-edit seeds",
    count: 600,
    run: async (seed, count) => {
      const run = await runMulti(count, seed);
      return { total: run.total, wrong: run.judged.filter((j) => j.verdict.outcome === "wrong").map(describeMulti) };
    },
  },
];

/** Seeds from a fresh-seed variable: "9100-9139,9300" (ranges inclusive). */
export function parseSeeds(text: string): number[] | undefined {
  const seeds: number[] = [];
  for (const part of text.split(",").map((p) => p.trim())) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (m === null) return undefined;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) return undefined;
    for (let seed = from; seed <= to; seed++) seeds.push(seed);
  }
  return seeds;
}

/** The harness over seeds never tuned against, when asked for: totals only, and every wrong case in full. */
async function freshSeeds(
  mode: FreshMode,
  log: (line: string) => void,
): Promise<{ markdown: string; wrong: string[] }> {
  const spec = process.env[mode.variable];
  if (spec === undefined || spec.trim() === "") return { markdown: "", wrong: [] };
  const seeds = parseSeeds(spec);
  if (seeds === undefined) throw new Error(`${mode.variable}: cannot read "${spec}" (e.g. 9100-9139,9300)`);
  const total = emptyTally();
  const wrong: string[] = [];
  const started = performance.now();
  for (const seed of seeds) {
    log(`drift: ${mode.title.toLowerCase()}: ${String(seed)}`);
    const run = await mode.run(seed, mode.count);
    for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += run.total[key];
    wrong.push(...run.wrong);
  }
  const seconds = (performance.now() - started) / 1000;
  const cases = total.correct + total.refused + total.wrong + total.doubtful;
  const markdown =
    `\n${mode.title} (${spec}, ${String(mode.count)} each): ${String(cases)} cases, ` +
    `${String(total.correct)} correct, ${String(total.refused)} refused, **${String(total.wrong)} wrong**, ` +
    `${String(total.doubtful)} doubtful, ${String(total.needless)} needless refusals; ${seconds.toFixed(0)} s.\n`;
  return { markdown, wrong };
}

export const driftSection: Section = {
  name: "drift",
  run: async ({ log }): Promise<SectionReport> => {
    log("drift: generating and applying 2000 cases");
    const b = await runDriftBench();
    const needlessRate = b.total.mustLand === 0 ? 0 : b.total.needless / b.total.mustLand;
    const fresh = [];
    for (const mode of FRESH_MODES) fresh.push(await freshSeeds(mode, log));
    return {
      markdown: renderDriftBench(b) + fresh.map((f) => f.markdown).join(""),
      figures: { total: b.total, cells: b.cells, ms: b.ms },
      targets: [
        { target: "drift: 0 wrong applies", measured: String(b.total.wrong), met: b.total.wrong === 0 },
        {
          target: "drift: needless refusals ≤ 2 %",
          measured: percent(b.total.needless, b.total.mustLand),
          met: needlessRate <= 0.02,
        },
      ],
      findings: [...b.examples.wrong, ...fresh.flatMap((f) => f.wrong)].map((w) => `drift: ${w.split("\n")[0] ?? ""}`),
    };
  },
};
