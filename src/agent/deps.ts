/**
 * What the fix loop needs from the outside world, handed in as one object (built in src/compose.ts, or from
 * in-memory fakes in unit tests).
 */
import type { Clock } from "../ports/clock.js";
import type { GitSandboxFactory } from "../ports/git-sandbox.js";
import type { Logger } from "../ports/logger.js";
import type { PackageCaches } from "../ports/package-caches.js";
import type { ModelClient } from "../ports/model-client.js";
import type { SandboxRunner } from "../ports/sandbox-runner.js";
import type { WorkTree } from "../ports/work-tree.js";

export type { WorkTree, WriteResult } from "../ports/work-tree.js";

export interface FixDeps {
  readonly git: GitSandboxFactory;
  readonly model: ModelClient;
  /** Runs the repository's set-up and tests as untrusted code. */
  readonly runner: SandboxRunner;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The working tree of a clone, by its folder. */
  readonly files: (dir: string) => WorkTree;
  /** Values redacted from everything the loop reports or sends to the model (API keys, tokens). */
  readonly secrets?: readonly string[];
  /** The model when the request names none. */
  readonly defaultModel?: string;
  /** The repositories' package caches (none: set-up downloads everything every time). */
  readonly caches?: PackageCaches;
  /** Parent folder for clones (default: the OS temp folder). */
  readonly tempRoot?: string;
}
