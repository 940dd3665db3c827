/**
 * Re-indenting the lines an edit adds, so they sit at the file's real depth in the file's own style: tabs in a
 * tab-indented file, the file's space width otherwise, relative nesting kept.
 *
 * First, the model's own bytes win where it evidently copied the file: when the nearest aligned old line (a
 * non-blank context or removed line matched to one file line) has exactly the same leading whitespace in the model's
 * text and in the file, and every aligned pair differs by one constant offset in the same characters, an added line
 * is written as the model wrote it if its indentation fits the file's style, uses the same characters as that
 * reference line (both mixing tabs and spaces counts), or is exactly the indentation of an aligned line copied byte
 * for byte. So a space-indented continuation in a tab-indented Makefile, or the space-indented body of a template
 * literal in a tab-indented file, keeps its spaces when the model copied the neighbouring lines byte for byte; a
 * line written with spaces right under tab-indented lines the model copied with tabs is still converted
 * (new code written in the wrong characters: a Makefile recipe line, a Python block). On the exact rung, with the
 * styles agreeing, this is the identity.
 *
 * Otherwise each added line takes its depth from that nearest aligned old line: the file line's depth, plus the
 * added line's depth relative to the model's copy of it, scaled by the window's depth ratio (indent-structure.ts:
 * 1 unless the model's unit was misread by a plausible factor). Depths are read in the model's unit unless the model
 * evidently wrote in the file's unit (every aligned pair differs by the same whole number of file levels, same
 * characters): then both sides are read in the file's unit, so a short snippet whose unit is misread cannot distort
 * it.
 */
import type { ReplaceEdit } from "../core/edit.js";
import { renderIndent, tabStopOf, type IndentStyle } from "../core/indent.js";
import { bracketContinued } from "../matcher/bracket-continuation.js";
import {
  addedLines,
  agreeingPairs,
  depthRatio,
  levelsOf,
  modelIndentStyle,
  type LinePair,
} from "../matcher/indent-structure.js";
import { isBlank } from "../matcher/normalize.js";
import type { Match } from "../matcher/types.js";

const DEFAULT_STYLE: IndentStyle = { kind: "spaces", width: 4 };
const EPSILON = 1e-6;

/** The file's indentation, read lazily: the kind alone is often cheaper to know than the whole style. */
export interface FileIndent {
  readonly style: () => IndentStyle | undefined;
  /** `style()?.kind`. */
  readonly kind: () => IndentStyle["kind"] | undefined;
}

export interface IndentPlan {
  readonly fileStyle: IndentStyle;
  /** `fileStyle.kind`, possibly known without the whole style. */
  readonly fileKind: IndentStyle["kind"];
  readonly modelStyle: IndentStyle;
  /** The model wrote in the file's unit (see above). */
  readonly sameUnit: boolean;
  /** File levels per model level between aligned lines (see depthRatio); 1 when the units were read right. */
  readonly scale: number;
  /** Whether `text` starts with the whole leading whitespace (`width` long) of an aligned line copied byte for byte. */
  copiedIndent(text: string, width: number): boolean;
  /** The columns a tab advances to in the edited file's language (core/indent.ts tabStopOf), if it says. */
  readonly tabStop: number | undefined;
}

/** Whether an indentation already uses the style's characters: tabs (then alignment spaces), or spaces only. */
const fits = (ws: string, kind: IndentStyle["kind"]): boolean =>
  kind === "tabs" ? ws === "" || /^\t+ *$/.test(ws) : !ws.includes("\t");

/*
 * Leading whitespace is read as a width and the kinds of characters in it, not as a copied string: these checks
 * run for every aligned and added line of every edit.
 */
const HAS_SPACE = 1;
const HAS_TAB = 2;

/** The width of the line's leading run of spaces and tabs. */
function leadingWidth(line: string): number {
  let k = 0;
  while (k < line.length && (line.charCodeAt(k) === 32 || line.charCodeAt(k) === 9)) k++;
  return k;
}

/** Which characters the first `width` characters hold (HAS_SPACE | HAS_TAB). */
function leadingKinds(line: string, width: number): number {
  let kinds = 0;
  for (let k = 0; k < width; k++) kinds |= line.charCodeAt(k) === 9 ? HAS_TAB : HAS_SPACE;
  return kinds;
}

