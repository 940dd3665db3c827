/** Hand-built parsed items and snapshots for the planner's tests. */
import type { FileState } from "../../../src/apply/snapshot.js";
import type { Edit, FormatName, LineOp, ParsedItem } from "../../../src/core/edit.js";
import type { EditResult } from "../../../src/core/result.js";

export const origin = (line = 1, format: FormatName = "editblock") => ({ format, line });
export const item = (edit: Edit): ParsedItem => ({ type: "edit", edit });

/** A SEARCH/REPLACE-style edit: all old lines removed, all new lines added. */
export const searchReplace = (path: string, search: string[], replace: string[], line = 1): ParsedItem =>
  item({
    kind: "replace",
    path,
    ops: [
      ...search.map((text): LineOp => ({ op: "remove", text })),
      ...replace.map((text): LineOp => ({ op: "add", text })),
    ],
    hint: {},
    explicitOps: false,
    origin: origin(line),
  });

/** A udiff-style hunk with a line hint (1-based, in the original file). */
export const hunk = (path: string, ops: LineOp[], hintLine: number): ParsedItem =>
  item({ kind: "replace", path, ops, hint: { line: hintLine }, explicitOps: true, origin: origin(1, "udiff") });

export const create = (path: string, content: string): ParsedItem =>
  item({ kind: "create", path, content, origin: origin() });
export const del = (path: string): ParsedItem => item({ kind: "delete", path, origin: origin() });
export const rename = (path: string, to: string): ParsedItem => item({ kind: "rename", path, to, origin: origin() });
export const copy = (path: string, to: string): ParsedItem => item({ kind: "copy", path, to, origin: origin() });
export const mode = (path: string, executable: boolean): ParsedItem =>
  item({ kind: "mode", path, executable, origin: origin(1, "udiff") });
export const script = (path: string, content: string): ParsedItem =>
  item({ kind: "create", path, content, executable: true, origin: origin(1, "udiff") });
export const rewrite = (path: string, content: string): ParsedItem =>
  item({ kind: "rewrite", path, content, origin: origin() });

export const text = (content: string): FileState => ({ kind: "text", content });
export const executable = (content: string): FileState => ({ kind: "text", content, executable: true });
export const snap = (entries: Record<string, FileState | string>): Map<string, FileState> =>
  new Map(Object.entries(entries).map(([k, v]) => [k, typeof v === "string" ? text(v) : v]));
export const missing: FileState = { kind: "missing" };

export const reasons = (results: readonly EditResult[]) => results.map((r) => (r.ok ? `ok:${r.strategy}` : r.reason));
