/**
 * The edit engine's two entry points: `applyEdits` (library form: a reply + a file reader → results and new
 * contents, nothing touched) and `applyReply` (a reply + a folder on disk → results, committed atomically).
 * Both run the same pipeline: parse → collect the named paths → read them → plan → (commit).
 */
import { createFsTree } from "./adapters/fs-tree.js";
import { markUnwritten } from "./apply/plan.js";
import { holdsNoEdits, planReply, type EngineOptions, type EngineResult } from "./apply/plan-reply.js";
import type { FileState } from "./apply/snapshot.js";
import type { EditResult } from "./core/result.js";

export {
  holdsNoEdits,
  NO_EDITS_MESSAGE,
  planReply,
  type EngineOptions,
  type EngineResult,
  type ReadState,
} from "./apply/plan-reply.js";

/** A file reader for the library form: the content, or undefined when the file does not exist. */
export type ReadFile = (path: string) => Promise<string | undefined> | string | undefined;

async function stateFromReader(read: ReadFile, path: string): Promise<FileState> {
  try {
    const content = await read(path);
    if (content === undefined) return { kind: "missing" };
    // A NUL in decoded text means the reader handed over a binary file.
    return content.includes("\0") ? { kind: "binary" } : { kind: "text", content };
  } catch (error) {
    return {
      kind: "unreadable",
      message: `${path} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/**
 * Applies a reply against files given by `read` (called once per path, with normalised relative paths) and
 * returns what the files would become. Nothing is written anywhere.
 */
export function applyEdits(reply: string, read: ReadFile, options: EngineOptions = {}): Promise<EngineResult> {
  return planReply(reply, (path) => stateFromReader(read, path), options);
}

export interface ApplyReplyOptions extends EngineOptions {
  /** The folder edits are confined to. */
  readonly root: string;
  /** Plan and report, write nothing. */
  readonly dryRun?: boolean;
}

export interface ApplyReport {
  /** One result per edit or unparseable block, in reply order (ok results carry before/after for diffs). */
  readonly results: EditResult[];
  /** Paths changed on disk (written or deleted), in commit order; empty for a dry run or a refusal. */
  readonly written: string[];
  /** What was (or, in a dry run, would have been) written: final content per path, null for a deletion. */
  readonly changes: ReadonlyMap<string, string | null>;
  readonly dryRun: boolean;
  readonly summary: string;
  /** Set when the plan was fine but writing failed; everything already written was restored. */
  readonly writeError?: { readonly path: string; readonly message: string };
}

const edits = (n: number): string => `${n} ${n === 1 ? "edit" : "edits"}`;

/**
 * The summary of a dry run, in its own words: the planner's ("1 edit applied") would claim a change that was not
 * made. Failures the planner held back (`not-applied`) are not counted as failed.
 */
export function dryRunSummary(results: readonly EditResult[], partial: boolean): string {
  const total = results.length;
  if (total === 0 || holdsNoEdits(results)) return "dry run: the reply contains no edits; nothing was written";
  const failed = results.filter((r) => !r.ok).length;
  const ok = total - failed;
  if (failed === 0) return `dry run: ${edits(ok)} would apply; nothing was written`;
  if (!partial) {
    const broken = results.filter((r) => !r.ok && r.reason !== "not-applied").length;
    return `dry run: ${broken} of ${edits(total)} failed, so none would apply; nothing was written`;
  }
  if (ok === 0) return `dry run: all ${edits(total)} failed; nothing was written`;
  return `dry run: ${failed} of ${edits(total)} failed and the other ${ok} would apply; nothing was written`;
}

/**
 * Applies a reply to the folder `root`: paths are confined to it (no `..`, absolute paths or symlinks that
 * leave it), each changed file is written once atomically, and a failed write restores what was written.
 */
export async function applyReply(reply: string, options: ApplyReplyOptions): Promise<ApplyReport> {
  const tree = createFsTree(options.root);
  const knownPaths = options.knownPaths ?? { has: (path: string) => tree.hasFile(path) };
  const listPaths = options.listPaths ?? (() => tree.listFiles());
  const plan = await planReply(reply, (path) => tree.read(path), { ...options, knownPaths, listPaths });
  const dryRun = options.dryRun ?? false;
  if (dryRun) {
    const summary = dryRunSummary(plan.results, options.partial ?? false);
    return { results: plan.results, written: [], changes: plan.files, dryRun, summary };
  }
  if (plan.files.size === 0) {
    return { results: plan.results, written: [], changes: plan.files, dryRun, summary: plan.summary };
  }
  const committed = await tree.commit(plan.files, plan.modes);
  if (committed.ok) {
    return {
      results: plan.results,
      written: [...committed.written],
      changes: plan.files,
      dryRun,
      summary: plan.summary,
    };
  }
  return {
    results: markUnwritten(plan.results, committed.message),
    written: [],
    changes: new Map(),
    dryRun,
    summary: `nothing was written: ${committed.message}`,
    writeError: { path: committed.path, message: committed.message },
  };
}