/**
 * Both indentations avoid tabs, or both avoid spaces, or both mix them (a tab-indented shell `case` arm written
 * `\t    pattern)`): a line copied with its mixed indentation is still in the same characters as its copy.
 */
const sameCharacters = (a: number, b: number): boolean =>
  ((a | b) & HAS_TAB) === 0 || ((a | b) & HAS_SPACE) === 0 || a === b;

/** The two lines start with the same whitespace (`width` is the first one's). */
function sameLeading(a: string, width: number, b: string): boolean {
  if (leadingWidth(b) !== width) return false;
  for (let k = 0; k < width; k++) if (a.charCodeAt(k) !== b.charCodeAt(k)) return false;
  return true;
}

function writesInFileUnit(
  pairs: readonly LinePair[],
  fileStyle: () => IndentStyle,
  modelStyle: () => IndentStyle,
): boolean {
  // Without an aligned line a different unit cannot be told from a different depth: only the characters change.
  if (pairs.length === 0) return modelStyle().kind === fileStyle().kind;
  let offset: number | undefined;
  for (const { model, file } of pairs) {
    const m = leadingWidth(model);
    const f = leadingWidth(file);
    if (!sameCharacters(leadingKinds(model, m), leadingKinds(file, f))) return false;
    const delta = f - m;
    if (offset === undefined) offset = delta;
    else if (delta !== offset) return false;
  }
  // No offset is a whole number of levels in any style.
  if (offset === 0) return true;
  const style = fileStyle();
  return style.kind === "tabs" || offset! % style.width === 0;
}

/** The aligned pairs (model's old line, file line) of an edit, by op index (undefined where there is none). */
export type AlignedPairs = readonly (LinePair | undefined)[];

export function alignedPairs(
  line: (i: number) => string,
  edit: ReplaceEdit,
  match: Match,
  fileStyle: () => IndentStyle | undefined,
): AlignedPairs {
  const pairs = new Array<LinePair | undefined>(edit.ops.length);
  for (const a of match.alignment) {
    const op = edit.ops[a.op];
    if (op === undefined || op.op === "elision" || op.op === "add" || a.end - a.start !== 1) continue;
    const text = line(a.start);
    if (!isBlank(op.text) && !isBlank(text)) pairs[a.op] = { model: op.text, file: text, line: a.start };
  }
  // Lines continuing a bracket that the model laid out its own way (the nesting agrees only without them: the
  // matcher's rule) place no added line: their depth says nothing about the block's.
  const continued = bracketContinued(line, match.start, match.end, edit.path);
  if (continued.size === 0) return pairs;
  const all = pairs.filter((p) => p !== undefined);
  const agreeing = agreeingPairs(all, () => continued, modelIndentStyle(edit.ops), fileStyle(), addedLines(edit.ops));
  if (agreeing === undefined || agreeing.length === all.length) return pairs;
  return pairs.map((p) => (p?.line !== undefined && continued.has(p.line) ? undefined : p));
}

/**
 * The plan's parts are worked out on first use: an edit found exactly, whose added lines sit under lines the
 * model copied, needs neither the file's style nor the model's, and one that only asks whether an indentation fits
 * needs the file's kind of indentation at most.
 */
class LazyIndentPlan implements IndentPlan {
  private fileStyleMemo: IndentStyle | undefined;
  private modelStyleMemo: IndentStyle | null | undefined;
  private sameUnitMemo: boolean | undefined;
  private scaleMemo: number | undefined;
  private readonly aligned: readonly LinePair[];
  readonly tabStop: number | undefined;

  constructor(
    private readonly fileIndent: FileIndent,
    private readonly edit: ReplaceEdit,
    pairs: AlignedPairs,
  ) {
    this.aligned = pairs.filter((p) => p !== undefined);
    this.tabStop = tabStopOf(edit.path);
  }

  private get detectedModel(): IndentStyle | undefined {
    if (this.modelStyleMemo === undefined) this.modelStyleMemo = modelIndentStyle(this.edit.ops) ?? null;
    return this.modelStyleMemo ?? undefined;
  }

