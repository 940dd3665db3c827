/** The one place adapters are built from the environment and handed to the use cases as a Deps object. */
import { createConsoleLogger } from "./adapters/console-logger.js";
import { createFsTree } from "./adapters/fs-tree.js";
import { createGitSandboxFactory } from "./adapters/git-sandbox.js";
import { createOpenAIModelClient } from "./adapters/openai-model.js";
import { systemClock } from "./adapters/system-clock.js";
import { createTestRunner } from "./adapters/test-runner.js";
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
}

export function composeFixDeps(env: Env, model: ModelSettings, options: FixDepsOptions = {}): FixDeps {
  const secrets = [model.apiKey].filter((s) => s.length >= 8);
  return {
    git: createGitSandboxFactory(),
    model: createOpenAIModelClient({
      apiKey: model.apiKey,
      ...(model.baseURL !== undefined ? { baseURL: model.baseURL } : {}),
    }),
    tests: createTestRunner({ sandbox: env.PATCHSMITH_TEST_SANDBOX ?? options.defaultSandbox ?? "auto" }),
    clock: systemClock,
    logger: createConsoleLogger({ secrets }),
    files: (dir) => createFsTree(dir),
    secrets,
    defaultModel: model.model,
    ...(options.tempRoot !== undefined ? { tempRoot: options.tempRoot } : {}),
  };
}
