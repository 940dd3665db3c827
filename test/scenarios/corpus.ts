/**
 * The scenario corpus (test/fixtures/cases/*) and its runner. Shared by the vitest suite and the benchmark, so
 * it imports nothing from vitest: it returns an outcome and the evidence, and the caller decides what to assert.
 *
 * A run copies before/ into `<tmp>/root`, next to a sibling `<tmp>/outside/` holding a secret file (the target
 * of the symlinks some cases plant), applies reply.md with `applyReply`, and compares every file of the whole
 * temp folder byte for byte: the root with after/ (or before/ for a refusal), the sibling with its start state.
 */
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { applyReply } from "../../src/engine.js";

export const CASES_DIR = fileURLToPath(new URL("../fixtures/cases/", import.meta.url));
export const OUTSIDE_SECRET = "token: do-not-touch\n";

export type CaseFormat = "editblock" | "udiff" | "patch" | "whole" | "mixed";
export type Outcome = "correct" | "refused" | "wrong" | "missed";

export interface ScenarioCase {
  readonly id: string;
  readonly category: string;
  readonly format: CaseFormat;
  readonly expect: "apply" | "refuse";
  /** Reason codes of which at least one must appear among the failures of a refusal. */
  readonly reasons: readonly string[];
  /** Real lines of before/ that some failure message should quote. */
  readonly hint: readonly string[];
  readonly note: string;
  /** Absolute paths that must not exist after the run. */
  readonly outside: readonly string[];
  readonly dir: string;
  readonly reply: string;
}

export interface CaseRun {
  readonly id: string;
  readonly category: string;
  readonly expect: "apply" | "refuse";
  readonly outcome: Outcome;
  /** Why the outcome is what it is, in one line. */
  readonly detail: string;
  /** Reason codes of the failed results, in order. */
  readonly reasons: readonly string[];
  readonly messages: readonly string[];
  /** Hint lines no failure message quoted. */
  readonly missingHints: readonly string[];
  /** For already-applied cases: whether a failure message says the change is already there. */
  readonly saysAlready: boolean | undefined;
  /** Paths (relative to the temp folder) whose bytes differ from the expectation. */
  readonly differences: readonly string[];
}

/** A file's bytes as base64, or a symlink's target; keyed by path relative to the snapshot root. */
export type Snapshot = Map<string, string>;

export async function snapshotTree(root: string): Promise<Snapshot> {
  const out: Snapshot = new Map();
  if (!existsSync(root)) return out;
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const abs = join(dir, entry.name);
      const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      const stat = await lstat(abs);
      if (stat.isSymbolicLink()) out.set(rel, `link:${await readlink(abs)}`);
      else if (stat.isDirectory()) await walk(abs, rel);
      else out.set(rel, `file:${(await readFile(abs)).toString("base64")}`);
    }
  };
  await walk(root, "");
  return out;
}

/** Paths present in either snapshot whose entries differ. */
export function diffSnapshots(expected: Snapshot, actual: Snapshot): string[] {
  const keys = new Set([...expected.keys(), ...actual.keys()]);
  return [...keys].filter((k) => expected.get(k) !== actual.get(k)).sort();
}

const asStrings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

export async function loadCases(dir: string = CASES_DIR): Promise<ScenarioCase[]> {
  const ids = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const cases: ScenarioCase[] = [];
  for (const id of ids.sort()) {
    const caseDir = join(dir, id);
    const meta = JSON.parse(await readFile(join(caseDir, "case.json"), "utf8")) as Record<string, unknown>;
    const expect = meta.expect === "refuse" ? "refuse" : "apply";
    cases.push({
      id: typeof meta.id === "string" ? meta.id : id,
      category: typeof meta.category === "string" ? meta.category : "unknown",
      format: (typeof meta.format === "string" ? meta.format : "mixed") as CaseFormat,
      expect,
      reasons: asStrings(meta.reasons),
      hint: asStrings(meta.hint),
      note: typeof meta.note === "string" ? meta.note : "",
      outside: asStrings(meta.outside),
      dir: caseDir,
      reply: await readFile(join(caseDir, "reply.md"), "utf8"),
    });
  }
  return cases;
}

