/**
 * The fix loop's own overhead: `patchsmith fix` run as a user runs it (the built CLI, a fake OpenAI-compatible
 * server on 127.0.0.1 answering at once, `--test true`, `--no-setup`) on a generated repository of 2,000 files,
 * minus what is not the loop's own: the clone (disk-bound; a plain `git clone` is shown beside it), set-up, the
 * model and the test runs (their sandbox included). The report's phase timings say where the rest goes.
 * Target: under 1 s.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startFakeOpenAI } from "../test/fakes/openai-server.js";
import { BUILT_CLI } from "../test/global-build.js";
import type { Section } from "./section.js";
import { markdownTable } from "./table.js";

export interface LoopOverheadResult {
  /** Wall time of the CLI minus clone, set-up, model and tests. */
  readonly overheadMs: number;
  /** A plain `git clone` of the same repository. */
  readonly cloneMs: number;
  readonly totalMs: number;
  readonly modelMs: number;
  readonly testMs: number;
  readonly files: number;
  readonly targetMs: number;
  readonly status: string;
  /** The report's phase timings (ms), and the process's start and exit. */
  readonly stagesMs: Readonly<Record<string, number>>;
}

const run = promisify(execFile);

const git = (cwd: string, args: readonly string[]): string =>
  execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "commit.gpgSign=false", ...args], {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "b",
      GIT_AUTHOR_EMAIL: "b@b",
      GIT_COMMITTER_NAME: "b",
      GIT_COMMITTER_EMAIL: "b@b",
    },
  });

/** Modules that import each other, so the repo map has references to rank. */
function generateRepo(dir: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const path = join(dir, `src/mod${i % 40}/file${i}.ts`);
    mkdirSync(dirname(path), { recursive: true });
    const dep = (i * 7) % files;
    writeFileSync(
      path,
      [
        `import { compute${dep} } from "../mod${dep % 40}/file${dep}.js";`,
        "",
        `/** Module ${i}. */`,
        `export function compute${i}(x: number): number {`,
        `  return compute${dep}(x) + ${i};`,
        "}",
        "",
        `export class Widget${i} {`,
        `  render(): string {`,
        `    return "widget ${i}";`,
        "  }",
        "}",
        "",
      ].join("\n"),
    );
  }
  writeFileSync(join(dir, "README.md"), "# generated\n");
  git(dir, ["init", "--quiet", "--initial-branch=main"]);
  git(dir, ["add", "--all"]);
  git(dir, ["commit", "--quiet", "-m", "generated"]);
}

/** The phases the overhead leaves out: the clone (disk-bound), set-up, the model and the tests. */
const EXCLUDED = ["clone", "setup", "model", "tests", "baseline"] as const;

