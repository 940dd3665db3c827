/**
 * Applies one model reply to the clone's working tree in partial mode: the edits that land are kept, the others
 * come back with model-readable messages. Forbidden paths are refused before anything is read or written.
 */
import picomatch from "picomatch";
import { renderRetryPrompt } from "../apply/feedback-retry.js";
import { containsSecret } from "../core/redact.js";
import { CREDENTIAL_REFUSAL, isCredentialPath } from "../core/credential-files.js";
import type { Edit } from "../core/edit.js";
import type { EditResult } from "../core/result.js";
import type { FileState } from "../apply/snapshot.js";
import { editKey, explainChangedEarlier, resentEdits, type FileVersions } from "../apply/changed-earlier.js";
import { markUnwritten, type Refusal } from "../apply/plan.js";
import { planReply } from "../apply/plan-reply.js";
import { normalizeRelativePath } from "../apply/paths.js";
import type { WorkTree } from "./deps.js";
import type { EditOutcome } from "./types.js";

export type PathGuard = (path: string) => string | undefined;

/** The guard's answer for a file that may hold credentials (core/credential-files.ts), whatever the globs say. */
export const CREDENTIALS_GUARD = "a file that may hold credentials";

/**
 * Returns the glob a path matches (it may not be touched), or CREDENTIALS_GUARD, or undefined. Dotfiles match like
 * any other file.
 */
export function createPathGuard(globs: readonly string[]): PathGuard {
  const matchers = globs.map((glob) => ({ glob, test: picomatch(glob, { dot: true }) }));
  return (path) => (isCredentialPath(path) ? CREDENTIALS_GUARD : matchers.find((m) => m.test(path))?.glob);
}

export interface AppliedReply {
  readonly results: readonly EditResult[];
  readonly outcomes: readonly EditOutcome[];
  /** Paths written or deleted. */
  readonly written: readonly string[];
  /** What each written path held before this reply (null: it did not exist). */
  readonly preimages: ReadonlyMap<string, string | null>;
  /** Exactly what the engine wrote to each written path (null: deleted): what a commit of this change holds. */
  readonly contents: ReadonlyMap<string, string | null>;
  /** Of the written paths, those whose executable bit the reply set, and to what. */
  readonly modes: ReadonlyMap<string, boolean>;
}

/** What the engine writes, and what it must never write. */
export interface ApplyRules {
  readonly knownPaths: readonly string[];
  readonly guard: PathGuard;
  /** Values no edit may write (the model key, tokens), in any common encoding. */
  readonly secrets: readonly string[];
}

/** An edit that would write a secret is refused, without quoting it; the rest of the reply is unaffected. */
function refuseSecrets(
  results: readonly EditResult[],
  files: ReadonlyMap<string, string | null>,
  secrets: readonly string[],
): { results: readonly EditResult[]; files: Map<string, string | null> } {
  const leaking = new Set(
    [...files].filter(([, content]) => content !== null && containsSecret(content, secrets)).map(([p]) => p),
  );
  if (leaking.size === 0) return { results, files: new Map(files) };
  const message = (path: string): string =>
    `This edit would write a secret patchsmith holds (an API key or token, or an encoding of one) into ${path}, ` +
    "so it was not applied. Never copy keys or tokens into files; read them from the environment instead.";
  return {
    results: results.map((r) =>
      r.ok && leaking.has(r.path)
        ? { ok: false, path: r.path, edit: r.edit, reason: "secret-refused", message: message(r.path) }
        : r,
    ),
    files: new Map([...files].filter(([path]) => !leaking.has(path))),
  };
}

export async function readText(tree: WorkTree, path: string): Promise<string | undefined> {
  const state = await tree.read(path);
  return state.kind === "text" ? state.content : undefined;
}

/**
 * The retry prompt for `results`: the failures plus the current content of each failed path (protected paths are
 * not shown: there is nothing the model may do with them).
 */
export async function retryPromptFor(
  tree: WorkTree,
  results: readonly EditResult[],
  guard: PathGuard,
): Promise<string> {
  const fresh = new Map<string, string | undefined>();
  for (const result of results) {
    if (result.ok || result.path === "" || fresh.has(result.path) || guard(result.path) !== undefined) continue;
    fresh.set(result.path, await readText(tree, result.path));
  }
  return renderRetryPrompt(results, fresh);
}

