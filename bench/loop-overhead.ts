/**
 * The fix loop's own overhead: everything but model and test time (clone, context and repo map, apply, commit,
 * diff), on a generated repository of a few thousand files, with a zero-latency model and a no-op test runner,
 * beside a plain `git clone` of the same repository. Target: overhead under 2 s.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { createConsoleLogger } from "../src/adapters/console-logger.js";
import { createFsTree } from "../src/adapters/fs-tree.js";
import { createGitSandboxFactory } from "../src/adapters/git-sandbox.js";
import { systemClock } from "../src/adapters/system-clock.js";
import { runFix } from "../src/agent/run-fix.js";
import type { ModelClient } from "../src/ports/model-client.js";
import type { RunSummary, SandboxRunner } from "../src/ports/sandbox-runner.js";
import type { Section } from "./section.js";
import { markdownTable } from "./table.js";

export interface LoopOverheadResult {
  /** Wall time of runFix minus the time spent inside the model and the test runner. */
  readonly overheadMs: number;
  /** A plain `git clone` of the same repository. */
  readonly cloneMs: number;
  readonly totalMs: number;
  readonly modelMs: number;
  readonly testMs: number;
  readonly files: number;
  readonly targetMs: number;
  readonly status: string;
  /** Time from each progress stage to the next (cloning, testing-before, asking-model, ...). */
  readonly stagesMs: Readonly<Record<string, number>>;
}

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

export async function runLoopOverheadBench(options: { files?: number } = {}): Promise<LoopOverheadResult> {
  const files = options.files ?? 3000;
  const root = mkdtempSync(join(tmpdir(), "patchsmith-bench-loop-"));
  try {
    const repo = join(root, "repo");
    mkdirSync(repo);
    generateRepo(repo, files);

    let started = performance.now();
    git(root, ["clone", "--quiet", "--", repo, join(root, "plain-clone")]);
    const cloneMs = performance.now() - started;

    let modelMs = 0;
    let testMs = 0;
    const reply = [
      "src/mod2/file42.ts",
      "```ts",
      "<<<<<<< SEARCH",
      '    return "widget 42";',
      "=======",
      '    return "widget forty-two";',
      ">>>>>>> REPLACE",
      "```",
      "COMMIT: feat(widget): spell out the number",
    ].join("\n");
    const model: ModelClient = {
      complete: () => {
        const t = performance.now();
        const response = { text: reply, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } };
        modelMs += performance.now() - t;
        return Promise.resolve(response);
      },
    };
    const runner: SandboxRunner = {
      run: (request) => {
        const t = performance.now();
        const summary: RunSummary = {
          command: request.command,
          passed: true,
          exitCode: 0,
          timedOut: false,
          output: "",
          droppedBytes: 0,
          durationMs: 0,
        };
        testMs += performance.now() - t;
        return Promise.resolve(summary);
      },
      describe: () => Promise.resolve({ sandbox: "none", detail: "bench" }),
      reclaim: () => Promise.resolve(),
    };
    const stagesMs: Record<string, number> = {};
    let stage = "start";
    let stageStart = performance.now();
    const onProgress = (next: string): void => {
      const now = performance.now();
      stagesMs[stage] = Math.round((stagesMs[stage] ?? 0) + now - stageStart);
      stage = next;
      stageStart = now;
    };
    started = performance.now();
    const report = await runFix(
      {
        git: createGitSandboxFactory(),
        model,
        runner,
        clock: systemClock,
        logger: createConsoleLogger({ level: "silent" }),
        files: (dir) => createFsTree(dir),
        tempRoot: root,
      },
      {
        repo,
        instruction: "Widget42.render() should spell out its number in src/mod2/file42.ts",
        testCommand: "true",
        onProgress,
      },
    );
    const totalMs = performance.now() - started;
    return {
      overheadMs: Math.round(totalMs - modelMs - testMs),
      cloneMs: Math.round(cloneMs),
      totalMs: Math.round(totalMs),
      modelMs: Math.round(modelMs),
      testMs: Math.round(testMs),
      files,
      targetMs: 2000,
      status: report.status,
      stagesMs,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const RUNS = 3;

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
    const stages = Object.entries(median.stagesMs).map(([stage, ms]) => [stage, String(ms)]);
    const markdown = [
      "## Loop overhead (patchsmith fix, model and tests excluded)",
      "",
      `A generated repository of ${median.files} files; zero-latency model, no-op test command; median of ${RUNS} runs.`,
      "",
      markdownTable(
        ["measure", "ms"],
        [
          ["loop overhead (clone, context, apply, commit, diff)", String(median.overheadMs)],
          ["plain `git clone` of the same repository", String(median.cloneMs)],
          ["all runs' overhead", runs.map((r) => r.overheadMs).join(" / ")],
        ],
      ),
      "",
      "Time per stage (median run):",
      "",
      markdownTable(["stage", "ms"], stages),
      "",
    ].join("\n");
    const met = median.overheadMs < median.targetMs && median.status === "success";
    return {
      markdown,
      figures: { median, runs },
      targets: [{ target: `loop overhead < ${median.targetMs} ms`, measured: `${median.overheadMs} ms`, met }],
      findings: median.status === "success" ? [] : [`loop-overhead: the scripted fix ended ${median.status}`],
    };
  },
};