export async function runLoopOverheadBench(options: { files?: number } = {}): Promise<LoopOverheadResult> {
  const files = options.files ?? 2000;
  const root = mkdtempSync(join(tmpdir(), "patchsmith-bench-loop-"));
  const reply = [
    "src/mod2/file42.ts",
    "```",
    "<<<<<<< SEARCH",
    '    return "widget 42";',
    "=======",
    '    return "widget forty-two";',
    ">>>>>>> REPLACE",
    "```",
    "COMMIT: feat(widget): spell out the number",
  ].join("\n");
  const model = await startFakeOpenAI([reply]);
  try {
    const repo = join(root, "repo");
    mkdirSync(repo);
    generateRepo(repo, files);
    let started = performance.now();
    git(root, ["clone", "--quiet", "--", repo, join(root, "plain-clone")]);
    const cloneMs = performance.now() - started;
    started = performance.now();
    // The built CLI as a user runs it: process start and module loading are part of the overhead.
    const { stdout } = await run(
      process.execPath,
      [
        BUILT_CLI,
        "fix",
        "--repo",
        repo,
        "--no-setup",
        "--test",
        "true",
        "--json",
        "Widget42.render() should spell out its number in src/mod2/file42.ts",
      ],
      {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: root,
          OPENAI_BASE_URL: model.url,
          OPENAI_API_KEY: "sk-bench-0123456789abcdef",
          PATCHSMITH_LOG_LEVEL: "error",
        },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: unknown) => ({ stdout: (error as { stdout?: string }).stdout ?? "{}" }));
    const totalMs = performance.now() - started;
    const report = JSON.parse(stdout) as { status?: string; timings?: Record<string, number> };
    const timings = report.timings ?? {};
    const excluded = EXCLUDED.reduce((sum, phase) => sum + (timings[phase] ?? 0), 0);
    return {
      overheadMs: Math.round(totalMs - excluded),
      cloneMs: Math.round(cloneMs),
      totalMs: Math.round(totalMs),
      modelMs: timings.model ?? 0,
      testMs: (timings.tests ?? 0) + (timings.baseline ?? 0),
      files,
      targetMs: 1000,
      status: report.status ?? "crashed",
      stagesMs: {
        ...timings,
        "process start and exit (total − the run's own total)": Math.round(totalMs - (timings.total ?? totalMs)),
      },
    };
  } finally {
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const RUNS = 3;
/** The same at ten times the size, once: the loop must not grow with the repository faster than git does. */
const LARGE_FILES = 20_000;
/** The overhead at 20,000 files before the lexical context (issue 9's measure), which it must not exceed. */
const LARGE_BEFORE_MS = 3200;

/** The bench section: three runs (a fresh repository each), the median by overhead, beside a plain clone. */
export const loopOverheadSection: Section = {
  name: "loop-overhead",
  run: async ({ log }) => {
    const runs: LoopOverheadResult[] = [];
    for (let i = 0; i < RUNS; i++) {
      log(`loop overhead: run ${i + 1}/${RUNS}`);
      runs.push(await runLoopOverheadBench());
    }
    runs.sort((a, b) => a.overheadMs - b.overheadMs);
    const median = runs[Math.floor(runs.length / 2)]!;
    log(`loop overhead: one run at ${LARGE_FILES} files`);
    const large = await runLoopOverheadBench({ files: LARGE_FILES });
    const stages = Object.entries(median.stagesMs).map(([stage, ms]) => [stage, String(ms)]);
    const markdown = [
      "## Loop overhead (patchsmith fix, model and tests excluded)",
      "",
      `\`node dist/cli.js fix\` on a generated repository of ${median.files} files; a fake model answering at once, \`--test true\`, \`--no-setup\`; median of ${RUNS} runs.`,
      "",
      markdownTable(
        ["measure", "ms"],
        [
          ["loop overhead (all but clone, set-up, model and tests)", String(median.overheadMs)],
          ["plain `git clone` of the same repository", String(median.cloneMs)],
          ["all runs' overhead", runs.map((r) => r.overheadMs).join(" / ")],
          [
            `loop overhead at ${LARGE_FILES} files (one run; its context phase)`,
            `${large.overheadMs} (${large.stagesMs.context ?? "?"})`,
          ],
          [`plain \`git clone\` at ${LARGE_FILES} files`, String(large.cloneMs)],
        ],
      ),
      "",
      "Time per phase (median run; the baseline and the context run side by side):",
      "",
      markdownTable(["phase", "ms"], stages),
      "",
    ].join("\n");
    const met = median.overheadMs < median.targetMs && median.status === "success";
    return {
      markdown,
      figures: { median, runs, large },
      targets: [
        { target: `loop overhead < ${median.targetMs} ms`, measured: `${median.overheadMs} ms`, met },
        {
          target: `loop overhead at ${LARGE_FILES} files < ${LARGE_BEFORE_MS} ms (before the lexical context)`,
          measured: `${large.overheadMs} ms`,
          met: large.overheadMs < LARGE_BEFORE_MS && large.status === "success",
        },
      ],
      findings: [median, large]
        .filter((r) => r.status !== "success")
        .map((r) => `loop-overhead: the scripted fix on ${r.files} files ended ${r.status}`),
    };
  },
};
