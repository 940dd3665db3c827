/**
 * Real fixes: real bug-fix commits of real projects (real-fix-cases.ts) through the whole loop, as a user runs it:
 * the built CLI's `patchsmith fix` on a clone at the commit's parent with the commit's test changes committed (so
 * its new tests fail), a model on 127.0.0.1 that answers with the commit's own code change as a unified diff (and
 * `DONE` after), set-up from the registries or the host's package settings, the tests in the sandbox. What is
 * measured is the loop around the engine on real repositories: set-up, test detection and reading, the commit.
 * Cases whose mirror is absent are listed as skipped; nothing third-party is committed.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { BUILT_CLI } from "../test/global-build.js";
import { startFakeOpenAI } from "../test/fakes/openai-server.js";
import { git, mirrorName, mirrorsFrom } from "./context.js";
import { REAL_FIX_CASES, type RealFixCase } from "./real-fix-cases.js";
import type { Section } from "./section.js";
import { markdownTable } from "./table.js";
import { asReply } from "./tools.js";

const exec = promisify(execFile);
const BUFFER = { maxBuffer: 64 * 1024 * 1024 } as const;
/** One case's whole run, set-up included, at most. */
const CASE_TIMEOUT_MS = 20 * 60_000;

/** A path the fix's tests live at: its changes are committed first, the rest is the model's reply. */
export const isTestPath = (path: string): boolean =>
  /(?:^|\/)(?:tests?|__tests__|spec)\/|(?:^|\/)test[^/]*\.[cm]?[jt]sx?$|(?:^|\/)test_[^/]*\.py$|_test\.(?:py|go)$|\.(?:test|spec)\.[cm]?[jt]sx?$/.test(
    path,
  );

interface Outcome {
  readonly fixCase: RealFixCase;
  readonly status: string;
  readonly setup: string;
  readonly before: string;
  readonly after: string;
  readonly seconds: number;
  readonly right: boolean;
  /** The fix's source files (not its docs or changelog) the first prompt showed, of how many. */
  readonly shown: string;
}

interface TestSide {
  readonly passed: boolean;
  readonly failing?: readonly string[];
}

const describeTests = (side: TestSide | null | undefined): string =>
  side === null || side === undefined
    ? "not run"
    : side.passed
      ? "pass"
      : `${String(side.failing?.length ?? 0)} failing`;

/** A source file, as opposed to a changelog or documentation the commit also touched. */
const isSource = (path: string): boolean =>
  /\.(?:[cm]?[jt]sx?|py|go|rs|rb|java|kt|php|cs|c|h|cc|cpp|swift)$/.test(path);

/** The clone at the fix's parent with the fix's test changes committed, and the rest of the fix as a diff. */
async function prepare(
  mirror: string,
  commit: string,
  dir: string,
): Promise<{ diff: string; sources: string[] } | undefined> {
  await git(tmpdir(), ["clone", "--quiet", mirror, dir]);
  await git(dir, ["checkout", "--quiet", "-b", "work", `${commit}^`]);
  const changed = (await git(dir, ["diff", "--name-only", `${commit}^`, commit])).split("\n").filter((p) => p !== "");
  const tests = changed.filter(isTestPath);
  const code = changed.filter((p) => !isTestPath(p));
  if (tests.length === 0 || code.length === 0) return undefined;
  // Applied as a diff, not checked out: a commit that deletes or renames a test file has no copy of it to check out.
  const testChange = join(dir, "..", "tests.diff");
  writeFileSync(testChange, await git(dir, ["diff", "--binary", `${commit}^`, commit, "--", ...tests]));
  await git(dir, ["apply", "--index", "--whitespace=nowarn", testChange]);
  await git(dir, [
    "-c",
    "user.name=bench",
    "-c",
    "user.email=bench@example.invalid",
    "commit",
    "--quiet",
    "-m",
    "tests",
  ]);
  return { diff: await git(dir, ["diff", `${commit}^`, commit, "--", ...code]), sources: code.filter(isSource) };
}

