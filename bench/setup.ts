/**
 * Set-up, cold and warm: `npm ci` of a project with 40 dependencies from a registry on 127.0.0.1, in the sandbox
 * through the egress proxy, first with an empty package cache, then again (a second job on the same repository)
 * with the cache the first left. Also the sandbox's own cost: `true` in the sandbox against `true` bare.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { createSandboxRunner } from "../src/adapters/sandbox/runner.js";
import { cacheEnv } from "../src/agent/setup-plan.js";
import { writeFiles } from "../test/fakes/git-repos.js";
import { startFakeRegistry, type FakePackage } from "../test/fakes/npm-registry.js";
import type { Section } from "./section.js";
import { markdownTable } from "./table.js";

const run = promisify(execFile);
const PACKAGES = 40;
const ROUNDS = 20;
/** A registry across the internet answers in tens of milliseconds; on 127.0.0.1 it would hide what a cache saves. */
const REGISTRY_LATENCY_MS = 40;

function packages(): FakePackage[] {
  return Array.from({ length: PACKAGES }, (_, i) => ({
    name: `bench-dep-${String(i)}`,
    version: "1.0.0",
    files: { "index.js": `module.exports = ${String(i)};\n${"// padding\n".repeat(2000)}` },
  }));
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export interface SetupBench {
  readonly coldMs: number;
  readonly warmMs: number;
  readonly coldRequests: number;
  readonly warmRequests: number;
  readonly sandboxMs: number;
  readonly bareMs: number;
}

export async function runSetupBench(): Promise<SetupBench> {
  const registry = await startFakeRegistry(packages(), { latencyMs: REGISTRY_LATENCY_MS });
  const root = mkdtempSync(join(tmpdir(), "patchsmith-bench-setup-"));
  try {
    const dependencies = Object.fromEntries(packages().map((p) => [p.name, "^1.0.0"]));
    const project = join(root, "project");
    writeFiles(project, {
      "package.json": JSON.stringify({ name: "bench", version: "1.0.0", dependencies }),
      ".npmrc": `registry=${registry.url}\n`,
    });
    await run("npm", ["install", "--package-lock-only", "--ignore-scripts"], {
      cwd: project,
      env: { PATH: process.env.PATH ?? "", HOME: root, npm_config_cache: join(root, "host-cache") },
    });
    const runner = createSandboxRunner({ mode: "bwrap", setupHosts: [{ host: "127.0.0.1", port: registry.port }] });
    const cache = { dir: join(root, "cache"), writable: true, env: cacheEnv };
    const install = async (): Promise<{ ms: number; requests: number }> => {
      rmSync(join(project, "node_modules"), { recursive: true, force: true });
      const before = registry.requests.length;
      const started = performance.now();
      const result = await runner.run({
        command: "npm ci --prefer-offline",
        cwd: project,
        timeoutMs: 300_000,
        network: true,
        cache,
      });
      if (!result.passed) throw new Error(`npm ci failed:\n${result.output.slice(-2000)}`);
      return { ms: performance.now() - started, requests: registry.requests.length - before };
    };
    const cold = await install();
    const warm = await install();
    const sandboxed: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let started = performance.now();
      await runner.run({ command: "true", cwd: project, timeoutMs: 30_000 });
      sandboxed.push(performance.now() - started);
      started = performance.now();
      await run("sh", ["-c", "true"], { cwd: project });
      bare.push(performance.now() - started);
    }
    return {
      coldMs: cold.ms,
      warmMs: warm.ms,
      coldRequests: cold.requests,
      warmRequests: warm.requests,
      sandboxMs: median(sandboxed),
      bareMs: median(bare),
    };
  } finally {
    await registry.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export const setupSection: Section = {
  name: "setup",
  async run({ log }) {
    log("setup: npm ci cold, then warm");
    const result = await runSetupBench();
    const speedup = result.coldMs / Math.max(1, result.warmMs);
    const rows = [
      [
        `npm ci, ${String(PACKAGES)} dependencies, empty cache (first job)`,
        `${result.coldMs.toFixed(0)} ms`,
        String(result.coldRequests),
      ],
      [
        "npm ci again, the cache the first job left (second job)",
        `${result.warmMs.toFixed(0)} ms`,
        String(result.warmRequests),
      ],
      [`\`true\` in the sandbox (median of ${String(ROUNDS)})`, `${result.sandboxMs.toFixed(1)} ms`, ""],
      ["`true` bare, `sh -c`", `${result.bareMs.toFixed(1)} ms`, ""],
    ];
    return {
      markdown: [
        "## Set-up and the sandbox",
        "",
        `In the sandbox as a repository's set-up runs (the sandbox user, limits, the egress proxy), from a registry on 127.0.0.1 that answers after ${String(REGISTRY_LATENCY_MS)} ms as one across the internet would.`,
        "",
        markdownTable(["measure", "time", "registry requests"], rows),
        "",
      ].join("\n"),
      figures: result,
      targets: [
        {
          target: "a second job on the same repository fetches nothing from the registry",
          measured: `${String(result.warmRequests)} requests`,
          met: result.warmRequests === 0,
        },
        {
          target: "a warm set-up markedly faster than a cold one (≥ 1.5×)",
          measured: `×${speedup.toFixed(2)}`,
          met: speedup >= 1.5,
        },
      ],
      findings: [],
    };
  },
};
