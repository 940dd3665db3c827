/** The loop's I/O helpers around the ports: reading files in bulk, choosing and running the test command. */
import type { Sandbox } from "../ports/git-sandbox.js";
import { readText } from "./apply-step.js";
import type { FixDeps, WorkTree } from "./deps.js";
import { detectTestCommand, DETECTION_FILES, type TestCommand } from "./test-command.js";
import { summarizeTestRun } from "./test-output.js";
import type { TestSummary } from "./types.js";

const READ_CONCURRENCY = 64;
export const DEFAULT_TEST_TIMEOUT_MS = 5 * 60_000;
const PROBE_TIMEOUT_MS = 30_000;

/** Text contents of `paths` (missing, binary and unreadable files are left out), a few reads at a time. */
export async function readMany(tree: WorkTree, paths: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < paths.length; i += READ_CONCURRENCY) {
    const batch = paths.slice(i, i + READ_CONCURRENCY);
    const texts = await Promise.all(batch.map((p) => readText(tree, p)));
    batch.forEach((p, j) => {
      const text = texts[j];
      if (text !== undefined) out.set(p, text);
    });
  }
  return out;
}

/** The request's test command, else the repo config's, else one detected from the project's files. */
export async function resolveTestCommand(
  deps: FixDeps,
  sandbox: Sandbox,
  tree: WorkTree,
  given: { readonly requested: string | undefined; readonly configured: string | undefined },
  paths: readonly string[],
): Promise<TestCommand | undefined> {
  const { requested, configured } = given;
  if (requested !== undefined && requested.trim() !== "") return { command: requested.trim(), source: "request" };
  if (configured !== undefined && configured.trim() !== "")
    return { command: configured.trim(), source: "repo-config" };
  const small = await readMany(
    tree,
    DETECTION_FILES.filter((f) => paths.includes(f)),
  );
  const detection = detectTestCommand({ paths, read: (p) => small.get(p) });
  switch (detection.kind) {
    case "none":
      return undefined;
    case "command":
      return { command: detection.command, source: "detected" };
    case "python": {
      const probe = await deps.runner.run({ command: detection.probe, cwd: sandbox.dir, timeoutMs: PROBE_TIMEOUT_MS });
      return { command: probe.passed ? detection.pytest : detection.fallback, source: "detected" };
    }
  }
}

export async function runTests(
  deps: FixDeps,
  sandbox: Sandbox,
  command: string,
  timeoutMs: number,
): Promise<TestSummary> {
  return summarizeTestRun(await deps.runner.run({ command, cwd: sandbox.dir, timeoutMs: Math.max(1_000, timeoutMs) }));
}
