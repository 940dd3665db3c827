/**
 * Pure insertions (an edit with only `add` lines). With no old text there is nothing to match, so the place must
 * come from the edit itself: the end of the file, an empty file, or `@@` anchor lines. Anything else would be a
 * guess, and the model is asked for context lines instead.
 */
import type { EditHint } from "../core/edit.js";
import type { TextFile } from "../core/text.js";
import { resolveAnchors } from "./hints.js";
import { findNearestLines, quote } from "./nearest-lines.js";
import { isBlank } from "./normalize.js";
import type { LocateResult } from "./types.js";

const NO_PLACE =
  "the edit only adds lines and says nowhere where they go: include 2-3 unchanged lines before and after the " +
  "insertion point as context";

/** Lines quoted on each side of a line number given without context. */
const HINT_CONTEXT = 3;

const at = (position: number): LocateResult => ({
  kind: "found",
  match: { start: position, end: position, strategy: "exact", alignment: [] },
});

export function locateInsertion(file: TextFile, hint: EditHint): LocateResult {
  const total = file.lines.length;
  if (total === 0) return at(0);
  if (hint.atEndOfFile === true) return at(total);
  const anchors = hint.anchors?.filter((a) => !isBlank(a)) ?? [];
  if (anchors.length === 0 && hint.line !== undefined) {
    // The header names a line, but a line number alone is a guess once the file changed since the model read it.
    const line = Math.min(Math.max(hint.line - 1, 0), total);
    return {
      kind: "not-found",
      nearest: quote(file, line - HINT_CONTEXT, line + HINT_CONTEXT, "hint-line"),
      note:
        `a line number alone (line ${String(hint.line)}) does not place them, since the file may have changed ` +
        "since it was read: include 2-3 unchanged lines before and after the insertion point as context",
    };
  }
  if (anchors.length === 0) return { kind: "not-found", nearest: findNearestLines(file, []), note: NO_PLACE };
  const ends = resolveAnchors(file, anchors);
  if (ends.length === 1) return at(ends[0]! + 1);
  if (ends.length > 1) return { kind: "ambiguous", strategy: "unicode", lines: ends.map((e) => e + 1) };
  const quoted = anchors.map((a) => `"${a.trim()}"`).join(" then ");
  return {
    kind: "not-found",
    nearest: findNearestLines(file, anchors),
    note: `the anchor line ${quoted} is not in the file; ${NO_PLACE}`,
  };
}
