/**
 * The edit engine's two entry points: `applyEdits` (library form: a reply + a file reader → results and new
 * contents, nothing touched) and `applyReply` (a reply + a folder on disk → results, committed atomically).
 * Both run the same pipeline: parse → collect the named paths → read them → plan → (commit).
 */
import { createFsTree } from "./adapters/fs-tree.js";
import { markUnwritten, pathsToRead, planEdits } from "./apply/plan.js";
import type { FileState } from "./apply/snapshot.js";
import type { ParsedItem } from "./core/edit.js";
import type { EditResult } from "./core/result.js";
import { parseReply, type FormatChoice } from "./formats/registry.js";
import type { PathLookup } from "./formats/types.js";

export interface EngineOptions {
  /** Which dialect to parse; "auto" (default) detects it per block. */
  readonly format?: FormatChoice;
  /** Keep the edits that succeeded when others fail (default: all or nothing). */
  readonly partial?: boolean;
  /**
   * Paths that exist in the tree, so a parser can recognise a bare file name ("app.ts") mentioned before a block: a
   * list, a Set, or any lookup. `applyReply` asks the file system about the names a reply mentions when this is not
   * given.
   */
  readonly knownPaths?: PathLookup | readonly string[];
  /**
   * Paths the caller protects: return why (e.g. "it matches .github/workflows/**") to refuse every edit that
   * touches the path with `forbidden-path`, or undefined to allow it. Protected files are never read.
   */
  readonly protect?: (path: string) => string | undefined;
}

export interface EngineResult {
  /** One result per edit or unparseable block, in reply order. */
  readonly results: EditResult[];
  /** Final content of every changed file (null: deleted); empty when the reply was refused. */
  readonly files: Map<string, string | null>;
  /** True when at least one edit's change is kept (all of them, unless `partial`). */
  readonly applied: boolean;
  /** One line on the whole reply, for humans and for the model. */
  readonly summary: string;
}

/** A file reader for the library form: the content, or undefined when the file does not exist. */
export type ReadFile = (path: string) => Promise<string | undefined> | string | undefined;

const lookupOf = (known: PathLookup | readonly string[]): PathLookup =>
  Array.isArray(known) ? new Set(known) : (known as PathLookup);

const parse = (reply: string, options: EngineOptions): ParsedItem[] =>
  parseReply(reply, {
    ...(options.format === undefined ? {} : { format: options.format }),
    ...(options.knownPaths === undefined ? {} : { knownPaths: lookupOf(options.knownPaths) }),
  });

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

function protectedState(options: EngineOptions, path: string): FileState | undefined {
  const why = options.protect?.(path);
  return why === undefined ? undefined : { kind: "protected", message: why };
}

/**
 * Reads what the planner needs to know about one path (the filesystem adapter's `read` has this shape).
 * `realPath` (root-relative) is set when the path reaches its file through a symlink.
 */
export type ReadState = (path: string) => Promise<FileState & { readonly realPath?: string }>;

/**
 * Two paths of one reply that are one file on disk (`b.txt -> a.txt`) would each be planned against the same old
 * content and written one after the other, losing the first change: every path after the first is refused.
 */
function refuseAliases(snapshot: Map<string, FileState>, realPaths: ReadonlyMap<string, string>): void {
  const owner = new Map<string, string>();
  for (const path of snapshot.keys()) {
    const real = realPaths.get(path) ?? path;
    const first = owner.get(real);
    if (first === undefined) {
      owner.set(real, path);
      continue;
    }
    const message =
      first === real
        ? `${path} is a symlink to ${real}, which this reply also edits; edit ${real} only`
        : `${path} and ${first} are the same file (${real}) through a symlink, and this reply edits both; edit ${real} only`;
    snapshot.set(path, { kind: "unsafe", message });
  }
}

/**
 * The pipeline without the final write: parse, read each named path once (normalised, relative; protected paths
 * are never read), plan. Callers that own their own writing (the fix loop) start here.
 */
export async function planReply(
  reply: string,
  readState: ReadState,
  options: EngineOptions = {},
): Promise<EngineResult> {
  const items = parse(reply, options);
  const snapshot = new Map<string, FileState>();
  const realPaths = new Map<string, string>();
  for (const path of pathsToRead(items)) {
    const state: FileState & { readonly realPath?: string } = protectedState(options, path) ?? (await readState(path));
    // The extra field rides along in the snapshot harmlessly; the planner only looks at kind and content.
    if (state.realPath !== undefined) realPaths.set(path, state.realPath);
    snapshot.set(path, state);
  }
  refuseAliases(snapshot, realPaths);
  const plan = planEdits(items, snapshot, options.partial === undefined ? {} : { partial: options.partial });
  if (plan.results.length === 0) return noEditsResult();
  return { results: plan.results, files: plan.writes, applied: plan.applied, summary: plan.summary };
}

export const NO_EDITS_MESSAGE =
  "The reply holds no edit this program can read: nothing was changed. Write each change as a SEARCH/REPLACE block " +
  "(the file's path on its own line, then a fenced block with <<<<<<< SEARCH, =======, >>>>>>> REPLACE), a unified " +
  "diff, an apply_patch envelope, or a whole file under its path.";

/** A reply without any edit still gets a result, so callers can branch on its reason. */
function noEditsResult(): EngineResult {
  const result: EditResult = { ok: false, path: "", edit: undefined, reason: "no-edits", message: NO_EDITS_MESSAGE };
  return {
    results: [result],
    files: new Map(),
    applied: false,
    summary: "the reply contains no edits: nothing was changed",
  };
}

/** True when the engine found no edit at all in the reply. */
export const holdsNoEdits = (results: readonly EditResult[]): boolean =>
  results.length === 1 && results[0]?.ok === false && results[0].reason === "no-edits";

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
  const plan = await planReply(reply, (path) => tree.read(path), { ...options, knownPaths });
  const dryRun = options.dryRun ?? false;
  if (dryRun) {
    const summary = dryRunSummary(plan.results, options.partial ?? false);
    return { results: plan.results, written: [], changes: plan.files, dryRun, summary };
  }
  if (plan.files.size === 0) {
    return { results: plan.results, written: [], changes: plan.files, dryRun, summary: plan.summary };
  }
  const committed = await tree.commit(plan.files);
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
