/** Test helpers: edits built the way the dialect parsers build them, and locate + render in one call. */
import { diffArrays } from "diff";
import type { EditHint, LineOp, ReplaceEdit } from "../../../src/core/edit.js";
import { parseText, serializeText } from "../../../src/core/text.js";
import { renderReplacement } from "../../../src/apply/splice.js";
import { locate } from "../../../src/matcher/ladder.js";
import type { LocateOptions, LocateResult } from "../../../src/matcher/types.js";

const ELISION = /^\s*(\.\.\.|(\/\/|#) \.\.\. .*)$/;

/** SEARCH/REPLACE texts (lines joined by "\n") as ops: a line diff, elision lines paired at the same place. */
export function searchReplace(search: string, replace: string): LineOp[] {
  return opsFromLines(search === "" ? [] : search.split("\n"), replace === "" ? [] : replace.split("\n"));
}

export function opsFromLines(a: string[], b: string[]): LineOp[] {
  const ops: LineOp[] = [];
  for (const change of diffArrays(a, b)) {
    for (const text of change.value) {
      if (change.added) ops.push({ op: "add", text });
      else if (change.removed) ops.push({ op: "remove", text });
      else ops.push({ op: ELISION.test(text) ? "elision" : "context", text });
    }
  }
  return ops;
}

export function replaceEdit(
  ops: readonly LineOp[],
  hint: EditHint = {},
  extra: Partial<ReplaceEdit> = {},
): ReplaceEdit {
  return {
    kind: "replace",
    path: "f.txt",
    ops,
    hint,
    explicitOps: false,
    origin: { format: "editblock", line: 1 },
    ...extra,
  };
}

export type Applied =
  | {
      readonly ok: true;
      readonly after: string;
      readonly result: LocateResult;
      readonly changed: { start: number; end: number };
    }
  | { readonly ok: false; readonly result: LocateResult };

/** Locates and renders; the new content when found. */
export function applyOps(
  content: string,
  ops: readonly LineOp[],
  hint: EditHint = {},
  options: LocateOptions = {},
  extra: Partial<ReplaceEdit> = {},
): Applied {
  const file = parseText(content);
  const result = locate(file, { ops, hint }, options);
  if (result.kind !== "found") return { ok: false, result };
  const rendered = renderReplacement(file, replaceEdit(ops, hint, extra), result.match);
  return { ok: true, after: serializeText(rendered.file), result, changed: rendered.changed };
}

/** SEARCH/REPLACE applied to content; throws with the locate result when it did not apply. */
export function applySR(content: string, search: string, replace: string, hint: EditHint = {}): string {
  const applied = applyOps(content, searchReplace(search, replace), hint);
  if (!applied.ok) throw new Error(`not applied: ${JSON.stringify(applied.result)}`);
  return applied.after;
}

export const lines = (...parts: string[]): string => parts.map((p) => `${p}\n`).join("");