  get fileStyle(): IndentStyle {
    return (this.fileStyleMemo ??= this.fileIndent.style() ?? this.detectedModel ?? DEFAULT_STYLE);
  }

  get fileKind(): IndentStyle["kind"] {
    if (this.fileStyleMemo !== undefined) return this.fileStyleMemo.kind;
    return this.fileIndent.kind() ?? this.detectedModel?.kind ?? DEFAULT_STYLE.kind;
  }

  get modelStyle(): IndentStyle {
    return this.detectedModel ?? this.fileStyle;
  }

  get sameUnit(): boolean {
    return (this.sameUnitMemo ??= writesInFileUnit(
      this.aligned,
      () => this.fileStyle,
      () => this.modelStyle,
    ));
  }

  get scale(): number {
    return (this.scaleMemo ??= this.sameUnit ? 1 : (depthRatio(this.aligned, this.modelStyle, this.fileStyle) ?? 1));
  }

  copiedIndent(text: string, width: number): boolean {
    return this.aligned.some(({ model, file }) => sameLeading(text, width, model) && sameLeading(model, width, file));
  }
}

export function planIndent(fileIndent: FileIndent, edit: ReplaceEdit, pairs: AlignedPairs): IndentPlan {
  return new LazyIndentPlan(fileIndent, edit, pairs);
}

/** The nearest pair before op `index` in op order, else the nearest after it. */
export function nearestPair(pairs: AlignedPairs, index: number): LinePair | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const pair = pairs[i];
    if (pair !== undefined) return pair;
  }
  for (let i = index + 1; i < pairs.length; i++) {
    const pair = pairs[i];
    if (pair !== undefined) return pair;
  }
  return undefined;
}

/**
 * The model copied its reference line byte for byte, and the added line's indentation is evidently the file's, or
 * is the content of a string literal (`inLiteral`: string-literals.ts) rather than indentation.
 */
function keepsModelIndent(
  text: string,
  width: number,
  ref: LinePair,
  plan: IndentPlan,
  inLiteral: () => boolean,
): boolean {
  const refWidth = leadingWidth(ref.model);
  if (!sameLeading(ref.model, refWidth, ref.file) || !plan.sameUnit) return false;
  // An unindented line fits every style; the file's style is read only when nothing else decides.
  if (width === 0) return true;
  if (refWidth > 0 && sameCharacters(leadingKinds(text, width), leadingKinds(ref.model, refWidth))) return true;
  // An indentation the model copied byte for byte from another line of the window (the body of a template literal
  // under an unindented line, a tab-and-space continuation) is the file's own, whatever its dominant style. The
  // literal is asked last: for a Markdown file it reads the lines above the edit.
  return fits(text.slice(0, width), plan.fileKind) || plan.copiedIndent(text, width) || inLiteral();
}

/**
 * An added line in the file's style at the depth its reference line implies. A line that starts inside a string
 * literal keeps its bytes where the model evidently copied the file's columns; where the whole edit moves to
 * another depth, it moves with the code around it.
 */
export function reindentLine(
  text: string,
  ref: LinePair | undefined,
  plan: IndentPlan,
  inLiteral: () => boolean = () => false,
): string {
  if (isBlank(text)) return text;
  const width = leadingWidth(text);
  if (ref !== undefined && keepsModelIndent(text, width, ref, plan, inLiteral)) return text;
  const ws = text.slice(0, width);
  const fitting = fits(ws, plan.fileKind);
  const refStyle = plan.sameUnit ? plan.fileStyle : plan.modelStyle;
  const readAs = plan.sameUnit && fitting ? plan.fileStyle : plan.modelStyle;
  // Without a reference line a different unit cannot be told from a different depth: only the characters change.
  const refFile = ref === undefined ? 0 : levelsOf(ref.file, plan.fileStyle, plan.tabStop);
  const refModel = ref === undefined ? 0 : levelsOf(ref.model, refStyle, plan.tabStop);
  if (plan.sameUnit && fitting && Math.abs(refFile - refModel) < EPSILON) return text;
  const levels = refFile + plan.scale * (levelsOf(text, readAs, plan.tabStop) - refModel);
  return renderIndent(levels, plan.fileStyle) + text.slice(ws.length);
}
