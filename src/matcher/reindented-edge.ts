/**
 * The other reading of a window that the re-indenting rungs (indentation, unicode) matched. Those rungs compare
 * lines without their indentation (unicode also collapses runs of spaces inside them), so a SEARCH whose edge line
 * is a `}` matches the window's `}` at any depth. When other lines of the window match the model's text byte for
 * byte, where the rung would have forgiven a difference (indentation, a run of spaces inside), the model wrote in
 * the file's own columns; if the edge line, exactly as the model wrote it, is in the file just beyond that edge, the
 * model may as well have left out the lines in between and meant that line. The two readings agree unless the edit
 * removes the edge line or adds lines beside it; then the place is a guess and the edit is ambiguous.
 */
import type { LineOp } from "../core/edit.js";
import type { TextFile } from "../core/text.js";
import { foldLine, isBlank } from "./normalize.js";
import type { OldLine } from "./old-side.js";

const same = (a: string, b: string): boolean => a.trimEnd() === b.trimEnd();

/**
 * Whether the edit's changes are placed by this old line: it is removed, or lines are added right beside it that
 * do not replace a removed line on their other side (a replacement goes where its removed line was).
 */
function placesChange(ops: readonly LineOp[], line: OldLine): boolean {
  if (line.kind === "remove") return true;
  const runBeside = (step: number): boolean => {
    let k = line.op + step;
    if (ops[k]?.op !== "add") return false;
    while (ops[k]?.op === "add") k += step;
    return ops[k]?.op !== "remove";
  };
  return runBeside(-1) || runBeside(1);
}

/**
 * Where the other reading starts (0-based), when the window of `old` at `start` has one; else undefined. Lines up
 * to the old side's length beyond each edge are looked at.
 */
export function reindentedEdgeReading(
  file: TextFile,
  ops: readonly LineOp[],
  old: readonly OldLine[],
  start: number,
): number | undefined {
  const real = old.flatMap((l, i) => (isBlank(l.text) ? [] : [i]));
  if (real.length < 2) return undefined;
  const exact = (i: number): boolean => same(old[i]!.text, file.lines[start + i]!);
  // A line at the margin with single spaces matches at any unit: only a difference the rung forgives (indentation,
  // a run of spaces, a typographic character), absent from an exact line, shows the model kept the file's columns.
  const tellingExact = (i: number): boolean => {
    const text = old[i]!.text;
    return exact(i) && (/^\s/.test(text) || foldLine(text) !== text.trim());
  };
  const edges = [
    { at: real[real.length - 1]!, step: 1 },
    { at: real[0]!, step: -1 },
  ];
  for (const { at, step } of edges) {
    const line = old[at]!;
    if (exact(at) || !placesChange(ops, line) || !real.some((i) => i !== at && tellingExact(i))) continue;
    for (let k = 1; k <= old.length; k++) {
      const f = start + at + step * k;
      if (f < 0 || f >= file.lines.length) break;
      if (same(line.text, file.lines[f]!)) return start + step * k;
    }
  }
  return undefined;
}