export interface RunOptions {
  /** "auto" (default) lets the engine detect the dialect; "declared" passes the case's format (mixed stays auto). */
  readonly format?: "auto" | "declared";
}

function classify(c: ScenarioCase, changed: boolean, matchesExpected: boolean, reasons: readonly string[]) {
  if (c.expect === "apply") {
    if (matchesExpected) return { outcome: "correct" as const, detail: "the tree equals after/" };
    if (!changed)
      return { outcome: "missed" as const, detail: `nothing changed; failures: ${reasons.join(", ") || "none"}` };
    return { outcome: "wrong" as const, detail: "the tree changed, but not to after/" };
  }
  if (changed) return { outcome: "wrong" as const, detail: "a refusal was expected, but something was written" };
  if (reasons.some((r) => c.reasons.includes(r)))
    return { outcome: "correct" as const, detail: `refused: ${reasons.join(", ")}` };
  return {
    outcome: "refused" as const,
    detail: `nothing written, but the failures were [${reasons.join(", ")}], expected one of [${c.reasons.join(", ")}]`,
  };
}

export async function runCase(c: ScenarioCase, options: RunOptions = {}): Promise<CaseRun> {
  const base = await mkdtemp(join(tmpdir(), `patchsmith-case-${c.id.slice(0, 40)}-`));
  const root = join(base, "root");
  const outside = join(base, "outside");
  try {
    await mkdir(outside);
    await writeFile(join(outside, "secret.txt"), OUTSIDE_SECRET);
    await mkdir(root);
    if (existsSync(join(c.dir, "before"))) {
      // verbatimSymlinks: a planted relative symlink must keep pointing where the case meant (`../outside`).
      await cp(join(c.dir, "before"), root, { recursive: true, verbatimSymlinks: true });
    }
    const start = await snapshotTree(base);
    const format = options.format === "declared" && c.format !== "mixed" ? c.format : "auto";
    let results: { ok: boolean; reason?: string; message?: string }[] = [];
    let threw: string | undefined;
    try {
      results = (await applyReply(c.reply, { root, format })).results;
    } catch (error) {
      threw = error instanceof Error ? error.message : String(error);
    }
    const end = await snapshotTree(base);
    const expectedRoot =
      c.expect === "apply" ? await snapshotTree(join(c.dir, "after")) : await snapshotTree(join(c.dir, "before"));
    const expected: Snapshot = new Map([...start].filter(([k]) => !k.startsWith("root/")));
    for (const [k, v] of expectedRoot) expected.set(`root/${k}`, v);
    const differences = diffSnapshots(expected, end);
    const escaped = c.outside.filter((p) => existsSync(p));
    // A canary that got written is removed again, so one failing run does not poison the next.
    await Promise.all(escaped.map((p) => rm(p, { force: true })));
    const failures = results.filter((r) => !r.ok);
    const reasons = failures.map((r) => r.reason ?? "unknown");
    const messages = failures.map((r) => r.message ?? "");
    const changed = diffSnapshots(start, end).length > 0 || escaped.length > 0;
    const verdict = classify(c, changed, differences.length === 0 && escaped.length === 0, reasons);
    const missingHints = c.hint.filter((line) => !messages.some((m) => m.includes(line.trim())));
    const saysAlready =
      c.note.includes("already") && c.expect === "refuse" ? messages.some((m) => /already/i.test(m)) : undefined;
    const detail = threw === undefined ? verdict.detail : `applyReply threw: ${threw}`;
    return {
      id: c.id,
      category: c.category,
      expect: c.expect,
      outcome: threw !== undefined && verdict.outcome === "correct" ? "refused" : verdict.outcome,
      detail: escaped.length > 0 ? `${detail}; wrote outside the root: ${escaped.join(", ")}` : detail,
      reasons,
      messages,
      missingHints,
      saysAlready,
      differences: [...differences, ...escaped],
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
