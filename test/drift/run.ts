/**
 * A seeded run of the drift harness: generates `count` cases, judges each, and tallies outcomes per fault kind ×
 * dialect. Shared by the vitest check (drift.test.ts) and the benchmark (bench/drift.ts).
 */
import { generateCase, type DriftCase } from "./faults.js";
import { generateMultiCase, MULTI_KINDS, type MultiCase } from "./multi-case.js";
import { judgeMulti, type MultiVerdict } from "./multi-oracle.js";
import { judgeCase, type Outcome, type Verdict } from "./oracle.js";

export interface Tally {
  correct: number;
  refused: number;
  wrong: number;
  doubtful: number;
  /** Refusals of cases that must land (mild drift, loosely unique window). */
  needless: number;
  /** Cases that must land. */
  mustLand: number;
}

export interface Judged {
  readonly case: DriftCase;
  readonly verdict: Verdict;
}

export interface DriftRun {
  readonly judged: readonly Judged[];
  /** Keyed `fault|dialect`. */
  readonly cells: ReadonlyMap<string, Tally>;
  readonly total: Tally;
}

export const emptyTally = (): Tally => ({ correct: 0, refused: 0, wrong: 0, doubtful: 0, needless: 0, mustLand: 0 });

export function addTo(t: Tally, c: DriftCase, v: Verdict): void {
  const key: Outcome = v.outcome;
  t[key]++;
  if (c.mustLand) t.mustLand++;
  if (v.needless) t.needless++;
}

export async function runDrift(count: number, seed: number, first = 0): Promise<DriftRun> {
  const judged: Judged[] = [];
  const cells = new Map<string, Tally>();
  const total = emptyTally();
  for (let i = first; i < first + count; i++) {
    const c = generateCase(seed, i);
    const verdict = await judgeCase(c);
    judged.push({ case: c, verdict });
    const key = `${c.fault}|${c.dialect}`;
    let cell = cells.get(key);
    if (cell === undefined) cells.set(key, (cell = emptyTally()));
    addTo(cell, c, verdict);
    addTo(total, c, verdict);
  }
  return { judged, cells, total };
}

/** Long replies (whole files) keep their first and last lines. */
function clip(lines: readonly string[], most = 40): string[] {
  if (lines.length <= most) return [...lines];
  const half = most / 2;
  return [...lines.slice(0, half), `[${lines.length - most} lines]`, ...lines.slice(-half)];
}

/** A case in full, for a failure report: enough to rebuild it as a regression test. */
export function describeCase({ case: c, verdict: v }: Judged): string {
  return [
    `case ${c.id}: ${v.outcome}${v.needless ? " (needless)" : ""} — fault ${c.fault} (${c.drift}), dialect ${c.dialect}, change ${c.change}, expect ${c.expect}`,
    `  file ${c.path} (${c.origin}) lines ${c.window.start}-${c.window.start + c.window.size - 1}, variant ${JSON.stringify(c.variant)}`,
    `  strategy ${v.strategy ?? "-"}, reason ${v.reason ?? "-"}${c.note === "" ? "" : `, drift: ${c.note}`}`,
    ...(v.detail === undefined ? [] : [`  ${v.detail}`]),
    "  reply:",
    ...clip(c.reply.split("\n")).map((l) => `  | ${l}`),
  ].join("\n");
}

/** Tallies grouped by one key (fault kind or dialect), in first-seen order of `keys`. */
export function groupBy(run: DriftRun, keyOf: (c: DriftCase) => string, keys: readonly string[]): Map<string, Tally> {
  const groups = new Map<string, Tally>(keys.map((k) => [k, emptyTally()]));
  for (const { case: c, verdict } of run.judged) {
    const key = keyOf(c);
    let t = groups.get(key);
    if (t === undefined) groups.set(key, (t = emptyTally()));
    addTo(t, c, verdict);
  }
  return groups;
}

const COLUMNS = ["correct", "refused", "wrong", "doubtful", "needless", "mustLand"] as const;

/** A plain-text table of tallies (for test failure output). */
export function formatTallies(title: string, groups: ReadonlyMap<string, Tally>): string {
  const rows = [...groups].filter(([, t]) => COLUMNS.some((c) => t[c] > 0));
  const width = Math.max(title.length, ...rows.map(([k]) => k.length));
  const head = [title.padEnd(width), ...COLUMNS.map((c) => c.padStart(9))].join(" ");
  const body = rows.map(([k, t]) => [k.padEnd(width), ...COLUMNS.map((c) => String(t[c]).padStart(9))].join(" "));
  return [head, ...body].join("\n");
}

/** Multi-edit mode: several edits per reply (one file, several files, transactions); tallied per kind. */
export interface MultiJudged {
  readonly case: MultiCase;
  readonly verdict: MultiVerdict;
}

export interface MultiRun {
  readonly judged: readonly MultiJudged[];
  /** Keyed by multi-edit kind. */
  readonly kinds: ReadonlyMap<string, Tally>;
  readonly total: Tally;
}

export async function runMulti(count: number, seed: number, first = 0): Promise<MultiRun> {
  const judged: MultiJudged[] = [];
  const kinds = new Map<string, Tally>(MULTI_KINDS.map((k) => [k, emptyTally()]));
  const total = emptyTally();
  for (let i = first; i < first + count; i++) {
    const c = generateMultiCase(seed, i);
    const verdict = await judgeMulti(c);
    judged.push({ case: c, verdict });
    for (const t of [kinds.get(c.kind)!, total]) {
      t[verdict.outcome]++;
      if (c.mustLand) t.mustLand++;
      if (verdict.needless) t.needless++;
    }
  }
  return { judged, kinds, total };
}

/** A multi-edit case in full; the block at fault is also shown alone (a single-edit reproduction). */
export function describeMulti({ case: c, verdict: v }: MultiJudged): string {
  const files = c.files.map((f) =>
    f.kind === "edit"
      ? `  ${f.path} (${f.dialect}): ${f.blocks.map((b) => `${b.sub.drift}@${b.sub.window.start}+${b.sub.window.size}`).join(", ")}`
      : `  ${f.kind} ${f.path} (${f.dialect})`,
  );
  const culprit = c.files
    .flatMap((f) =>
      f.kind === "edit" ? f.blocks.map((b, k) => ({ b, where: `${f.path} block ${k + 1}/${f.blocks.length}` })) : [],
    )
    .find((x) => x.where === v.where);
  return [
    `multi case ${c.id}: ${v.outcome}${v.needless ? " (needless)" : ""} — ${c.kind}, expect ${c.expect}${v.where === undefined ? "" : `, at ${v.where}`}`,
    `  strategy ${v.strategy ?? "-"}, reason ${v.reason ?? "-"}`,
    ...(v.detail === undefined ? [] : [`  ${v.detail}`]),
    ...files,
    "  reply:",
    ...clip(c.reply.split("\n"), 60).map((l) => `  | ${l}`),
    ...(culprit === undefined ? [] : ["  that block alone:", describeCase({ case: culprit.b.sub, verdict: v })]),
  ].join("\n");
}
