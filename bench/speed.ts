/**
 * Speed: patchsmith against jsdiff's applyPatch and the real `git apply`, on the same generated unified diffs.
 * Every tool's output is checked byte for byte against the known expected file (or, for the failing lookup, the
 * refusal is checked), so a fast wrong answer cannot hide in the table.
 */
import { failingLookupScenario, fiftyHunksScenario, singleEditScenario } from "./diffs.js";
import type { PatchScenario } from "./diffs.js";
import type { Section, SectionContext, SectionReport, TargetCheck } from "./section.js";
import { markdownTable, mark } from "./table.js";
import { formatMs, measure, measureMemory, measureRounds } from "./timing.js";
import type { MemoryFigure, Stats, Task } from "./timing.js";
import { TOOLS, gitVersion } from "./tools.js";
import type { PreparedTool, Tool, ToolOutcome } from "./tools.js";

export interface ToolFigure {
  readonly tool: string;
  readonly stats: Stats;
  /** "same-bytes" / "different-bytes" for (a) and (b); "refused" / "applied" for the failing lookup. */
  readonly check: "same-bytes" | "different-bytes" | "refused" | "applied" | "refused-wrongly";
  readonly ok: boolean;
  readonly detail: string;
  readonly memory?: MemoryFigure;
}

export interface ScenarioFigure {
  readonly id: PatchScenario["id"];
  readonly title: string;
  readonly lines: number;
  readonly hunks: number;
  readonly diffBytes: number;
  readonly tools: readonly ToolFigure[];
}

// In-process tools run interleaved, each sample the mean run of a back-to-back batch lasting >= 25 ms, so each tool
// pays for its own garbage in its own batches. A forced full collection before every run (the first method) made
// V8 throw away optimised code whose object shapes had all died ("weak objects" deoptimisations), a cost that
// grows with the number of object kinds a tool uses and that no long-running process pays per call.
// Ten warm-up batches: the engine's per-reply code reaches its steady speed only after a few hundred runs.
const FAST = { warmup: 10, runs: 15, budgetMs: 20_000, batchMs: 25 };
// git starts a process per run; seven runs give a stable median without eating the time budget.
const SLOW = { warmup: 1, runs: 7, budgetMs: 10_000 };
const WITH_MEMORY = new Set<PatchScenario["id"]>(["single-edit-100k", "failing-lookup-100k"]);

function check(scenario: PatchScenario, outcome: ToolOutcome): Pick<ToolFigure, "check" | "ok" | "detail"> {
  if (scenario.after === undefined) {
    return outcome.kind === "refused"
      ? { check: "refused", ok: true, detail: outcome.why }
      : { check: "applied", ok: false, detail: "applied a hunk whose context does not exist" };
  }
  if (outcome.kind === "refused") return { check: "refused-wrongly", ok: false, detail: outcome.why };
  return outcome.output === scenario.after
    ? { check: "same-bytes", ok: true, detail: "" }
    : { check: "different-bytes", ok: false, detail: firstDifference(outcome.output, scenario.after) };
}

function firstDifference(actual: string, expected: string): string {
  const a = actual.split("\n");
  const e = expected.split("\n");
  for (let i = 0; i < Math.max(a.length, e.length); i++) {
    if (a[i] !== e[i]) return `line ${i + 1}: got ${JSON.stringify(a[i])}, expected ${JSON.stringify(e[i])}`;
  }
  return "same lines, different bytes";
}

async function runScenario(build: () => PatchScenario, context: SectionContext): Promise<ScenarioFigure> {
  const scenario = build();
  context.log(`speed: ${scenario.title}`);
  const prepared = TOOLS.map((tool) => ({ tool, prepared: tool.prepare(scenario) }));
  try {
    const task = (p: PreparedTool): Task => (p.reset ? { run: p.run, before: p.reset } : { run: p.run });
    const fast = prepared.filter((p) => !p.tool.slow);
    const slow = prepared.filter((p) => p.tool.slow);
    const stats = new Map<Tool, Stats>();
    const fastStats = await measureRounds(
      fast.map((p) => task(p.prepared)),
      FAST,
    );
    fast.forEach((p, i) => stats.set(p.tool, fastStats[i]!));
    for (const p of slow) stats.set(p.tool, await measure(p.prepared.run, { ...SLOW, ...task(p.prepared) }));
    const tools: ToolFigure[] = [];
    for (const { tool, prepared: p } of prepared) {
      const verdict = check(scenario, p.outcome());
      let memory: MemoryFigure | undefined;
      if (WITH_MEMORY.has(scenario.id) && !tool.slow) {
        p.reset?.();
        memory = await measureMemory(p.run);
      }
      tools.push({ tool: tool.name, stats: stats.get(tool)!, ...verdict, ...(memory ? { memory } : {}) });
    }
    return {
      id: scenario.id,
      title: scenario.title,
      lines: scenario.before.split("\n").length - 1,
      hunks: scenario.diff.split("\n").filter((l) => l.startsWith("@@ ")).length,
      diffBytes: scenario.diff.length,
      tools,
    };
  } finally {
    for (const p of prepared) p.prepared.cleanup();
  }
}

