/**
 * The planner (pure): a reply's parsed items + a snapshot of the files they name → one result per item and the
 * final content of every changed file. Edits apply in reply order on an in-memory tree, each against the result
 * of the earlier ones; by default the reply is one transaction, so a single failure means nothing is written.
 */
import type { Edit, ParsedItem } from "../core/edit.js";
import type { Reason } from "../core/reasons.js";
import type { EditResult } from "../core/result.js";
import { lookedUp } from "../matcher/exact-doc.js";
import { oldSide } from "../matcher/old-side.js";
import { describe, summarize } from "./feedback.js";
import { normalizeRelativePath, type PathCheck } from "./paths.js";
import { planReplace } from "./plan-replace.js";
import { fail, planCreate, planDelete, planMode, planRename, planRewrite, type StepContext } from "./plan-steps.js";
import { PlanTree } from "./plan-tree.js";
import { projectEol, type FileSnapshot } from "./snapshot.js";

export interface PlanOptions {
  /** Keep the edits that succeeded even when others failed (the agent loop's retry mode). Default false. */
  readonly partial?: boolean;
  /** Edits the caller refuses before they are planned, with the reason and message to report. */
  readonly refuse?: (edit: Edit) => Refusal | undefined;
}

/** Why an edit is refused before it is planned, in the words its result reports. */
export interface Refusal {
  readonly reason: Reason;
  readonly message: string;
}

export interface Plan {
  /** One result per parsed item, in reply order. */
  readonly results: EditResult[];
  /**
   * Final content per changed path (null: delete); a rename is a delete of the old path + a write of the new. A
   * file whose mode alone changed is written with its content as it was.
   */
  readonly writes: Map<string, string | null>;
  /** Per written path whose executable bit the reply sets (plan-tree.ts `modeChanges`). */
  readonly modes: Map<string, boolean>;
  /** True when the kept results include at least one applied edit (all of them, unless `partial`). */
  readonly applied: boolean;
  /** One line on the whole reply, e.g. "nothing was written because 1 of 3 edits failed". */
  readonly summary: string;
}

/**
 * Every normalised path the items would read or write (rename targets included), in first-mention order.
 * Paths that fail normalisation are left out: the planner refuses them without reading anything.
 */
export function pathsToRead(items: readonly ParsedItem[]): string[] {
  const raw = new Set<string>();
  for (const item of items) {
    if (item.type !== "edit") continue;
    raw.add(item.edit.path);
    if (item.edit.kind === "rename" || item.edit.kind === "copy") raw.add(item.edit.to);
  }
  const paths = new Set<string>();
  for (const path of raw) {
    const normal = normalizeRelativePath(path);
    if (normal.ok) paths.add(normal.path);
  }
  return [...paths];
}

/** normalizeRelativePath, once per distinct path of a reply (fifty hunks usually name one file fifty times). */
function pathNormalizer(): (raw: string) => PathCheck {
  const seen = new Map<string, PathCheck>();
  return (raw) => {
    let check = seen.get(raw);
    if (check === undefined) {
      check = normalizeRelativePath(raw);
      seen.set(raw, check);
    }
    return check;
  };
}

function planOne(ctx: StepContext, edit: Edit, normalize: (raw: string) => PathCheck): EditResult {
  const normal = normalize(edit.path);
  if (!normal.ok) return fail(edit.path, edit, "unsafe-path", describe.unsafePath(edit.path, normal.message, edit));
  const path = normal.path;
  switch (edit.kind) {
    case "replace":
      return planReplace(ctx, edit, path);
    case "create":
      return planCreate(ctx, edit, path);
    case "delete":
      return planDelete(ctx, edit, path);
    case "rename":
    case "copy":
      return planRename(ctx, edit, path);
    case "mode":
      return planMode(ctx, edit, path);
    case "rewrite":
      return planRewrite(ctx, edit, path);
  }
}

/** The results after a failed write of a plan: every applied edit becomes `not-applied`, saying why. */
export function markUnwritten(results: readonly EditResult[], why: string): EditResult[] {
  return results.map((r) =>
    r.ok ? fail(r.path, r.edit, "not-applied", describe.writeFailed(r.path, r.edit, why)) : r,
  );
}

/** Per path, the lines the reply's replace edits will look up first (see lookedUp): found in one pass. */
function expectedLookups(items: readonly ParsedItem[], normalize: (raw: string) => PathCheck): Map<string, string[]> {
  const expected = new Map<string, string[]>();
  for (const item of items) {
    if (item.type !== "edit" || item.edit.kind !== "replace") continue;
    const path = normalize(item.edit.path);
    if (!path.ok) continue;
    const probes = lookedUp(oldSide(item.edit.ops).map((l) => l.text));
    const list = expected.get(path.path);
    if (list === undefined) expected.set(path.path, probes);
    else list.push(...probes);
  }
  return expected;
}

export function planEdits(items: readonly ParsedItem[], snapshot: FileSnapshot, options: PlanOptions = {}): Plan {
  const partial = options.partial ?? false;
  let eol: "\n" | "\r\n" | undefined;
  const normalize = pathNormalizer();
  // Only created files need the project's line ending: scanning every snapshot file for it is paid on demand.
  const ctx: StepContext = {
    tree: new PlanTree(snapshot, expectedLookups(items, normalize)),
    eol: () => (eol ??= projectEol(snapshot)),
    offsets: new Map(),
    applied: new Map(),
  };
  const results: EditResult[] = items.map((item) => {
    if (item.type === "problem")
      return fail(item.problem.path ?? "", undefined, "invalid-format", describe.invalidFormat(item.problem));
    const refused = options.refuse?.(item.edit);
    if (refused === undefined) return planOne(ctx, item.edit, normalize);
    const normal = normalizeRelativePath(item.edit.path);
    return fail(normal.ok ? normal.path : item.edit.path, item.edit, refused.reason, refused.message);
  });
  const anyFailed = results.some((r) => !r.ok);
  if (anyFailed && !partial) {
    const held = results.map((r) =>
      r.ok ? fail(r.path, r.edit, "not-applied", describe.notApplied(r.path, r.edit)) : r,
    );
    return { results: held, writes: new Map(), modes: new Map(), applied: false, summary: summarize(held, partial) };
  }
  const writes = ctx.tree.changes();
  const modes = ctx.tree.modeChanges();
  for (const path of modes.keys()) {
    const state = ctx.tree.get(path);
    if (!writes.has(path) && state.kind === "text") writes.set(path, state.content);
  }
  return {
    results,
    writes,
    modes,
    applied: results.some((r) => r.ok),
    summary: summarize(results, partial),
  };
}
