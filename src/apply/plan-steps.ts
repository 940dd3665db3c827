/**
 * One planning step per edit kind (pure): checks the target's state, applies the edit to the in-memory tree and
 * returns its result. Refusals carry the model-readable messages built by feedback.ts. The replace step, the one
 * that locates text, is in plan-replace.ts; the context and refusals it shares with the others are here.
 */
import type { CopyEdit, CreateEdit, DeleteEdit, Edit, ModeEdit, RenameEdit, RewriteEdit } from "../core/edit.js";
import type { Reason } from "../core/reasons.js";
import type { AppliedEdit, EditResult, FailedEdit } from "../core/result.js";
import { dominantEol, hasFinalNewline, parseText, serializeText, splitModelLines } from "../core/text.js";
import type { Eol } from "../core/text.js";
import type { LineShift } from "./plan-offsets.js";
import { describe } from "./feedback.js";
import { plainIndentedLines } from "./plain-indentation.js";
import type { PlanTree, TreeEntry } from "./plan-tree.js";
import { normalizeRelativePath } from "./paths.js";
import type { FileState } from "./snapshot.js";
import { withEol } from "./snapshot.js";

export interface StepContext {
  readonly tree: PlanTree;
  /** Line ending for created files: the project's, as seen in the snapshot. */
  readonly eol: () => "\n" | "\r\n";
  /** Per path: where earlier replace edits in this reply changed the line count (for hint line numbers). */
  readonly offsets: Map<string, LineShift[]>;
  /** The replace edits applied so far, by what they say (`repeatKey`): a repeat of one is applied once. */
  readonly applied: Map<string, AppliedEdit>;
}

/** Whole-file rewrites of files at least this long are checked for being excerpts. */
export const EXCERPT_MIN_LINES = 20;

export const fail = (
  path: string,
  edit: Edit | undefined,
  reason: Reason,
  message: string,
  near?: FailedEdit["near"],
): FailedEdit => ({ ok: false, path, edit, reason, message, ...(near === undefined ? {} : { near }) });

type Inaccessible = Extract<FileState, { kind: "unreadable" | "unsafe" | "protected" }>;

/** Paths no edit may use, whatever it wants to do with them: the same refusal for updates and for targets. */
function refuseInaccessible(state: Inaccessible, path: string, edit: Edit): FailedEdit {
  switch (state.kind) {
    case "unreadable":
      return fail(path, edit, "unreadable-file", describe.unreadableFile(path, state.message, edit));
    case "unsafe":
      return fail(path, edit, "unsafe-path", describe.unsafePath(path, state.message, edit));
    case "protected":
      return fail(path, edit, "forbidden-path", describe.forbiddenPath(path, state.message, edit));
  }
}

/** The refusal for a target that is not a readable text file, or undefined when it is one. */
export function refuseExisting(state: FileState | TreeEntry, path: string, edit: Edit): FailedEdit | undefined {
  switch (state.kind) {
    case "text":
      return undefined;
    case "missing":
      return fail(path, edit, "missing-original", describe.missingOriginal(path, edit));
    case "binary":
      return fail(path, edit, "binary-file", describe.binaryFile(path, edit));
    case "unreadable":
    case "unsafe":
    case "protected":
      return refuseInaccessible(state, path, edit);
  }
}

/** The refusal for a path a creation or move would write to, or undefined when it is free. */
function refuseTarget(state: FileState, path: string, edit: Edit): FailedEdit | undefined {
  switch (state.kind) {
    case "missing":
      return undefined;
    case "text":
    case "binary":
      return fail(path, edit, "file-exists", describe.fileExists(path, edit));
    case "unreadable":
    case "unsafe":
    case "protected":
      return refuseInaccessible(state, path, edit);
  }
}

function planNewFile(ctx: StepContext, edit: CreateEdit | RewriteEdit, path: string): EditResult {
  const after = withEol(edit.content, ctx.eol());
  // A whole new content: line numbers from the reply no longer refer to what earlier edits shifted.
  ctx.offsets.delete(path);
  ctx.tree.setText(path, after);
  if (edit.kind === "create" && edit.executable === true) ctx.tree.setExecutable(path, true);
  return { ok: true, path, edit, before: "", after, strategy: "create" };
}

export function planCreate(ctx: StepContext, edit: CreateEdit, path: string): EditResult {
  const state = ctx.tree.get(path);
  // An empty SEARCH is how SEARCH/REPLACE fills a file; an existing 0-byte file (an empty __init__.py) has nothing
  // to overwrite and no content a SEARCH could quote, so refusing would ask the impossible.
  if (edit.origin.format === "editblock" && state.kind === "text" && state.content === "") {
    return planNewFile(ctx, edit, path);
  }
  return refuseTarget(state, path, edit) ?? planNewFile(ctx, edit, path);
}

export function planDelete(ctx: StepContext, edit: DeleteEdit, path: string): EditResult {
  const state = ctx.tree.get(path);
  if (state.kind === "binary") {
    // Deleting needs none of its bytes (`before` is empty: they are not text).
    ctx.tree.remove(path);
    return { ok: true, path, edit, before: "", after: "", strategy: "delete" };
  }
  if (state.kind !== "text") return refuseExisting(state, path, edit)!;
  ctx.tree.remove(path);
  return { ok: true, path, edit, before: state.content, after: "", strategy: "delete" };
}