async function runCase(fixCase: RealFixCase, mirror: string): Promise<Outcome> {
  const base = mkdtempSync(join(tmpdir(), "patchsmith-bench-real-"));
  const started = performance.now();
  const failed = (status: string): Outcome => ({
    fixCase,
    status,
    setup: "",
    before: "",
    after: "",
    seconds: (performance.now() - started) / 1000,
    right: false,
    shown: "",
  });
  try {
    const dir = join(base, "repo");
    const prepared = await prepare(mirror, fixCase.commit, dir);
    if (prepared === undefined) return failed("no test and code change in the commit");
    const { diff, sources } = prepared;
    const subject = (await git(dir, ["log", "-1", "--format=%s", fixCase.commit])).trim();
    const server = await startFakeOpenAI([asReply(diff), "DONE", "DONE", "DONE"]);
    try {
      const args = [BUILT_CLI, "fix", "--repo", dir, "--branch", "work", "--model", "fake", "--json", subject];
      const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-bench" };
      // Exit 1 (not a success) still prints the report.
      const result = await exec(process.execPath, args, { env, timeout: CASE_TIMEOUT_MS, ...BUFFER }).catch(
        (error: unknown) => ({ stdout: (error as { stdout?: string }).stdout ?? "" }),
      );
      // PATCHSMITH_BENCH_REPORTS=folder keeps each case's report and first prompt there, to read what happened.
      const reports = process.env.PATCHSMITH_BENCH_REPORTS;
      if (reports !== undefined && reports !== "") {
        mkdirSync(reports, { recursive: true });
        const name = join(reports, `${fixCase.repo.replace("/", "+")}-${fixCase.commit}`);
        writeFileSync(`${name}.json`, result.stdout);
        // And what the model was first asked, as it read it.
        const first = server.chatRequests[0]?.messages.map((m) => `## ${m.role}\n\n${m.content}`).join("\n\n");
        if (first !== undefined) writeFileSync(`${name}.prompt.md`, first);
      }
      const report = JSON.parse(result.stdout || "{}") as {
        status?: string;
        setup?: { status: string; machinePackages?: string };
        tests?: { before: TestSide | null; after: TestSide | null };
        commits?: readonly unknown[];
        context?: { files: readonly { path: string }[] };
      };
      const shownPaths = new Set(report.context?.files.map((f) => f.path) ?? []);
      const setup =
        report.setup === undefined
          ? "none"
          : report.setup.machinePackages === undefined
            ? report.setup.status
            : `${report.setup.status}, over the machine's packages (no ${report.setup.machinePackages})`;
      const after = report.tests?.after;
      // Right: a commit, and no test that failed after it passed before (the fix's own tests pass).
      const before = new Set(report.tests?.before?.failing ?? []);
      const right =
        (report.commits?.length ?? 0) > 0 &&
        after !== null &&
        after !== undefined &&
        (after.passed || (after.failing ?? []).every((t) => before.has(t)));
      return {
        fixCase,
        status: report.status ?? "no report",
        setup,
        before: describeTests(report.tests?.before),
        after: describeTests(after),
        seconds: (performance.now() - started) / 1000,
        right,
        shown: `${String(sources.filter((p) => shownPaths.has(p)).length)} of ${String(sources.length)}`,
      };
    } finally {
      await server.close();
    }
  } catch (error) {
    return failed(`error: ${String(error).split("\n")[0]!}`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

export const realFixesSection: Section = {
  name: "real-fixes",
  async run({ log }) {
    const mirrors = new Map(mirrorsFrom(process.env).map((m) => [mirrorName(m), m]));
    // PATCHSMITH_BENCH_REAL_FIXES=owner/name,… runs those cases only.
    const only = process.env.PATCHSMITH_BENCH_REAL_FIXES?.split(",").filter((r) => r !== "");
    const outcomes: Outcome[] = [];
    const skipped: string[] = [];
    for (const fixCase of REAL_FIX_CASES) {
      if (only !== undefined && only.length > 0 && !only.includes(fixCase.repo)) continue;
      const mirror = mirrors.get(fixCase.repo);
      if (mirror === undefined) {
        skipped.push(fixCase.repo);
        continue;
      }
      log(`real-fixes: ${fixCase.repo} ${fixCase.commit}`);
      outcomes.push(await runCase(fixCase, mirror));
    }
    const rows = outcomes.map((o) => [
      `${o.fixCase.repo} ${o.fixCase.commit}`,
      o.fixCase.kind,
      o.setup,
      o.before,
      o.after,
      o.status,
      o.right ? "right" : "wrong",
      o.shown,
      `${o.seconds.toFixed(0)} s`,
    ]);
    const right = outcomes.filter((o) => o.right).length;
    const markdown = [
      "## Real fixes",
      "",
      "Real bug-fix commits through `patchsmith fix` (the built CLI), the model answering with the commit's own " +
        "change; right = committed, and every test failing after it failed before it. Fix's files shown: the source " +
        "files the commit changed that the first prompt showed the model (whole or in part).",
      "",
      outcomes.length === 0
        ? "No mirror of any case (fetch them to `/work/.mirror`, or set PATCHSMITH_BENCH_MIRRORS): nothing measured."
        : markdownTable(
            ["commit", "project", "set-up", "tests before", "after", "status", "result", "fix's files shown", "time"],
            rows,
          ),
      ...(skipped.length > 0 ? ["", `Skipped (no mirror): ${skipped.join(", ")}.`] : []),
      "",
    ].join("\n");
    return {
      markdown,
      figures: { outcomes, skipped },
      targets:
        outcomes.length === 0
          ? []
          : [
              {
                target: "every real fix committed with its tests passing",
                measured: `${String(right)} of ${String(outcomes.length)}`,
                met: right === outcomes.length,
              },
            ],
      findings: outcomes
        .filter((o) => !o.right)
        .map((o) => `real-fixes: ${o.fixCase.repo} ${o.fixCase.commit}: ${o.status}`),
    };
  },
};
