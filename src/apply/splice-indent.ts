/**
 * Re-indenting the lines an edit adds, so they sit at the file's real depth in the file's own style: tabs in a
 * tab-indented file, the file's space width otherwise, relative nesting kept.
 *
 * Each added line takes its depth from the nearest aligned old line (a non-blank context or removed line matched
 * to one file line): the difference, in levels, between that file line and the model's copy of it is added to the
 * added line's own depth. Depths are read in the model's unit unless the model evidently wrote in the file's unit
 * (every aligned pair differs by the same whole number of file levels, same characters): then both sides are read
 * in the file's unit, so a short snippet whose unit is misread cannot distort it. When that offset is zero and a
 * line already fits the file's style, it is written as the model wrote it: on the exact rung this is the identity.
 */
import type { ReplaceEdit } from "../core/edit.js";
import { leadingWhitespace, renderIndent, type IndentStyle } from "../core/indent.js";
import type { TextFile } from "../core/text.js";
import { fileIndentStyle, levelsOf, modelIndentStyle, type LinePair } from "../matcher/indent-structure.js";
import { isBlank } from "../matcher/normalize.js";
import type { Match } from "../matcher/types.js";

const DEFAULT_STYLE: IndentStyle = { kind: "spaces", width: 4 };
const EPSILON = 1e-6;

export interface IndentPlan {
  readonly fileStyle: IndentStyle;
  readonly modelStyle: IndentStyle;
  /** The model wrote in the file's unit (see above). */
  readonly sameUnit: boolean;
}

/** Whether an indentation already uses the style's characters: tabs (then alignment spaces), or spaces only. */
const fits = (ws: string, style: IndentStyle): boolean =>
  style.kind === "tabs" ? ws === "" || /^\t+ *$/.test(ws) : !ws.includes("\t");

const sameCharacters = (a: string, b: string): boolean =>
  (!a.includes("\t") && !b.includes("\t")) || (!a.includes(" ") && !b.includes(" "));

function writesInFileUnit(pairs: readonly LinePair[], fileStyle: IndentStyle, modelStyle: IndentStyle): boolean {
  // Without an aligned line a different unit cannot be told from a different depth: only the characters change.
  if (pairs.length === 0) return modelStyle.kind === fileStyle.kind;
  let offset: number | undefined;
  for (const { model, file } of pairs) {
    const m = leadingWhitespace(model);
    const f = leadingWhitespace(file);
    if (!sameCharacters(m, f)) return false;
    const delta = f.length - m.length;
    if (offset === undefined) offset = delta;
    else if (delta !== offset) return false;
  }
  return fileStyle.kind === "tabs" || offset! % fileStyle.width === 0;
}

/** The aligned pairs (model's old line, file line) of an edit, by op index. */
export function alignedPairs(file: TextFile, edit: ReplaceEdit, match: Match): Map<number, LinePair> {
  const pairs = new Map<number, LinePair>();
  for (const a of match.alignment) {
    const op = edit.ops[a.op];
    if (op === undefined || op.op === "elision" || op.op === "add" || a.end - a.start !== 1) continue;
    const line = file.lines[a.start]!;
    if (!isBlank(op.text) && !isBlank(line)) pairs.set(a.op, { model: op.text, file: line });
  }
  return pairs;
}

export function planIndent(file: TextFile, edit: ReplaceEdit, pairs: ReadonlyMap<number, LinePair>): IndentPlan {
  const detectedModel = modelIndentStyle(edit.ops);
  const fileStyle = fileIndentStyle(file) ?? detectedModel ?? DEFAULT_STYLE;
  const modelStyle = detectedModel ?? fileStyle;
  return { fileStyle, modelStyle, sameUnit: writesInFileUnit([...pairs.values()], fileStyle, modelStyle) };
}

/** The nearest pair before op `index` in op order, else the nearest after it. */
export function nearestPair(pairs: ReadonlyMap<number, LinePair>, index: number, count: number): LinePair | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const pair = pairs.get(i);
    if (pair !== undefined) return pair;
  }
  for (let i = index + 1; i < count; i++) {
    const pair = pairs.get(i);
    if (pair !== undefined) return pair;
  }
  return undefined;
}

/** An added line in the file's style at the depth its reference line implies. */
export function reindentLine(text: string, ref: LinePair | undefined, plan: IndentPlan): string {
  if (isBlank(text)) return text;
  const ws = leadingWhitespace(text);
  const refStyle = plan.sameUnit ? plan.fileStyle : plan.modelStyle;
  const delta = ref === undefined ? 0 : levelsOf(ref.file, plan.fileStyle) - levelsOf(ref.model, refStyle);
  const fitting = fits(ws, plan.fileStyle);
  if (plan.sameUnit && fitting && Math.abs(delta) < EPSILON) return text;
  const readAs = plan.sameUnit && fitting ? plan.fileStyle : plan.modelStyle;
  return renderIndent(levelsOf(text, readAs) + delta, plan.fileStyle) + text.slice(ws.length);
}
