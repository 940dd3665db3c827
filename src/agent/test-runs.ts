/** Choosing the test command and running it in the sandbox, offline, in the environment set-up prepared. */
import type { WorkTree } from "./deps.js";
import type { FixDeps } from "./deps.js";
import { readMany } from "./read-files.js";
import { cacheMount, runRequest, type RunPlace } from "./run-place.js";
import { detectTestCommand, DETECTION_FILES, type TestCommand } from "./test-command.js";
import { summarizeTestRun } from "./test-output.js";
import type { TestSummary } from "./types.js";

export const DEFAULT_TEST_TIMEOUT_MS = 5 * 60_000;
const PROBE_TIMEOUT_MS = 30_000;

/** The request's test command, else the repo config's, else one detected from the project's files. */
export async function resolveTestCommand(
  deps: FixDeps,
  place: RunPlace,
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
      // Asked inside the environment set-up made: pytest may live in its virtual environment only.
      const probe = await deps.runner.run({
        ...runRequest(place),
        ...cacheMount(place, false),
        command: detection.probe,
        timeoutMs: PROBE_TIMEOUT_MS,
      });
      return { command: probe.passed ? detection.pytest : detection.fallback, source: "detected" };
    }
  }
}

export async function runTests(
  deps: FixDeps,
  place: RunPlace,
  command: string,
  timeoutMs: number,
): Promise<TestSummary> {
  const run = await deps.runner.run({
    ...runRequest(place),
    ...cacheMount(place, false),
    command,
    timeoutMs: Math.max(1_000, timeoutMs),
  });
  return summarizeTestRun(run, place.sandbox.dir);
}
