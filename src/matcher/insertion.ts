/**
 * Pure insertions (an edit with only `add` lines). With no old text there is nothing to match, so the place must
 * come from the edit itself: the end of the file, an empty file, or `@@` anchor lines. Anything else would be a
 * guess, and the model is asked for context lines instead.
 */
import type { EditHint } from "../core/edit.js";
import type { TextFile } from "../core/text.js";
import { resolveAnchors } from "./hints.js";
import { findNearestLines } from "./nearest-lines.js";
import { isBlank } from "./normalize.js";
import type { LocateResult } from "./types.js";

const NO_PLACE =
  "the edit only adds lines and says nowhere where they go: include 2-3 unchanged lines before and after the " +
  "insertion point as context";

const at = (position: number): LocateResult => ({
  kind: "found",
  match: { start: position, end: position, strategy: "exact", alignment: [] },
});

export function locateInsertion(file: TextFile, hint: EditHint): LocateResult {
  const total = file.lines.length;
  if (total === 0) return at(0);
  if (hint.atEndOfFile === true) return at(total);
  const anchors = hint.anchors?.filter((a) => !isBlank(a)) ?? [];
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
