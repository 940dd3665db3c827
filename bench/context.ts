/**
 * Context: are the files a fix needs in the model's first prompt? Real bug-fix commits of real repositories,
 * drawn at run time from local git mirrors (PATCHSMITH_BENCH_MIRRORS, colon-separated git directories, else every
 * `/work/.mirror/<owner>+<name>/repo`; nothing third-party is committed): the request is the commit's message, the
 * gold files are the source files it changed, the tree is the one before it. The first prompt is built exactly as
 * the loop builds it (set-up and tests aside, so no failing test adds files), and scored: the share of cases with
 * every gold file in full, the share with every gold file at least named (shown in part, listed, or in the map),
 * and the prompt's size (characters / 4). Where the fix changed existing test files, the context is built a second
 * time as after a red baseline, with those files' tests failing (a failure at the first line the fix changed in
 * each): the path every request whose tests already fail takes. And a third time with other tests failing too, as
 * in a repository where some tests fail offline or on this platform whatever the request: the first test files
 * the fix did not touch, one failure each, in a frame at their first line.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { createFsTree } from "../src/adapters/fs-tree.js";
import { createGitSandboxFactory } from "../src/adapters/git-sandbox.js";
import { DEFAULT_FORBIDDEN } from "../src/config/repo-config.js";
import { DEFAULT_EDIT_FORMAT, buildSystemPrompt, buildTaskPrompt } from "../src/agent/build-prompt.js";
import { gatherContext } from "../src/agent/context/gather.js";
import type { GatheredContext } from "../src/agent/context/types.js";
import type { FailureBlock } from "../src/agent/failures/types.js";
import { readMany } from "../src/agent/read-files.js";
import { looksLikeBugReport } from "../src/agent/reproduction.js";
import {
  goldFiles,
  instructionOf,
  isFixMessage,
  MIN_TERMS,
  parseNameStatus,
  type ContextCase,
  failingTestFiles,
  untouchedTestFiles,
} from "./context-cases.js";
import type { Section, SectionReport } from "./section.js";
import { markdownTable, percent } from "./table.js";

const run = promisify(execFile);
/** `git -C dir args…`, its output. */
export const git = async (dir: string, args: readonly string[]): Promise<string> =>
  (await run("git", ["-C", dir, ...args], { maxBuffer: 64 * 1024 * 1024 })).stdout;

const CASES_PER_REPO = 6;
const COMMITS_SCANNED = 1500;
export const FULL_TARGET = 0.9;
export const TOKENS_TARGET = 30_000;

export function mirrorsFrom(env: Readonly<Record<string, string | undefined>>): string[] {
  const listed = env.PATCHSMITH_BENCH_MIRRORS;
  if (listed !== undefined && listed.trim() !== "") return listed.split(":").filter((p) => p !== "");
  const root = "/work/.mirror";
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .map((name) => join(root, name, "repo"))
    .filter((dir) => existsSync(dir))
    .sort();
}

/** `owner/name` of `/work/.mirror/<owner>+<name>/repo`, or the name of any bare clone (`express.git`). */
export function mirrorName(mirror: string): string {
  const parts = mirror.replace(/\/+$/, "").split("/");
  return (parts.at(-1) === "repo" ? parts.at(-2) : parts.at(-1)?.replace(/\.git$/, ""))?.replace("+", "/") ?? mirror;
}

async function casesOf(mirror: string): Promise<ContextCase[]> {
  const name = mirrorName(mirror);
  const log = await git(mirror, [
    "log",
    "--no-merges",
    `-n${String(COMMITS_SCANNED)}`,
    "--format=%H%x1f%s%x1f%b%x1e",
    "HEAD",
  ]);
  const cases: ContextCase[] = [];
  for (const record of log.split("\x1e")) {
    if (cases.length >= CASES_PER_REPO) break;
    const [sha = "", subject = "", body = ""] = record.replace(/^\n+/, "").split("\x1f");
    if (!/^[0-9a-f]{40}$/.test(sha) || !isFixMessage(subject, body)) continue;
    const changes = parseNameStatus(await git(mirror, ["diff-tree", "--no-commit-id", "-r", "--name-status", sha]));
    const gold = goldFiles(changes);
    if (gold === undefined) continue;
    const failingTests = failingTestFiles(changes);
    cases.push({ repo: name, sha, instruction: instructionOf(subject, body), gold, failingTests });
  }
  return cases;
}

