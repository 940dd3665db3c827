/**
 * What the fix loop needs from the outside world, handed in as one object (built in src/compose.ts, or from
 * in-memory fakes in unit tests).
 */
import type { FileState } from "../apply/snapshot.js";
import type { Clock } from "../ports/clock.js";
import type { GitSandboxFactory } from "../ports/git-sandbox.js";
import type { Logger } from "../ports/logger.js";
import type { PackageCaches } from "../ports/package-caches.js";
import type { ModelClient } from "../ports/model-client.js";
import type { SandboxRunner } from "../ports/sandbox-runner.js";

export type WriteResult =
  | { readonly ok: true; readonly written: readonly string[] }
  | { readonly ok: false; readonly path: string; readonly message: string; readonly rolledBack: boolean };

/** A clone's working tree as the edit engine sees it (adapters/fs-tree.ts implements it on disk). */
export interface WorkTree {
  read(relPath: string): Promise<FileState>;
  /** Writes every file (null: delete), atomically per file, confined to the tree. */
  commit(writes: ReadonlyMap<string, string | null>): Promise<WriteResult>;
}

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
