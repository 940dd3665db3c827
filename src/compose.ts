/** The one place adapters are built from the environment and handed to the use cases as a Deps object. */
import { createConsoleLogger } from "./adapters/console-logger.js";
import { homedir } from "node:os";
import { join } from "node:path";
import { createFsTree } from "./adapters/fs-tree.js";
import { createPackageCaches } from "./adapters/package-caches.js";
import { createGitSandboxFactory } from "./adapters/git-sandbox.js";
import { createOpenAIModelClient } from "./adapters/openai-model.js";
import { createRoutedModelClient } from "./adapters/routed-model.js";
import { systemClock } from "./adapters/system-clock.js";
import { createSandboxRunner } from "./adapters/sandbox/runner.js";
import { DEFAULT_SETUP_RULES } from "./adapters/sandbox/egress-rules.js";
import { DEFAULT_LIMITS } from "./adapters/sandbox/limits.js";
import type { FixDeps } from "./agent/deps.js";
import type { Env, ModelSettings } from "./config/env.js";

export interface FixDepsOptions {
  /** Parent folder for clones (default: the OS temp folder). */
  readonly tempRoot?: string;
  /**
   * The test sandbox when PATCHSMITH_TEST_SANDBOX is not set: "auto" for the CLI (your own repository, a warning in
   * the report when bwrap is missing), "bwrap" for the App, which runs code anyone can propose in a pull request.
   */
  readonly defaultSandbox?: "auto" | "bwrap";
  /** Where the repositories' package caches live (default: `cache` in PATCHSMITH_DATA_DIR, else the user's cache). */
  readonly cacheRoot?: string;
}

/** The CLI's cache folder: PATCHSMITH_DATA_DIR/cache, else $XDG_CACHE_HOME/patchsmith, else ~/.cache/patchsmith. */
export function defaultCacheRoot(env: Env, vars: Readonly<Record<string, string | undefined>>): string {
  if (env.PATCHSMITH_DATA_DIR !== undefined) return join(env.PATCHSMITH_DATA_DIR, "cache");
  const xdg = vars.XDG_CACHE_HOME;
  return join(xdg !== undefined && xdg !== "" ? xdg : join(homedir(), ".cache"), "patchsmith");
}

export function composeFixDeps(env: Env, model: ModelSettings, options: FixDepsOptions = {}): FixDeps {
  const routeKeys = [...(model.routes?.values() ?? [])].flatMap((route) =>
    route.apiKey === undefined ? [] : [route.apiKey],
  );
  const secrets = [model.apiKey, ...routeKeys].filter((s) => s.length >= 8);
  const endpoint = { apiKey: model.apiKey, ...(model.baseURL !== undefined ? { baseURL: model.baseURL } : {}) };
  return {
    git: createGitSandboxFactory(),
    model:
      model.routes === undefined ? createOpenAIModelClient(endpoint) : createRoutedModelClient(model.routes, endpoint),
    runner: createSandboxRunner({
      mode: env.PATCHSMITH_TEST_SANDBOX ?? options.defaultSandbox ?? "auto",
      ...(env.PATCHSMITH_SANDBOX_USER === undefined ? {} : { user: env.PATCHSMITH_SANDBOX_USER }),
      limits: {
        memoryBytes: env.PATCHSMITH_SANDBOX_MEMORY ?? DEFAULT_LIMITS.memoryBytes,
        processes: env.PATCHSMITH_SANDBOX_PROCESSES ?? DEFAULT_LIMITS.processes,
        cpuSeconds: env.PATCHSMITH_SANDBOX_CPU_SECONDS ?? DEFAULT_LIMITS.cpuSeconds,
        diskBytes: env.PATCHSMITH_SANDBOX_DISK ?? DEFAULT_LIMITS.diskBytes,
      },
      setupHosts: [...DEFAULT_SETUP_RULES, ...(env.PATCHSMITH_SETUP_HOSTS ?? [])],
      setupNetwork: env.PATCHSMITH_SETUP_NETWORK !== "off",
      readOnly: (env.PATCHSMITH_SANDBOX_READONLY ?? "").split(":").filter((p) => p.startsWith("/")),
      secrets,
    }),
    clock: systemClock,
    logger: createConsoleLogger({ secrets }),
    files: (dir) => createFsTree(dir),
    caches: createPackageCaches(options.cacheRoot ?? defaultCacheRoot(env, process.env)),
    secrets,
    defaultModel: model.model,
    ...(options.tempRoot !== undefined ? { tempRoot: options.tempRoot } : {}),
  };
}
