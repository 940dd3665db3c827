/**
 * One generated case: a real file (with a variant's conventions), a window in it, an intended change, the drift
 * the model introduced, the reply in one dialect, the intended result and what the engine should do.
 *
 * Fault kinds are the drift kinds plus two adversarial placements: `ambiguous` (the window's text occurs at two or
 * more places) and `ambiguous-1line` (a one-line window that recurs); those carry mild drift too, and must be
 * refused unless the dialect says where (a correct line number, an anchor), when landing at the intended place
 * is also right.
 */
import { DRIFT_KINDS, MILD_DRIFT, type DriftKind, type ModelOp } from "./drift.js";
import { applyDrift } from "./drift-structure.js";
import { intendedLines, makeIntent, pickRepeatedWindow, pickUniqueWindow, type Intent } from "./intent.js";
import { caseSeed, createRandom, type Random } from "./random.js";
import { anchorLine, DIALECTS, HINTED, renderReply, type Dialect } from "./render.js";
import { pickSource, pickVariant, withVariant, type SourceFile, type Variant } from "./sources.js";
import {
  detectUnit,
  exactKey,
  trailingFreeKey,
  findAll,
  findSkippingBlanks,
  isBlankLine,
  joinFile,
  leadingWs,
  looseKey,
  splitFile,
  type FileText,
} from "./text.js";

