/**
 * `npm run bench`: accuracy on the scenario corpus and speed against jsdiff and git, printed side by side with the
 * targets. Flags: `--only NAME[,NAME]` (a section name below), `--json` (machine-readable figures on stdout).
 * Progress goes to stderr. A benchmark, not a test: it never fails on a missed target (exit 1 only on a crash or
 * a usage error).
 */
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { parseFlags } from "./flags.js";
import type { Section, SectionReport, TargetCheck } from "./section.js";
import { markdownTable, mark } from "./table.js";

/**
 * The sections, in print order. To add one (e.g. "loop-overhead" from bench/loop-overhead.ts), export a `Section`
 * there and append an entry here; `--only` and `--json` pick it up by its name. Loaded lazily, so that
 * `--only speed` runs even while another section's dependencies are broken.
 */
const SECTIONS: readonly { readonly name: string; readonly load: () => Promise<Section> }[] = [
  { name: "accuracy", load: async () => (await import("./accuracy.js")).accuracySection },
  { name: "speed", load: async () => (await import("./speed.js")).speedSection },
  { name: "drift", load: async () => (await import("./drift.js")).driftSection },
  { name: "refusals", load: async () => (await import("./refusals.js")).refusalsSection },
  { name: "loop-overhead", load: async () => (await import("./loop-overhead.js")).loopOverheadSection },
  { name: "context", load: async () => (await import("./context.js")).contextSection },
  { name: "setup", load: async () => (await import("./setup.js")).setupSection },
  { name: "answers", load: async () => (await import("./answers.js")).answersSection },
  { name: "queues", load: async () => (await import("./queues.js")).queuesSection },
  { name: "peers", load: async () => (await import("./peers.js")).peersSection },
  { name: "drifted", load: async () => (await import("./drifted.js")).driftedSection },
  { name: "replay", load: async () => (await import("./replay.js")).replaySection },
  { name: "real-fixes", load: async () => (await import("./real-fixes.js")).realFixesSection },
];

function renderTargets(targets: readonly TargetCheck[]): string {
  const rows = targets.map((t) => [t.target, t.measured, mark(t.met)]);
  return ["## Targets", "", markdownTable(["target", "measured", "met"], rows), ""].join("\n");
}

function renderFindings(findings: readonly string[]): string {
  if (findings.length === 0) return "## Findings\n\nNothing wrong, every target met.\n";
  return ["## Findings", "", ...findings.map((f) => `- ${f}`), ""].join("\n");
}

/** Timings on a busy machine are inflated and noisy: say so next to them rather than let them mislead. */
function machineNote(load: number): string {
  const cpus = availableParallelism();
  const busy = load > cpus * 0.75;
  return `Machine: ${cpus} CPUs, load average ${load.toFixed(1)} at start${busy ? " — busy: timings are inflated and noisy (min ms is the least affected)" : ""}.`;
}

/** A section that throws (a bug, or a dependency still missing) is reported and the others still run. */
async function runSection(
  entry: (typeof SECTIONS)[number],
  log: (line: string) => void,
): Promise<SectionReport | undefined> {
  try {
    return await (await entry.load()).run({ log });
  } catch (error) {
    log(
      `bench: section ${entry.name} crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return undefined;
  }
}

const crashReport = (name: string): SectionReport => ({
  markdown: `## ${name}\n\nCrashed (the error is on stderr).\n`,
  figures: { crashed: true },
  targets: [],
  findings: [`${name}: the section crashed; see stderr`],
});

async function main(argv: readonly string[]): Promise<number> {
  const flags = parseFlags(
    argv,
    SECTIONS.map((s) => s.name),
  );
  if (typeof flags === "string") {
    process.stderr.write(`bench: ${flags}\nusage: npm run bench -- [--only accuracy|speed] [--json]\n`);
    return 2;
  }
  const selected = SECTIONS.filter((s) => flags.only?.includes(s.name) ?? true);
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  // Sampled before the run: the bench's own work would raise it.
  const load = loadavg()[0] ?? 0;
  const started = performance.now();
  const reports: { name: string; report: SectionReport; ms: number }[] = [];
  let crashed = false;
  for (const section of selected) {
    const start = performance.now();
    const report = await runSection(section, log);
    crashed ||= report === undefined;
    reports.push({ name: section.name, report: report ?? crashReport(section.name), ms: performance.now() - start });
  }
  const totalMs = performance.now() - started;
  const targets = reports.flatMap((r) => r.report.targets);
  const findings = [
    ...reports.flatMap((r) => r.report.findings),
    ...targets.filter((t) => !t.met).map((t) => `target missed: ${t.target} — ${t.measured}`),
  ];
  if (flags.json) {
    const sections = Object.fromEntries(reports.map((r) => [r.name, { ms: r.ms, figures: r.report.figures }]));
    const machine = { cpus: availableParallelism(), loadAverage: load, node: process.version };
    process.stdout.write(JSON.stringify({ machine, sections, targets, findings, totalMs }, null, 2) + "\n");
    return crashed ? 1 : 0;
  }
  const out = [
    `# patchsmith bench (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.platform}/${process.arch})`,
    "",
    machineNote(load),
    "",
    ...reports.map((r) => r.report.markdown),
    renderTargets(targets),
    renderFindings(findings),
    `Whole run: ${(totalMs / 1000).toFixed(1)} s (${reports.map((r) => `${r.name} ${(r.ms / 1000).toFixed(1)} s`).join(", ")}).`,
  ];
  process.stdout.write(out.join("\n") + "\n");
  return crashed ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
