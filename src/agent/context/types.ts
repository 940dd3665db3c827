/** The vocabulary of the context stages (rank.ts, select.ts): what they take, what they give, why a file is there. */
import type { FixRequest } from "../types.js";
import type { Instructions } from "./instructions.js";
import type { RepoMap } from "./repo-map.js";

export type ContextReason = "focus" | "named" | "trace" | "failing-test" | "imported" | "ranked";

export interface ContextFile {
  readonly path: string;
  readonly content: string;
  readonly why: ContextReason;
  /** More on why: the terms it matched, the file that imports it, the line a trace points at. */
  readonly detail?: string;
  /** Set when only part of the file is shown (1-based, inclusive). */
  readonly lines?: { readonly start: number; readonly end: number };
}

export interface GatheredContext {
  readonly files: readonly ContextFile[];
  readonly omitted: readonly string[];
  readonly repoMap: RepoMap;
  /** The terms the ranking looked for. */
  readonly words: readonly string[];
  /** The repository's notes for coding agents that apply to the files shown (instructions.ts). */
  readonly instructions?: readonly Instructions[];
}

export interface ContextInput {
  readonly instruction: string;
  readonly extra?: string;
  readonly focus?: FixRequest["focus"];
  readonly paths: readonly string[];
  readonly read: (paths: readonly string[]) => Promise<ReadonlyMap<string, string>>;
  readonly termCounts: (terms: readonly string[]) => Promise<ReadonlyMap<string, ReadonlyMap<string, number>>>;
  readonly sizes: () => Promise<ReadonlyMap<string, number>>;
  /** Tokens for file contents (about 4 characters each). */
  readonly fileTokens?: number;
  readonly mapTokens?: number;
}

export const DEFAULT_FILE_TOKENS = 20_000;
export const DEFAULT_MAP_TOKENS = 3_000;