/** A move (the source goes) or a copy (it stays); the file keeps its mode where it goes, as git's do. */
export function planRename(ctx: StepContext, edit: RenameEdit | CopyEdit, path: string): EditResult {
  const state = ctx.tree.get(path);
  if (state.kind !== "text") return refuseExisting(state, path, edit)!;
  const to = normalizeRelativePath(edit.to);
  if (!to.ok) return fail(path, edit, "unsafe-path", describe.unsafePath(edit.to, to.message, edit));
  const moved = { ok: true, path, edit, before: state.content, after: state.content, strategy: edit.kind } as const;
  // Moving or copying a file onto itself keeps it; refusing would punish a harmless no-op.
  if (to.path === path) return moved;
  const refused = refuseTarget(ctx.tree.get(to.path), to.path, edit);
  if (refused) return { ...refused, path };
  const executable = ctx.tree.executableOf(path);
  if (edit.kind === "rename") ctx.tree.remove(path);
  ctx.tree.setText(to.path, state.content);
  if (executable !== undefined) ctx.tree.setExecutable(to.path, executable);
  return moved;
}

export function planMode(ctx: StepContext, edit: ModeEdit, path: string): EditResult {
  const state = ctx.tree.get(path);
  if (state.kind !== "text") return refuseExisting(state, path, edit)!;
  ctx.tree.setExecutable(path, edit.executable);
  return { ok: true, path, edit, before: state.content, after: state.content, strategy: "mode" };
}

/** Share of a short rewrite's non-blank lines found in the old file above which it is called an excerpt. */
export const EXCERPT_SHARED_SHARE = 0.6;

/**
 * A rewrite that is much shorter than a long file and made mostly of the file's own lines is almost always a
 * model quoting the part it changed ("lazy" whole-file output); writing it would delete the rest. Requiring every
 * line to be known would let through an excerpt that also changes a line, the usual case; a short rewrite that
 * shares few lines with the file is a genuine rewrite and is kept.
 */
export function looksLikeExcerpt(oldLines: readonly string[], newLines: readonly string[]): boolean {
  if (oldLines.length < EXCERPT_MIN_LINES || newLines.length >= oldLines.length / 2) return false;
  const known = new Set(oldLines.map((l) => l.trim()));
  const real = newLines.map((l) => l.trim()).filter((l) => l !== "");
  const shared = real.filter((l) => known.has(l)).length;
  return shared >= real.length * EXCERPT_SHARED_SHARE;
}

const ELISION_REFUSED =
  "a whole-file reply must contain the entire file; '...' would delete the lines it stands for; use SEARCH/REPLACE blocks for partial changes";

/**
 * The refusal for a rewrite whose suspected elision `index` (0-based content line) is not a line of the file,
 * worded as the parse problem it used to be, at the elision's reply line (the body starts after the opener).
 */
function refuseElision(edit: RewriteEdit, path: string, index: number): FailedEdit {
  const problem = { path: edit.path, format: edit.origin.format, line: edit.origin.line + 1 + index };
  return fail(path, edit, "invalid-format", describe.invalidFormat({ ...problem, message: ELISION_REFUSED }));
}

export function planRewrite(ctx: StepContext, edit: RewriteEdit, path: string): EditResult {
  const state = ctx.tree.get(path);
  let suspected = edit.suspectedElisions ?? [];
  if (state.kind === "missing") {
    // A new file has nothing an elision could stand for: it would be written as text.
    const first = suspected[0];
    return first === undefined ? planNewFile(ctx, edit, path) : refuseElision(edit, path, first);
  }
  if (state.kind !== "text") return refuseExisting(state, path, edit)!;
  const old = parseText(state.content);
  const written = splitModelLines(edit.content);
  if (edit.pathComment === true) {
    // The comment naming the path is the model's header unless the file starts with it.
    if (written[0]?.replace(/^\uFEFF/, "").trim() !== old.lines[0]?.trim()) {
      written.shift();
      suspected = suspected.map((i) => i - 1).filter((i) => i >= 0);
    }
    if (written.length < old.lines.length / 2) {
      return fail(path, edit, "invalid-format", describe.shortFile(path, edit, old.lines.length, written.length));
    }
  }
  const lines = plainIndentedLines(written, old.lines.length, (i) => old.lines[i]!) ?? written;
  // A BOM the model copied into the content is the file's BOM flag, not text of line 1.
  if (lines[0]?.startsWith("\uFEFF") === true) lines[0] = lines[0].slice(1);
  if (suspected.length > 0) {
    // A suspected elision the file already holds verbatim is a real line (a comment continuing a sentence); one
    // more copy than the file has is still an elision (a lazy `// ...` in a file that has one `// ...` already).
    const available = new Map<string, number>();
    for (const l of old.lines) available.set(l.trim(), (available.get(l.trim()) ?? 0) + 1);
    const elided = suspected.find((i) => {
      const key = (lines[i] ?? "").trim();
      const left = available.get(key) ?? 0;
      available.set(key, left - 1);
      return left <= 0;
    });
    if (elided !== undefined) return refuseElision(edit, path, elided);
  }
  if (looksLikeExcerpt(old.lines, lines)) {
    return fail(path, edit, "invalid-format", describe.excerpt(path, edit, old.lines.length, lines.length));
  }
  // The file's conventions survive a rewrite: BOM, dominant line ending, final-newline presence.
  const eol = old.lines.length > 0 ? dominantEol(old) : ctx.eol();
  const finalNewline = old.lines.length === 0 || hasFinalNewline(old);
  const eols: Eol[] = lines.map((_, i) => (i === lines.length - 1 && !finalNewline ? "" : eol));
  const after = serializeText({ bom: old.bom || edit.content.startsWith("\uFEFF"), lines, eols });
  ctx.offsets.delete(path);
  ctx.tree.setText(path, after);
  return { ok: true, path, edit, before: state.content, after, strategy: "rewrite" };
}
