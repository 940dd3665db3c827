/**
 * SEARCH/REPLACE text → line ops. A line diff (jsdiff's `diffArrays`) marks unchanged lines as context, so the
 * matcher and the planner can keep the file's own bytes for them; elision lines are compared as one token so that
 * `...` in SEARCH pairs with `// ... existing code ...` in REPLACE.
 */
import { diffArrays } from "diff";
import type { LineOp } from "../../core/edit.js";
import { isElision } from "../shared/elision.js";

export type DerivedOps =
  | { readonly ok: true; readonly ops: LineOp[] }
  | { readonly ok: false; readonly side: "search" | "replace"; readonly offset: number };

const ELISION_KEY = "E";
const keyOf = (line: string, path: string): string => (isElision(line, path) ? ELISION_KEY : `T${line}`);

// Myers is O((N+M)·D); past this many differing lines a giant block falls back to "remove all, add all".
const MAX_EDIT_LENGTH = 400;

/**
 * Derives ops whose old side is exactly `search` and whose new side is `replace` (elisions keep SEARCH's text).
 * Fails with the offset (within its side) of the first elision that has no partner at the same place.
 */
export function deriveOps(search: readonly string[], replace: readonly string[], path: string): DerivedOps {
  const a = search.map((l) => keyOf(l, path));
  const b = replace.map((l) => keyOf(l, path));
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;

  const ops: LineOp[] = [];
  // Lines `from` of SEARCH and `to` of REPLACE on, `count` of them, the same on both sides.
  const common = (from: number, to: number, count: number): void => {
    for (let k = 0; k < count; k++) {
      const text = search[from + k]!;
      if (a[from + k] !== ELISION_KEY) {
        ops.push({ op: "context", text });
        continue;
      }
      const other = replace[to + k]!;
      ops.push(other.trim() === text.trim() ? { op: "elision", text } : { op: "elision", text, becomes: other });
    }
  };
  common(0, 0, head);

  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const changes = diffArrays(midA, midB, { maxEditLength: MAX_EDIT_LENGTH }) ?? [
    { value: midA, count: midA.length, added: false, removed: true },
    { value: midB, count: midB.length, added: true, removed: false },
  ];
  let i = head;
  let j = head;
  for (const change of changes) {
    const count = change.value.length;
    if (change.added) {
      for (let k = j; k < j + count; k++) {
        if (b[k] === ELISION_KEY) return { ok: false, side: "replace", offset: k };
        ops.push({ op: "add", text: replace[k]! });
      }
      j += count;
    } else if (change.removed) {
      for (let k = i; k < i + count; k++) {
        if (a[k] === ELISION_KEY) return { ok: false, side: "search", offset: k };
        ops.push({ op: "remove", text: search[k]! });
      }
      i += count;
    } else {
      common(i, j, count);
      i += count;
      j += count;
    }
  }
  common(a.length - tail, b.length - tail, tail);
  return { ok: true, ops };
}