export interface CaseResult {
  readonly repo: string;
  readonly sha: string;
  readonly full: boolean;
  /** Every gold file in full, or shown in part with every line the fix changed in it. */
  readonly located: boolean;
  readonly named: boolean;
  readonly tokens: number;
  readonly ms: number;
  readonly missing: readonly string[];
  /** With the tests the fix changed failing: every gold file in full, and the prompt's size; none without such tests. */
  readonly withFailing?: Score;
  /** As `withFailing`, with UNRELATED_FAILING other test files failing too. */
  readonly withUnrelated?: Score;
}

/** A context scored: every gold file in full or not (those missing), and the first prompt's size. */
interface Score {
  readonly full: boolean;
  /** Every gold file in full, or, shown in part, with every line the fix changed in it among the lines shown. */
  readonly located: boolean;
  readonly tokens: number;
  readonly missing: readonly string[];
}

/** How many test files the fix did not touch fail in the crowded variant. */
const UNRELATED_FAILING = 3;

/** Failures of test files the fix did not touch, as an offline test fails: nothing to do with the request. */
function unrelatedFailures(paths: readonly string[], item: ContextCase): FailureBlock[] {
  return untouchedTestFiles(paths, item.failingTests, UNRELATED_FAILING).map((file) => ({
    name: `${file} (fails whatever the request)`,
    text: `Error: getaddrinfo EAI_AGAIN registry.example\n    at Context.<anonymous> (${file}:1:1)`,
  }));
}

/**
 * A failure in each test file the fix changed, at the first line it changed there, as a runner's frame names it,
 * with the first lines the fix wrote there as the runner's code frame (what a failing test's output shows of it).
 */
async function failuresOf(checkout: string, item: ContextCase): Promise<FailureBlock[]> {
  const failures: FailureBlock[] = [];
  for (const file of item.failingTests) {
    const diff = await git(checkout, ["diff", "--unified=0", `${item.sha}^`, item.sha, "--", file]);
    const line = /^@@ -(\d+)/m.exec(diff)?.[1] ?? "1";
    const frame = diff
      .split("\n")
      .filter((l) => l.startsWith("+") && !l.startsWith("+++"))
      .slice(0, 3)
      .map((l) => `  > ${l.slice(1).trim()}`);
    failures.push({
      name: `${file} (changed by the fix)`,
      text: ["Error: failed", ...frame, `    at Context.<anonymous> (${file}:${line}:1)`].join("\n"),
    });
  }
  return failures;
}

async function measureCase(checkout: string, item: ContextCase): Promise<CaseResult> {
  await git(checkout, ["checkout", "--quiet", "--force", `${item.sha}^`]);
  await git(checkout, ["clean", "-fdxq"]);
  const started = performance.now();
  const sandbox = await createGitSandboxFactory().clone({ repo: checkout });
  try {
    const tree = createFsTree(sandbox.dir);
    const paths = await sandbox.listFiles();
    const input = {
      instruction: item.instruction,
      paths,
      read: (wanted: readonly string[]) => readMany(tree, wanted),
      termCounts: (terms: readonly string[]) => sandbox.termCounts(terms),
      sizes: () => sandbox.fileSizes(),
    };
    const context = await gatherContext(input);
    const changed = await changedLines(checkout, item);
    const first = scoreContext(context, item, changed);
    const ms = performance.now() - started;
    const seen = (path: string): boolean =>
      context.files.some((f) => f.path === path) ||
      context.omitted.includes(path) ||
      context.repoMap.text.includes(path);
    // As after a red baseline whose failing tests are those the fix changed (their output itself left out).
    const failing = item.failingTests.length === 0 ? [] : await failuresOf(checkout, item);
    const withFailing =
      failing.length === 0 ? undefined : scoreContext(await gatherContext(input, failing), item, changed);
    const withUnrelated =
      failing.length === 0
        ? undefined
        : scoreContext(await gatherContext(input, [...unrelatedFailures(paths, item), ...failing]), item, changed);
    return {
      repo: item.repo,
      sha: item.sha,
      ...first,
      named: item.gold.every(seen),
      ms,
      ...(withFailing === undefined ? {} : { withFailing }),
      ...(withUnrelated === undefined ? {} : { withUnrelated }),
    };
  } finally {
    await sandbox.dispose();
  }
}