const byTool = (figure: ScenarioFigure | undefined, name: string): ToolFigure | undefined =>
  figure?.tools.find((t) => t.tool === name);

const OURS = "patchsmith (in memory)";
const OURS_BARE = "patchsmith (in memory, bare @@ @@)";
const REFERENCE = "diff applyPatch (fuzz 0)";
// Medians of the same code differ by up to ~5 % between runs on this machine: "no slower" allows that much.
const NOISE = 1.05;

function speedTargets(figures: readonly ScenarioFigure[]): TargetCheck[] {
  const targets: TargetCheck[] = [];
  const failing = figures.find((f) => f.id === "failing-lookup-100k");
  for (const [name, label] of [
    [OURS, "failing lookup on 100k lines < 100 ms (in memory, median)"],
    [OURS_BARE, "same, hunk without line numbers (extra)"],
  ] as const) {
    const figure = byTool(failing, name);
    if (!figure) continue;
    targets.push({
      target: label,
      measured: `${formatMs(figure.stats.medianMs)} ms${figure.ok ? "" : " (did not refuse!)"}`,
      met: figure.ok && figure.stats.medianMs < 100,
    });
  }
  for (const figure of figures.filter((f) => f.id !== "failing-lookup-100k")) {
    const ours = byTool(figure, OURS);
    const theirs = byTool(figure, REFERENCE);
    if (!ours || !theirs) continue;
    const ratio = ours.stats.medianMs / theirs.stats.medianMs;
    targets.push({
      target: `exact path no slower than applyPatch (≤ ×${NOISE}): ${figure.title}`,
      measured: `${formatMs(ours.stats.medianMs)} vs ${formatMs(theirs.stats.medianMs)} ms (×${ratio.toFixed(2)})`,
      met: ours.ok && ratio <= NOISE,
    });
  }
  return targets;
}

function renderScenario(figure: ScenarioFigure): string {
  const reference = byTool(figure, REFERENCE)?.stats.medianMs ?? Number.NaN;
  const withMemory = figure.tools.some((t) => t.memory);
  const header = [
    "tool",
    "median ms",
    "p90 ms",
    "min ms",
    "runs",
    "× applyPatch",
    figure.id.startsWith("failing") ? "refused" : "same bytes",
  ];
  if (withMemory) header.push("heap alloc MB");
  const rows = figure.tools.map((t) => {
    const row = [
      t.tool,
      formatMs(t.stats.medianMs),
      formatMs(t.stats.p90Ms),
      formatMs(t.stats.minMs),
      String(t.stats.runs),
      (t.stats.medianMs / reference).toFixed(2),
      mark(t.ok) + (t.ok || t.detail === "" ? "" : ` ${t.detail.slice(0, 60)}`),
    ];
    if (withMemory) row.push(t.memory ? t.memory.allocatedMb.toFixed(1) : "n/a (own process)");
    return row;
  });
  const align = ["left", "right", "right", "right", "right", "right", "left", "right"] as const;
  return [
    `### ${figure.title} (${figure.lines.toLocaleString("en")} lines, ${figure.hunks} hunk${figure.hunks === 1 ? "" : "s"}, diff ${figure.diffBytes.toLocaleString("en")} bytes)`,
    "",
    markdownTable(header, rows, align),
  ].join("\n");
}

export async function runSpeed(context: SectionContext): Promise<SectionReport> {
  const figures: ScenarioFigure[] = [];
  for (const build of [singleEditScenario, fiftyHunksScenario, failingLookupScenario]) {
    figures.push(await runScenario(build, context));
  }
  const findings = figures.flatMap((f) =>
    f.tools.filter((t) => !t.ok).map((t) => `speed ${f.id}: ${t.tool} ${t.check}${t.detail ? ` (${t.detail})` : ""}`),
  );
  const markdown = [
    "## Speed",
    "",
    `Same unified diff for every tool (seeded generator, bench/generate.ts); patchsmith gets it in a fenced reply. ` +
      `Median and p90 of ${FAST.runs} samples after ${FAST.warmup} warm-ups; in memory, a sample (and a warm-up) is ` +
      `the mean run of a back-to-back batch lasting at least ${FAST.batchMs} ms (tools interleaved, each collecting its own ` +
      `garbage); applyReply on disk and git run once per sample after an untimed reset (${SLOW.runs} runs after ` +
      `${SLOW.warmup} warm-up for git). patchsmith runs as built (dist/). ` +
      `In memory = parse + locate + splice (applyEdits, reader returns the string); disk = applyReply on a temp tree ` +
      `(read, plan, atomic write). git apply = ${gitVersion()} on files in a temp dir, process start included. ` +
      `Heap alloc: heapUsed after one run minus after a full GC before it (approximate; input strings excluded).`,
    "",
    ...figures.map(renderScenario).flatMap((t) => [t, ""]),
  ].join("\n");
  return {
    markdown,
    figures: { node: process.version, git: gitVersion(), scenarios: figures },
    targets: speedTargets(figures),
    findings,
  };
}

export const speedSection: Section = { name: "speed", run: runSpeed };
