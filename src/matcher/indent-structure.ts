/**
 * The nesting rule of the indentation-insensitive rungs.
 *
 * Trimmed lines can be equal while the code is not: `if a:` / `    x()` / `y()` and `if a:` / `    x()` /
 * `    y()` differ in meaning. A window therefore matches only when, for every non-blank line, its indentation
 * relative to the first non-blank line agrees between the model's text and the file, read in either of two ways:
 *
 * 1. in levels of each side's own unit (model unit detected from the edit's lines, file unit from the whole file):
 *    2-space model text against a 4-space file, or spaces against tabs;
 * 2. in levels of the file's unit on both sides: the model kept the file's unit but shifted the block (an outdented
 *    SEARCH), which a unit misread from a short snippet must not reject.
 *
 * "Agrees" allows one scale factor for the whole window: the file's relative depth is the model's times a single
 * ratio of two plausible units (1/2, 2, 4/3, ...), unless both sides indent with tabs alone (a tab is a level on
 * each, no unit to misread). A unit read from a few lines can be off by such a factor (4-space YAML lines 8 and 16
 * apart read as an 8-space unit when the file's unit is 2); a uniform scale keeps every
 * comparison between depths (deeper, same, shallower), which is all that decides block structure in offside-rule
 * languages, while a different nesting (a line at the same depth on one side and deeper on the other) still has no
 * ratio. The splice re-indents added lines with the same ratio (depthRatio).
 *
 * Blank lines carry no indentation and are skipped.
 */
import type { LineOp } from "../core/edit.js";
import {
  detectIndentKind,
  detectIndentStyle,
  indentLevels,
  leadingWhitespace,
  type IndentStyle,
} from "../core/indent.js";
import type { TextFile } from "../core/text.js";
import { cached } from "../core/file-memo.js";
import { isBlank } from "./normalize.js";

/** Spaces in a tab-indented text are read as this many per level. */
const TAB_WIDTH = 4;
const EPSILON = 1e-6;

export const spaceWidth = (style: IndentStyle | undefined): number =>
  style?.kind === "spaces" ? style.width : TAB_WIDTH;

/**
 * Indentation depth of a line in levels of a style; `tabStop` (tabStopOf) gives a tab its language's width in a
 * space-indented style.
 */
export const levelsOf = (line: string, style: IndentStyle | undefined, tabStop?: number): number =>
  indentLevels(leadingWhitespace(line), spaceWidth(style), style?.kind === "spaces" ? tabStop : undefined);

/**
 * Lines read to detect a file's style: a file's convention is evident long before this, and a splice may need the
 * style of every large file it touches (which need not even parse more of it: LineDoc.originHead).
 */
export const STYLE_SAMPLE_LINES = 2_000;

/**
 * Where a later version of a file within one reply finds the version whose style it keeps (see below): a symbol on
 * the file object rather than a WeakMap, whose values the engine keeps alive while their key is young.
 */
const STYLE_SOURCE = Symbol("patchsmith.style-source");

type Styled = TextFile & { [STYLE_SOURCE]?: TextFile };

const styleSourceOf = (file: TextFile): TextFile => (file as Styled)[STYLE_SOURCE] ?? file;

const styleSample = (file: TextFile): readonly string[] =>
  file.lines.length > STYLE_SAMPLE_LINES ? file.lines.slice(0, STYLE_SAMPLE_LINES) : file.lines;

/** The file's indentation style, from its first lines, memoised. */
export function fileIndentStyle(file: TextFile): IndentStyle | undefined {
  const source = styleSourceOf(file);
  return cached(source, "indent-style", () => detectIndentStyle(styleSample(source)));
}

/** `fileIndentStyle(file)?.kind`, without the full detection when a cheaper look decides (detectIndentKind). */
export function fileIndentKind(file: TextFile): IndentStyle["kind"] | undefined {
  const source = styleSourceOf(file);
  return cached(source, "indent-kind", () => detectIndentKind(styleSample(source)));
}

/**
 * Gives `to` (a later version of the same file within one reply) the indentation style of `from`: every edit of a
 * reply is conformed to the file's convention as it was before the reply, not to what earlier edits added, and a
 * long file is not re-scanned once per hunk. Nothing is read until the style is asked for.
 */
export function inheritIndentStyle(from: TextFile, to: TextFile): void {
  if (from !== to && Object.isExtensible(to)) {
    Object.defineProperty(to, STYLE_SOURCE, { value: styleSourceOf(from), configurable: true });
  }
}

/** The unit the model wrote in, read from all the edit's lines (old and new sides give more samples). */
export const modelIndentStyle = (ops: readonly LineOp[]): IndentStyle | undefined =>
  detectIndentStyle(ops.map((o) => o.text));

/** The lines an edit adds. */
export const addedLines = (ops: readonly LineOp[]): string[] => ops.flatMap((o) => (o.op === "add" ? [o.text] : []));