export const FAULT_KINDS = [...DRIFT_KINDS, "ambiguous", "ambiguous-1line"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export type Expectation = "apply" | "refuse" | "either";

export interface DriftCase {
  readonly id: string;
  readonly origin: string;
  readonly path: string;
  readonly variant: Variant;
  readonly dialect: Dialect;
  readonly fault: FaultKind;
  readonly drift: DriftKind;
  readonly before: string;
  readonly reply: string;
  readonly intended: string;
  readonly expect: Expectation;
  /** Mild drift on a window that is unique even on the loosest rung: a refusal is needless. */
  readonly mustLand: boolean;
  /** 1-based window lines, and what was done. */
  readonly window: { readonly start: number; readonly size: number };
  readonly change: Intent["change"];
  readonly note: string;
  /**
   * Results that are defensible readings of an ambiguous reply (doubtful, not wrong): an insertion next to a line
   * the model dropped, on the other side of it; for an apply_patch anchor, the first occurrence after the anchor.
   */
  readonly alternatives: readonly { readonly text: string; readonly why: string }[];
}

const WHOLE_FAULTS: ReadonlySet<FaultKind> = new Set<FaultKind>(["none", "crlf", "elision"]);
const PLACEMENT_DRIFT: readonly DriftKind[] = ["none", "none", "indent-shift", "trailing-added", "unicode", "crlf"];

export const faultsFor = (dialect: Dialect): FaultKind[] =>
  FAULT_KINDS.filter((f) => (dialect === "whole" ? WHOLE_FAULTS.has(f) : true));

export function expectationOf(fault: FaultKind, drift: DriftKind, dialect: Dialect): Expectation {
  if (fault === "ambiguous" || fault === "ambiguous-1line") return HINTED.has(dialect) ? "either" : "refuse";
  if (dialect === "whole") return fault === "elision" ? "refuse" : "apply";
  return MILD_DRIFT.has(drift) ? "apply" : "either";
}

/** The whole file as the model rewrites it; for `elision`, a run of unchanged lines cut out lazily. */
function wholeText(after: readonly string[], intent: Intent, fault: FaultKind, lang: SourceFile["lang"], rng: Random) {
  if (fault !== "elision") return { lines: after, ok: true };
  const end = intent.start + intent.ops.filter((o) => o.op !== "remove").length;
  const spans: [number, number][] = [];
  if (intent.start >= 6) spans.push([1, intent.start - 1]);
  if (after.length - end >= 6) spans.push([end + 1, after.length - 1]);
  if (spans.length === 0) return { lines: after, ok: false };
  const [from, to] = rng.pick(spans);
  const marker = `${leadingWs(after[from] ?? "")}${lang === "py" || lang === "yaml" || lang === "make" || lang === "sh" ? "#" : "//"} ... existing code ...`;
  return { lines: [...after.slice(0, from), marker, ...after.slice(to)], ok: true };
}

/** Where a block may go in a multi-edit case (0-based window), and lines its window should include. */
export interface Placement {
  readonly accept?: (start: number, size: number) => boolean;
  readonly around?: readonly number[];
}

/** One edit over a file's current lines: window, intent, drift, intended result and how it may be read. */
export interface Block {
  readonly start: number;
  readonly size: number;
  readonly twins: readonly number[];
  readonly intent: Intent;
  readonly drift: DriftKind;
  readonly ops: readonly ModelOp[];
  /** 0-based line of the first line the model's old side stands for (invented leading lines included). */
  readonly oldStart: number;
  readonly after: readonly string[];
  readonly intended: string;
  readonly alternatives: readonly { readonly text: string; readonly why: string }[];
  readonly expect: Expectation;
  readonly mustLand: boolean;
  readonly note: string;
}

export interface BlockInput {
  readonly rng: Random;
  readonly file: FileText;
  readonly lang: SourceFile["lang"];
  readonly dialect: Dialect;
  readonly fault: FaultKind;
  readonly drift: DriftKind;
  readonly placement?: Placement;
}

/** Builds one block over `file` (no rendering), or undefined when the file offers no fitting window. */
export function buildBlock(input: BlockInput): Block | undefined {
  const { rng, file, lang, dialect, fault, drift } = input;
  const accept = input.placement?.accept ?? (() => true);
  const { lines } = file;
  const placement = fault === "ambiguous" || fault === "ambiguous-1line";
  let start: number;
  let size: number;
  let twins: number[] = [];
  if (placement) {
    size = fault === "ambiguous-1line" ? 1 : rng.int(2, 5);
    const starts = pickRepeatedWindow(lines, rng, size);
    const usable = starts?.filter((s) => accept(s, size)) ?? [];
    if (starts === undefined || usable.length === 0) return undefined;
    start = rng.pick(usable);
    // Every other occurrence, overlapping ones too: a stale number pointing exactly at one would be a right hint.
    twins = findAll(lines, lines.slice(start, start + size), looseKey).filter((s) => s !== start);
  } else {
    // Trailing whitespace to remove is rare in real files: look for it.
    const around =
      input.placement?.around ??
      (drift === "trailing-removed" ? lines.flatMap((l, n) => (/[ \t]$/.test(l) ? [n] : [])) : undefined);
    const picked = pickUniqueWindow(lines, rng, fault === "elision" ? 6 : 3, 12, around, accept);
    if (picked === undefined) return undefined;
    [start, size] = picked;
    // Unique byte for byte, but the engine's looser rungs read a copy that differs in trailing whitespace or
    // indentation as the same lines (models strip and re-indent): a stale number pointing exactly at it would be a
    // right hint there too.
    twins = findAll(lines, lines.slice(start, start + size), looseKey).filter((s) => s !== start);
  }
  const intent = makeIntent(lines, start, size, lang, rng);
  if (intent === undefined) return undefined;
  const drifted = applyDrift(drift, { intent, lines, unit: detectUnit(lines), lang, rng });
  const alternatives: { text: string; why: string }[] = [];
  if (drifted === undefined) return undefined;
  const after = intendedLines(lines, intent, drifted.addTexts);
  const intended = joinFile(file, after);
  if (intended === joinFile(file, lines)) return undefined;
  const leadingInvented = drifted.ops.findIndex((o) => o.base !== undefined);
  const moved = drifted.dropped === undefined ? undefined : moveAcrossAdds(intent, drifted.dropped);
  if (moved !== undefined) {
    const text = joinFile(file, intendedLines(lines, intent, drifted.addTexts, moved));
    alternatives.push({ text, why: "the insertion sits on the other side of the line the model dropped" });
  }
  if (placement && dialect === "patch-anchor") {
    const anchor = anchorLine(lines, start);
    const first = anchor === undefined ? undefined : [start, ...twins].sort((a, b) => a - b).find((s) => s >= anchor);
    if (first !== undefined && first !== start) {
      const text = joinFile(file, intendedLines(lines, intent, drifted.addTexts, undefined, first));
      alternatives.push({ text, why: "applied at the first occurrence after the @@ anchor, as apply_patch reads it" });
    }
  }
  // Drift can make the old side equal to lines elsewhere, byte for byte or but for trailing whitespace (which replies
  // routinely lose, and which the file's variant may have added): the reply then literally says "there". Context
  // lines keep the file's bytes there, as the engine keeps them.
  const oldSide = drifted.ops.filter((o) => o.op !== "add").map((o) => o.text);
  const drifts = oldSide.join("\n") !== lines.slice(start, start + size).join("\n");
  // At its own start too: a line dropped from a run of equal lines leaves a SEARCH that the run's first lines are,
  // and read there verbatim the edit pairs with other lines of the run.
  const verbatim = drifts ? findAll(lines, oldSide, trailingFreeKey) : [];
  const elsewhere = verbatim.filter((p) => p !== start);
  for (const p of verbatim) {
    const newSide: string[] = [];
    let k = p;
    for (const o of drifted.ops) {
      if (o.op === "add") newSide.push(o.text);
      else if (o.op === "context") newSide.push(lines[k++]!);
      else k++;
    }
    const text = joinFile(file, [...lines.slice(0, p), ...newSide, ...lines.slice(p + oldSide.length)]);
    if (text === intended) continue;
    const exactly = findAll(lines.slice(p, p + oldSide.length), oldSide, exactKey).length > 0;
    alternatives.push({
      text,
      why: `the drifted old side is ${exactly ? "exactly" : "but for trailing whitespace"} the text at line ${p + 1}`,
    });
  }
  // The same with blank lines between them that the old side lacks, or without the blank context lines at its
  // edges (models add and lose them around a block), and indented otherwise: the engine reads a SEARCH across and
  // without both. The file's blank lines stay.
  const acrossBlanks = drifts ? blankTolerantPlaces(lines, drifted.ops, start) : [];
  for (const { at, lead, trail } of acrossBlanks) {
    const newSide: string[] = [];
    const olds = drifted.ops.filter((o) => o.op !== "add").length;
    let j = 0;
    let n = 0;
    let k = at[0]!;
    for (const o of drifted.ops) {
      if (o.op === "add") {
        newSide.push(o.text);
        continue;
      }
      const edge = n < lead || n >= olds - trail;
      n++;
      if (edge) continue;
      while (k < at[j]!) newSide.push(lines[k++]!);
      if (o.op === "context") newSide.push(lines[k]!);
      k++;
      j++;
    }
    const text = joinFile(file, [...lines.slice(0, at[0]), ...newSide, ...lines.slice(k)]);
    if (text === intended) continue;
    alternatives.push({
      text,
      why: `the drifted old side is the text at line ${at[0]! + 1} but for blank lines and indentation`,
    });
  }
  const expect = expectationOf(fault, drift, dialect);
  const window = lines.slice(start, start + size);
  const looselyUnique =
    findAll(lines, window, looseKey).length === 1 && elsewhere.length === 0 && acrossBlanks.length === 0;
  // Re-expressing alignment spaces (JSDoc ` * `, continuation lines) in another unit has no single right answer.
  const unit = detectUnit(lines);
  const aligned =
    (drift === "tabs-spaces" || drift === "indent-2-4") &&
    unit.kind === "spaces" &&
    window.some((l) => leadingWs(l).replace(/\t/g, "").length % unit.width !== 0);
  return {
    start,
    size,
    twins,
    intent,
    drift,
    ops: drifted.ops,
    oldStart: start - Math.max(0, leadingInvented),
    after,
    intended,
    alternatives,
    expect,
    mustLand: expect === "apply" && looselyUnique && !aligned && !window.every(isBlankLine),
    note: drifted.note,
  };
}

function tryBuild(
  id: string,
  rng: Random,
  source: SourceFile,
  dialect: Dialect,
  fault: FaultKind,
): DriftCase | undefined {
  const placement = fault === "ambiguous" || fault === "ambiguous-1line";
  const drift: DriftKind = placement ? rng.pick(PLACEMENT_DRIFT) : fault;
  const variant = pickVariant(rng, source, { crlf: drift === "crlf", trailing: drift === "trailing-removed" });
  const before = withVariant(source, variant);
  const file = splitFile(before);
  const block = buildBlock({ rng, file, lang: source.lang, dialect, fault, drift });
  if (block === undefined) return undefined;
  const whole = dialect === "whole" ? wholeText(block.after, block.intent, fault, source.lang, rng) : undefined;
  if (whole !== undefined && !whole.ok) return undefined;
  const reply = renderReply({
    dialect,
    path: source.path,
    lang: source.lang,
    ops: block.ops,
    oldStart: block.oldStart,
    lines: file.lines,
    windowStart: block.start,
    twins: block.twins,
    ...(whole === undefined ? {} : { whole: whole.lines }),
    rng,
  });
  return caseOf(id, source, variant, dialect, fault, before, reply, block);
}

/** A block (built over `before`) as a single-edit case. */
export function caseOf(
  id: string,
  source: Pick<SourceFile, "origin" | "path">,
  variant: Variant,
  dialect: Dialect,
  fault: FaultKind,
  before: string,
  reply: string,
  block: Block,
): DriftCase {
  return {
    id,
    origin: source.origin,
    path: source.path,
    variant,
    dialect,
    fault,
    drift: block.drift,
    before,
    reply,
    intended: block.intended,
    expect: block.expect,
    mustLand: block.mustLand,
    window: { start: block.start + 1, size: block.size },
    change: block.intent.change,
    note: block.note,
    alternatives: block.alternatives,
  };
}

/** The op order with the dropped op moved across the run of add ops next to it, or undefined when none is. */
function moveAcrossAdds(intent: Intent, dropped: number): number[] | undefined {
  const order = intent.ops.map((_, i) => i);
  const isAdd = (i: number): boolean => intent.ops[i]?.op === "add";
  if (isAdd(dropped - 1)) {
    let from = dropped - 1;
    while (isAdd(from - 1)) from--;
    return [...order.slice(0, from), dropped, ...order.slice(from, dropped), ...order.slice(dropped + 1)];
  }
  if (isAdd(dropped + 1)) {
    let to = dropped + 1;
    while (isAdd(to + 1)) to++;
    return [...order.slice(0, dropped), ...order.slice(dropped + 1, to + 1), dropped, ...order.slice(to + 1)];
  }
  return undefined;
}

/** Case `index` of a seeded run; the same (seed, index) always gives the same case. */
export function generateCase(seed: number, index: number): DriftCase {
  const rng = createRandom(caseSeed(seed, index));
  const dialect = rng.pick(DIALECTS);
  const fault = rng.pick(faultsFor(dialect));
  for (let attempt = 0; attempt < 100; attempt++) {
    const built = tryBuild(`${seed}:${index}`, rng, pickSource(rng), dialect, fault);
    if (built !== undefined) return built;
  }
  throw new Error(`drift harness: could not build case ${seed}:${index} (${dialect}, ${fault})`);
}

/**
 * Places of the old side's lines (trimmed) other than its own, read across blank lines the file has between them,
 * or, when it starts or ends with blank context lines, without those: `at` holds the file lines of the lines read,
 * `lead` and `trail` how many blank context lines were left out at each edge.
 */
function blankTolerantPlaces(
  lines: readonly string[],
  ops: readonly ModelOp[],
  start: number,
): { readonly at: number[]; readonly lead: number; readonly trail: number }[] {
  const olds = ops.filter((o) => o.op !== "add");
  const oldSide = olds.map((o) => o.text);
  const trim = (line: string): string => line.trim();
  const places = findSkippingBlanks(lines, oldSide, trim)
    .filter((at) => at[0] !== start)
    .map((at) => ({ at, lead: 0, trail: 0 }));
  const edgeBlank = (o: ModelOp): boolean => o.op === "context" && isBlankLine(o.text);
  let lead = 0;
  while (lead < olds.length && edgeBlank(olds[lead]!)) lead++;
  let trail = 0;
  while (trail < olds.length - lead && edgeBlank(olds[olds.length - 1 - trail]!)) trail++;
  const inner = oldSide.slice(lead, oldSide.length - trail);
  if (lead + trail === 0 || inner.length === 0 || inner.some(isBlankLine)) return places;
  const contiguous = findAll(lines, inner, trim).map((p) => inner.map((_, i) => p + i));
  for (const at of [...contiguous, ...findSkippingBlanks(lines, inner, trim)]) {
    if (at[0] !== start + lead) places.push({ at, lead, trail });
  }
  return places;
}