/** A range of lines (1-based, inclusive) of a gold file before the fix. */
interface LineRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Per gold file, the lines the fix changed in it (its hunks' old sides; a pure insertion after line n is lines n
 * and n + 1, between which it goes).
 */
async function changedLines(checkout: string, item: ContextCase): Promise<ReadonlyMap<string, LineRange[]>> {
  const ranges = new Map<string, LineRange[]>();
  for (const file of item.gold) {
    const diff = await git(checkout, ["diff", "--unified=0", `${item.sha}^`, item.sha, "--", file]);
    ranges.set(
      file,
      [...diff.matchAll(/^@@ -(\d+)(?:,(\d+))? /gm)].map((m) => {
        const start = Number(m[1]);
        const count = m[2] === undefined ? 1 : Number(m[2]);
        return count === 0 ? { start: Math.max(1, start), end: start + 1 } : { start, end: start + count - 1 };
      }),
    );
  }
  return ranges;
}

/**
 * Whether a context holds every gold file in full (or at least the lines the fix changed in it), and the first
 * prompt's size with it (characters / 4).
 */
function scoreContext(
  context: GatheredContext,
  item: ContextCase,
  changed: ReadonlyMap<string, readonly LineRange[]>,
): Score {
  const system = buildSystemPrompt({
    forbidden: [...DEFAULT_FORBIDDEN],
    reproduce: looksLikeBugReport(item.instruction),
    format: DEFAULT_EDIT_FORMAT,
  });
  const task = buildTaskPrompt({
    instruction: item.instruction,
    context,
    testCommand: undefined,
    before: null,
    redact: (t) => t,
  });
  const whole = new Set(context.files.filter((f) => f.lines === undefined).map((f) => f.path));
  const missing = item.gold.filter((p) => !whole.has(p));
  const shown = (path: string, range: LineRange): boolean =>
    context.files.some(
      (f) => f.path === path && f.lines !== undefined && f.lines.start <= range.start && range.end <= f.lines.end,
    );
  const located = missing.every((path) => (changed.get(path) ?? []).every((range) => shown(path, range)));
  return { full: missing.length === 0, located, tokens: Math.ceil((system.length + task.length) / 4), missing };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.floor((sorted.length - 1) / 2)] ?? 0);
};
const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
};

/** The cases scored in a variant, each with that variant's score in place of the first prompt's. */
const scoredWith = (results: readonly CaseResult[], variant: "withFailing" | "withUnrelated"): CaseResult[] =>
  results.flatMap((r) => {
    const score = r[variant];
    return score === undefined ? [] : [{ ...r, ...score }];
  });

const missLine = (r: CaseResult): string => `${r.repo}@${r.sha.slice(0, 8)}: ${r.missing.join(", ")}`;

/** The cases not in full, under a heading; nothing when every case is. */
function missList(heading: string, list: readonly CaseResult[]): string[] {
  const misses = list.filter((r) => !r.full).map(missLine);
  return misses.length === 0 ? [] : [heading, "", ...misses.map((m) => `- ${m}`), ""];
}

/** A mirror git cannot read (a partial snapshot), named with git's own complaint: left out, not the end of a run. */
export function unreadableMirror(mirror: string, error: unknown): string {
  const text = String(error);
  return `${mirrorName(mirror)}: ${text.split("\n").find((l) => l.startsWith("fatal")) ?? text.slice(0, 120)}`;
}

