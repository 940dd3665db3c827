/** Where set-up and tests run: the clone, the environment they share, and the repository's package cache. */
import type { Sandbox } from "../ports/git-sandbox.js";
import type { CacheMount } from "../ports/sandbox-runner.js";
import { cacheEnv, testCacheEnv, type RunEnvironment } from "./setup-plan.js";

/** Where set-up and tests run: the clone, its environment, and its package cache (when there is one). */
export interface RunPlace {
  readonly sandbox: Sandbox;
  readonly environment: RunEnvironment;
  /** The repository's package cache folder on the host. */
  readonly cacheDir: string | undefined;
}

export function cacheMount(place: RunPlace, writable: boolean): { cache: CacheMount } | Record<string, never> {
  return place.cacheDir === undefined
    ? {}
    : { cache: { dir: place.cacheDir, writable, env: writable ? cacheEnv : testCacheEnv } };
}

/** The sandbox request fields every command of this run shares. */
export function runRequest(place: RunPlace) {
  return {
    cwd: place.sandbox.dir,
    shims: place.environment.shims,
    path: place.environment.path,
    env: place.environment.env,
  };
}
