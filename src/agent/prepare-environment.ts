/**
 * Before the first test run: the environment the repository needs (set-up commands, corepack shims, a virtual
 * environment, its package cache) and the test command. A set-up that fails ends the run here, before any model
 * call, with the end of its output and what to set.
 */
import type { Sandbox } from "../ports/git-sandbox.js";
import { ciTestEnvironment, underOwn, WORKFLOW_PATH, type CiEnvironment } from "./ci-env.js";
import type { FixDeps, WorkTree } from "./deps.js";
import { readMany } from "./read-files.js";
import type { RunPlace } from "./run-place.js";
import { chooseSetup, detectEnvironment, SETUP_FILES } from "./setup-plan.js";
import { describeSetupFailure } from "./setup-failure.js";
import { DEFAULT_SETUP_TIMEOUT_MS, runSetup, type SetupReport } from "./setup-step.js";
import { DETECTION_FILES, type TestCommand } from "./test-command.js";
import { isRequirementsFile } from "./requirements-file.js";
import { resolveTestCommand } from "./test-runs.js";
import type { FixRequest } from "./types.js";

export type Prepared =
  | {
      readonly ok: true;
      readonly place: RunPlace;
      readonly setup?: SetupReport;
      readonly testCommand?: TestCommand;
      /** What the project's CI sets for its tests, as set-up and tests got it (less what is set here otherwise). */
      readonly ci: CiEnvironment;
    }
  | { readonly ok: false; readonly reason: "setup-failed"; readonly message: string; readonly setup: SetupReport };

/** The repository's cache key when the request names none: its URL without credentials, or its local path. */
export function cacheKeyOf(repo: string): string {
  try {
    const url = new URL(repo);
    return `${url.host}${url.pathname}`
      .replace(/\.git$/, "")
      .replace(/\/+$/, "")
      .toLowerCase();
  } catch {
    return repo.replace(/\/+$/, "");
  }
}

export async function prepareEnvironment(
  deps: FixDeps,
  request: FixRequest,
  sandbox: Sandbox,
  tree: WorkTree,
  paths: readonly string[],
  configuredTest: string | undefined,
  timeLeftMs: () => number,
): Promise<Prepared> {
  const wanted = [
    ...[...new Set([...SETUP_FILES, ...DETECTION_FILES])].filter((f) => paths.includes(f)),
    ...paths.filter(isRequirementsFile),
  ];
  const workflowPaths = paths.filter((p) => WORKFLOW_PATH.test(p));
  const small = await readMany(tree, [...wanted, ...workflowPaths]);
  const facts = { paths, read: (path: string) => small.get(path) };
  const detected = detectEnvironment(facts, sandbox.dir);
  const workflows = new Map(workflowPaths.flatMap((p) => (small.has(p) ? [[p, small.get(p)!] as const] : [])));
  const { ci, env } = underOwn(ciTestEnvironment(workflows), { ...detected.environment.env, ...(request.env ?? {}) });
  const environment = { ...detected.environment, env };
  const plan = chooseSetup(request.setup, request.configuredSetup, detected.commands, detected.pythonFallback);
  // Set-up fills the cache; without one, the tests still read what an earlier job's set-up left there.
  const key = request.cacheKey ?? cacheKeyOf(request.repo);
  const cacheDir = plan !== undefined ? await deps.caches?.folderFor(key) : await deps.caches?.find(key);
  const place: RunPlace = { sandbox, environment, cacheDir };
  let setup: SetupReport | undefined;
  if (plan !== undefined) {
    setup = await runSetup(deps, place, plan, Math.min(DEFAULT_SETUP_TIMEOUT_MS, timeLeftMs()));
    if (setup.status === "failed")
      return { ok: false, reason: "setup-failed", message: describeSetupFailure(setup), setup };
  }
  const testCommand = await resolveTestCommand(
    deps,
    place,
    tree,
    { requested: request.testCommand, configured: configuredTest },
    paths,
  );
  return {
    ok: true,
    place,
    ci,
    ...(setup === undefined ? {} : { setup }),
    ...(testCommand === undefined ? {} : { testCommand }),
  };
}