export async function runContextBench(
  mirrors: readonly string[],
  log: (line: string) => void,
): Promise<{ results: CaseResult[]; unreadable: string[] }> {
  const results: CaseResult[] = [];
  const unreadable: string[] = [];
  for (const mirror of mirrors) {
    const checkout = mkdtempSync(join(tmpdir(), "patchsmith-bench-ctx-"));
    try {
      const cases = await casesOf(mirror);
      await run("git", ["clone", "--quiet", "--shared", "--no-checkout", mirror, checkout]);
      for (const item of cases) {
        const result = await measureCase(checkout, item);
        log(
          `context: ${item.repo} ${item.sha.slice(0, 8)} ${result.full ? "full" : `missing ${result.missing.join(", ")}`} ${String(result.tokens)} tokens`,
        );
        results.push(result);
      }
    } catch (error) {
      unreadable.push(unreadableMirror(mirror, error));
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  }
  return { results, unreadable };
}

export const contextSection: Section = {
  name: "context",
  async run({ log }): Promise<SectionReport> {
    const mirrors = mirrorsFrom(process.env);
    if (mirrors.length === 0) {
      const note = "No repository mirrors (set PATCHSMITH_BENCH_MIRRORS to git directories): nothing measured.";
      return { markdown: `## Context\n\n${note}\n`, figures: { skipped: true }, targets: [], findings: [] };
    }
    const { results, unreadable } = await runContextBench(mirrors, log);
    const repos = [...new Set(results.map((r) => r.repo))];
    const row = (label: string, list: readonly CaseResult[]) => [
      label,
      String(list.length),
      percent(list.filter((r) => r.full).length, list.length),
      percent(list.filter((r) => r.located).length, list.length),
      percent(list.filter((r) => r.named).length, list.length),
      String(median(list.map((r) => r.tokens))),
      String(
        quantile(
          list.map((r) => r.tokens),
          0.9,
        ),
      ),
      `${median(list.map((r) => r.ms)).toFixed(0)} ms`,
    ];
    const table = markdownTable(
      [
        "repository",
        "cases",
        "gold in full",
        "changed lines shown",
        "gold named",
        "median tokens",
        "p90 tokens",
        "median time",
      ],
      [
        ...repos.map((repo) =>
          row(
            repo,
            results.filter((r) => r.repo === repo),
          ),
        ),
        row("**all**", results),
      ],
    );
    const full = results.filter((r) => r.full).length / Math.max(1, results.length);
    const tokens = median(results.map((r) => r.tokens));
    const red = scoredWith(results, "withFailing");
    const redFull = red.filter((r) => r.full).length;
    const redLines = [
      `With the tests the fix changed failing (${String(red.length)} of the cases, the context after a red baseline): ` +
        `all gold files in full ${percent(redFull, red.length)} (the same cases without failures: ` +
        `${percent(results.filter((r) => r.withFailing !== undefined && r.full).length, red.length)}); median ` +
        `${String(median(red.map((r) => r.tokens)))} tokens, p90 ${String(
          quantile(
            red.map((r) => r.tokens),
            0.9,
          ),
        )}.`,
      "",
      ...missList("Not in full with failing tests:", red),
    ];
    const crowded = scoredWith(results, "withUnrelated");
    const crowdedFull = crowded.filter((r) => r.full).length;
    const crowdedLines = [
      `With ${String(UNRELATED_FAILING)} other test files failing too (whatever the request, as offline tests do): ` +
        `all gold files in full ${percent(crowdedFull, crowded.length)}; median ` +
        `${String(median(crowded.map((r) => r.tokens)))} tokens.`,
      "",
      ...missList("Not in full with other tests failing too:", crowded),
    ];
    return {
      markdown: [
        "## Context: the first prompt on real bug-fix commits",
        "",
        `${String(results.length)} fix commits of ${String(repos.length)} repositories: the ${String(CASES_PER_REPO)} most recent per repository whose message reads like a fix, names at least ${String(MIN_TERMS)} words that can locate code, and that change 1–2 existing source files.`,
        "",
        "Changed lines shown: every gold file in full, or (one too big to show whole) shown in part with every line " +
          "the fix changed among the lines shown.",
        "",
        table,
        "",
        ...missList("Gold files not given in full:", results),
        ...missList(
          "Of those, the cases where the lines the fix changed were not all shown:",
          results.map((r) => ({ ...r, full: r.located })),
        ),
        ...redLines,
        ...crowdedLines,
      ].join("\n"),
      figures: {
        cases: results.length,
        full,
        located: results.filter((r) => r.located).length / Math.max(1, results.length),
        named: results.filter((r) => r.named).length / Math.max(1, results.length),
        medianTokens: tokens,
        redBaseline: { cases: red.length, full: redFull / Math.max(1, red.length) },
        crowdedBaseline: { cases: crowded.length, full: crowdedFull / Math.max(1, crowded.length) },
        results,
      },
      targets: [
        {
          target: `gold files in full in the first prompt ≥ ${String(FULL_TARGET * 100)} %`,
          measured: percent(full * results.length, results.length),
          met: full >= FULL_TARGET,
        },
        {
          target: `median first prompt < ${TOKENS_TARGET.toLocaleString("en-US")} tokens`,
          measured: `${tokens.toLocaleString("en-US")} tokens`,
          met: tokens < TOKENS_TARGET,
        },
      ],
      findings: unreadable.map((m) => `context: mirror left out, git cannot read it (${m})`),
    };
  },
};
