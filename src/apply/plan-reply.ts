/**
 * The edit engine's pipeline without the final write: parse the reply, read each path it names once (protected
 * paths never), plan. Callers that own their writing (the fix loop) start here; src/engine.ts adds the library's
 * reader and the atomic write to disk.
 */
import type { FileState } from "./snapshot.js";
import type { ParsedItem } from "../core/edit.js";
import type { EditResult } from "../core/result.js";
import { parseReply, type FormatChoice } from "../formats/registry.js";
import type { PathLookup } from "../formats/types.js";
import { pathsToRead, planEdits, type PlanOptions } from "./plan.js";
import { chooseByContent, searchable } from "./paths-by-content.js";
import { needsKnownPaths, resolveMissingPaths, withPathCandidates } from "./resolve-paths.js";

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
   * Lists the tree's files, asked only when `knownPaths` is a lookup and a path of the reply names no file (a bare
   * name, `a/` before the path): the happy path walks no tree.
   */
  readonly listPaths?: () => Promise<readonly string[]>;
  /**
   * Paths the caller protects: return why (e.g. "it matches .github/workflows/**") to refuse every edit that
   * touches the path with `forbidden-path`, or undefined to allow it. Protected files are never read.
   */
  readonly protect?: (path: string) => string | undefined;
  /** Edits the caller refuses before they are planned (plan.ts `PlanOptions.refuse`). */
  readonly refuse?: PlanOptions["refuse"];
}

export interface EngineResult {
  /** One result per edit or unparseable block, in reply order. */
  readonly results: EditResult[];
  /** Final content of every changed file (null: deleted); empty when the reply was refused. */
  readonly files: Map<string, string | null>;
  /** Per file of `files` whose executable bit the reply sets (a new script, a mode change, a moved script). */
  readonly modes?: ReadonlyMap<string, boolean>;
  /** True when at least one edit's change is kept (all of them, unless `partial`). */
  readonly applied: boolean;
  /** One line on the whole reply, for humans and for the model. */
  readonly summary: string;
}

const lookupOf = (known: PathLookup | readonly string[]): PathLookup =>
  Array.isArray(known) ? new Set(known) : (known as PathLookup);

const parse = (reply: string, options: EngineOptions): ParsedItem[] =>
  parseReply(reply, {
    ...(options.format === undefined ? {} : { format: options.format }),
    ...(options.knownPaths === undefined ? {} : { knownPaths: lookupOf(options.knownPaths) }),
  });

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
  const parsed = parse(reply, options);
  const snapshot = new Map<string, FileState>();
  const realPaths = new Map<string, string>();
  const read = async (paths: readonly string[]): Promise<void> => {
    for (const path of paths) {
      if (snapshot.has(path)) continue;
      const state: FileState & { readonly realPath?: string } =
        protectedState(options, path) ?? (await readState(path));
      // The extra field rides along in the snapshot harmlessly; the planner only looks at kind and content.
      if (state.realPath !== undefined) realPaths.set(path, state.realPath);
      snapshot.set(path, state);
    }
  };
  await read(pathsToRead(parsed));
  const missing = [...snapshot].filter(([, state]) => state.kind === "missing").map(([path]) => path);
  const known =
    listedPaths(options.knownPaths) ?? (needsKnownPaths(parsed, missing) ? await options.listPaths?.() : undefined);
  const resolved =
    known === undefined ? { items: parsed, several: new Map() } : resolveMissingPaths(parsed, missing, known);
  const search = searchable(resolved.several);
  await read([...pathsToRead(resolved.items), ...[...search.values()].flat()]);
  const items = search.size === 0 ? resolved.items : chooseByContent(resolved.items, search, snapshot);
  refuseAliases(snapshot, realPaths);
  const plan = planEdits(items, snapshot, {
    ...(options.partial === undefined ? {} : { partial: options.partial }),
    ...(options.refuse === undefined ? {} : { refuse: options.refuse }),
  });
  if (plan.results.length === 0) return noEditsResult();
  const results = known === undefined ? plan.results : withPathCandidates(plan.results, known);
  return {
    results,
    files: plan.writes,
    ...(plan.modes.size > 0 ? { modes: plan.modes } : {}),
    applied: plan.applied,
    summary: plan.summary,
  };
}

/** The known paths when the caller listed them (a lookup may only answer questions). */
const listedPaths = (known: EngineOptions["knownPaths"]): Iterable<string> | undefined =>
  Array.isArray(known) ? known : known instanceof Set ? (known as Set<string>) : undefined;

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