export interface LinePair {
  readonly model: string;
  readonly file: string;
  /** The file line's number (0-based), where the pair knows it. */
  readonly line?: number;
}

/** Units a depth ratio may come from: a misread unit is one of these instead of another. */
const UNITS = [1, 2, 3, 4, 8] as const;

const plausibleRatio = (r: number): boolean => UNITS.some((p) => UNITS.some((q) => Math.abs(r - p / q) < EPSILON));

/**
 * The single ratio that maps every model depth (relative to the first pair) onto the file's, each side read in its
 * style: 1 when the model wrote in the file's unit (or no pair is deeper than another), undefined when no plausible
 * ratio fits (the nesting differs).
 */
export function depthRatio(
  pairs: readonly LinePair[],
  modelStyle: IndentStyle | undefined,
  fileStyle: IndentStyle | undefined,
): number | undefined {
  let modelBase: number | undefined;
  let fileBase = 0;
  let ratio: number | undefined;
  for (const { model, file } of pairs) {
    const m = levelsOf(model, modelStyle);
    const f = levelsOf(file, fileStyle);
    if (modelBase === undefined) {
      modelBase = m;
      fileBase = f;
      continue;
    }
    const dm = m - modelBase;
    const df = f - fileBase;
    if (Math.abs(dm) < EPSILON) {
      if (Math.abs(df) > EPSILON) return undefined;
    } else if (ratio === undefined) {
      ratio = df / dm;
      if (!plausibleRatio(ratio)) return undefined;
    } else if (Math.abs(df - ratio * dm) > EPSILON) return undefined;
  }
  return ratio ?? 1;
}

/**
 * Whether the lines an edit adds keep whole depths under `ratio`: a scale read from the aligned lines must put
 * each added line that sits a whole number of model levels from the first pair a whole number of file levels
 * from it too. Two aligned lines fit any plausible ratio; a 4-space edit whose `}` matched a deeper `}` of a
 * 4-space file reads as "half a level per model level", and then its added lines, four spaces apart, would fall
 * between the file's levels: the window is wrong, not the unit.
 */
function addedLinesFit(
  first: LinePair,
  added: readonly string[],
  modelStyle: IndentStyle | undefined,
  ratio: number,
): boolean {
  if (Math.abs(ratio - 1) < EPSILON) return true;
  const base = levelsOf(first.model, modelStyle);
  for (const line of added) {
    if (isBlank(line)) continue;
    const relative = levelsOf(line, modelStyle) - base;
    if (Math.abs(relative - Math.round(relative)) > EPSILON) continue;
    const scaled = relative * ratio;
    if (Math.abs(scaled - Math.round(scaled)) > EPSILON) return false;
  }
  return true;
}

/**
 * True when the pairs' relative indentation agrees (see the rule above) and, under the ratio that makes it agree,
 * the edit's `added` lines keep whole depths (addedLinesFit).
 */
export function nestingCompatible(
  pairs: readonly LinePair[],
  modelStyle: IndentStyle | undefined,
  fileStyle: IndentStyle | undefined,
  added: readonly string[] = [],
): boolean {
  const real = pairs.filter((p) => !isBlank(p.model) && !isBlank(p.file));
  if (real.length < 2) return true;
  // Tabs on both sides leave no unit to misread: a tab is a level on each, and only the model's depths will do.
  const tabs = real.every((p) => !leadingWhitespace(p.model).includes(" ") && !leadingWhitespace(p.file).includes(" "));
  const fits = (style: IndentStyle | undefined): boolean => {
    const ratio = depthRatio(real, style, fileStyle);
    if (ratio === undefined || (tabs && Math.abs(ratio - 1) > EPSILON)) return false;
    return addedLinesFit(real[0]!, added, style, ratio);
  };
  return fits(modelStyle ?? fileStyle) || fits(fileStyle);
}

/**
 * The pairs whose nesting agrees (nestingCompatible), or undefined: all of them when they do, which keeps every
 * line as evidence of the model's unit; else those whose file line does not continue a bracket (`continued`, asked
 * only then: bracket-continuation.ts), laid out as the model pleased, when the rest agree without them.
 */
export function agreeingPairs(
  pairs: readonly LinePair[],
  continuedLines: () => ReadonlySet<number>,
  modelStyle: IndentStyle | undefined,
  fileStyle: IndentStyle | undefined,
  added: readonly string[] = [],
): readonly LinePair[] | undefined {
  if (nestingCompatible(pairs, modelStyle, fileStyle, added)) return pairs;
  const continued = continuedLines();
  if (continued.size === 0) return undefined;
  const structural = pairs.filter((p) => p.line === undefined || !continued.has(p.line));
  if (structural.length === pairs.length) return undefined;
  return nestingCompatible(structural, modelStyle, fileStyle, added) ? structural : undefined;
}