function toOutcome(result: EditResult): EditOutcome {
  if (result.ok) return { path: result.path, ok: true, strategy: result.strategy };
  return { path: result.path, ok: false, reason: result.reason, message: result.message };
}

/** What a path held before the model's edits that are still in the tree unaccepted, if it has such edits. */
export type EarlierContent = (path: string) => string | undefined;

/** Each file the model's earlier edits changed: as it stood before them, and as `current` holds it. */
function versionsBefore(
  currents: ReadonlyMap<string, string | null>,
  earlier: EarlierContent,
): Map<string, FileVersions> {
  const versions = new Map<string, FileVersions>();
  for (const [path, current] of currents) {
    const before = earlier(path);
    if (before !== undefined && current !== null) versions.set(path, { earlier: before, current });
  }
  return versions;
}

/**
 * Applies the reply; an edit whose old lines are gone but fit `earlier`'s version of its file is told that the
 * model's own earlier edits changed them, with the lines as they read now.
 */
export async function applyReplyToTree(
  reply: string,
  tree: WorkTree,
  rules: ApplyRules,
  earlier: EarlierContent = () => undefined,
): Promise<AppliedReply> {
  const { knownPaths, guard } = rules;
  const preimages = new Map<string, string | null>();
  const binary = new Set<string>();
  const readState = async (path: string): Promise<FileState> => {
    const state = await tree.read(path);
    if (state.kind === "text") preimages.set(path, state.content);
    else if (state.kind === "missing") preimages.set(path, null);
    else if (state.kind === "binary") binary.add(path);
    return state;
  };
  // The loop puts files back as text (an attempt undone, a suggestion's rollback): a binary file it deleted could
  // not be put back, so a fix leaves binary files alone.
  const keepBinary = (edit: Edit): Refusal | undefined => {
    const path = normalizeRelativePath(edit.path);
    if (edit.kind !== "delete" || !path.ok || !binary.has(path.path)) return undefined;
    return { reason: "binary-file", message: `${path.path} is a binary file, which a fix does not delete; leave it` };
  };
  const protect = (path: string): string | undefined => {
    const glob = guard(path);
    if (glob === CREDENTIALS_GUARD) return CREDENTIAL_REFUSAL;
    return glob === undefined ? undefined : `patchsmith may not change paths matching ${glob}`;
  };
  // knownPaths lets the parsers recognise a bare file name ("stats.js") written above a block.
  let engine = await planReply(reply, readState, { partial: true, knownPaths, protect, refuse: keepBinary });
  // An edit that fits the file only as it stood before the model's own earlier edits, and landed loosely where
  // they changed it, is that change sent again: planned once more without it, so it is not written twice.
  const resent = resentEdits(engine.results, versionsBefore(preimages, earlier));
  if (resent.size > 0) {
    const refuse = (edit: Edit) => resent.get(editKey(edit)) ?? keepBinary(edit);
    engine = await planReply(reply, readState, { partial: true, knownPaths, protect, refuse });
  }
  // Protected paths never reach `files`: the engine refused them before planning.
  const checked = refuseSecrets(engine.results, engine.files, rules.secrets);
  let results = checked.results;
  let written: string[] = [];
  if (checked.files.size > 0) {
    const committed = await tree.commit(checked.files, engine.modes);
    if (committed.ok) written = [...committed.written];
    else results = markUnwritten(results, committed.message);
  }
  const kept = new Map([...preimages].filter(([path]) => written.includes(path)));
  const contents = new Map([...checked.files].filter(([path]) => written.includes(path)));
  const now = new Map(
    [...preimages].map(([path, preimage]) => [path, contents.has(path) ? contents.get(path)! : preimage]),
  );
  results = explainChangedEarlier(results, versionsBefore(now, earlier));
  const modes = new Map([...(engine.modes ?? [])].filter(([path]) => written.includes(path)));
  return { results, outcomes: results.map(toOutcome), written, preimages: kept, contents, modes };
}
