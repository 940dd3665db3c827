/**
 * Drift: what a model gets wrong while copying the lines it edits. Each kind turns the intent's ops (the file's
 * text) into the ops the model writes. Whitespace drift hits every line, both sides alike (a model re-indents its
 * whole answer); content drift (typos, invented or dropped lines, stale lines) hits unchanged lines only, and is
 * copied identically into SEARCH and REPLACE, as a model re-typing its own SEARCH does. Unicode drift may also
 * hit a changed line's new text ("re-typed"): the intended result then holds what the model wrote.
 */
import type { BaseOp, Intent } from "./intent.js";
import type { Random } from "./random.js";
import type { Lang } from "./sources.js";
import { isBlankLine, leadingWs, type Unit } from "./text.js";

export const DRIFT_KINDS = [
  "none",
  "trailing-removed",
  "trailing-added",
  "indent-shift",
  "tabs-spaces",
  "indent-2-4",
  "crlf",
  "unicode",
  "leading-blank",
  "elision",
  "typo",
  "dropped-line",
  "extra-line",
  "paraphrase",
  "stale-context",
] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** Drift an engine must absorb: refusing it on a loosely unique window is a needless refusal. */
export const MILD_DRIFT: ReadonlySet<DriftKind> = new Set<DriftKind>([
  "none",
  "trailing-removed",
  "trailing-added",
  "indent-shift",
  "tabs-spaces",
  "indent-2-4",
  "crlf",
  "unicode",
  "leading-blank",
]);

/** What the model writes. `base` is the intent op it stands for (undefined: a line the model invented). */
export interface ModelOp {
  readonly op: "context" | "remove" | "add";
  readonly text: string;
  readonly base?: number;
}

export interface Drifted {
  readonly ops: readonly ModelOp[];
  /** Intended text of add ops whose content the model changed (by intent op index). */
  readonly addTexts: ReadonlyMap<number, string>;
  /** One line on what was done, for reports. */
  readonly note: string;
  /** dropped-line: the intent op the model left out. */
  readonly dropped?: number;
}

export interface DriftInput {
  readonly intent: Intent;
  readonly lines: readonly string[];
  readonly unit: Unit;
  readonly lang: Lang;
  readonly rng: Random;
}

const straight = (ops: readonly BaseOp[]): ModelOp[] => ops.map((o, i) => ({ op: o.op, text: o.text, base: i }));
const content = (line: string): string => line.slice(leadingWs(line).length);

/** Applies `indent` to the leading whitespace of every non-blank line. */
function reindent(ops: readonly BaseOp[], indent: (ws: string) => string | undefined): Drifted | undefined {
  const out: ModelOp[] = [];
  for (const [i, o] of ops.entries()) {
    if (isBlankLine(o.text)) {
      out.push({ op: o.op, text: o.text, base: i });
      continue;
    }
    const ws = indent(leadingWs(o.text));
    if (ws === undefined) return undefined;
    out.push({ op: o.op, text: ws + content(o.text), base: i });
  }
  return { ops: out, addTexts: new Map(), note: "" };
}

function shiftIndent(input: DriftInput): Drifted | undefined {
  const { unit, rng } = input;
  const delta = rng.pick([-2, -1, -1, 1, 1, 2]);
  const step = unit.kind === "tabs" ? "\t" : " ".repeat(unit.width);
  const drifted = reindent(input.intent.ops, (ws) => {
    if (delta > 0) return step.repeat(delta) + ws;
    return ws.startsWith(step.repeat(-delta)) ? ws.slice(step.length * -delta) : undefined;
  });
  return drifted && { ...drifted, note: `indentation shifted by ${delta} level(s)` };
}

function swapTabsSpaces(input: DriftInput): Drifted | undefined {
  const { unit, rng } = input;
  if (unit.kind === "tabs") {
    const width = rng.pick([2, 4, 4, 8]);
    const drifted = reindent(input.intent.ops, (ws) => ws.replace(/\t/g, " ".repeat(width)));
    return drifted && { ...drifted, note: `tabs written as ${width} spaces` };
  }
  const drifted = reindent(input.intent.ops, (ws) => {
    const levels = Math.floor(ws.length / unit.width);
    return "\t".repeat(levels) + " ".repeat(ws.length - levels * unit.width);
  });
  return drifted && { ...drifted, note: `${unit.width}-space levels written as tabs` };
}

function swapWidth(input: DriftInput): Drifted | undefined {
  const { unit } = input;
  if (unit.kind !== "spaces" || (unit.width !== 2 && unit.width !== 4)) return undefined;
  const to = unit.width === 2 ? 4 : 2;
  const drifted = reindent(input.intent.ops, (ws) => {
    if (ws.includes("\t")) return undefined;
    const levels = Math.floor(ws.length / unit.width);
    return " ".repeat(levels * to + ws.length - levels * unit.width);
  });
  return drifted && { ...drifted, note: `${unit.width}-space indentation written with ${to} spaces` };
}

/** Per-line content drift: `pick` chooses the file lines hit, `apply` rewrites one; changed lines may follow. */
function perLine(
  input: DriftInput,
  lines: ReadonlySet<number>,
  apply: (text: string) => string,
  retypeChanged: boolean,
  note: string,
): Drifted | undefined {
  const addTexts = new Map<number, string>();
  let hits = 0;
  const ops = input.intent.ops.map((o, i): ModelOp => {
    if (!lines.has(o.line) || (o.op === "add" && (o.changed !== true || !retypeChanged))) {
      return { op: o.op, text: o.text, base: i };
    }
    const text = apply(o.text);
    if (text !== o.text) hits++;
    if (o.op === "add") addTexts.set(i, leadingWs(o.text) + content(text));
    return { op: o.op, text, base: i };
  });
  return hits === 0 ? undefined : { ops, addTexts, note };
}

const windowLines = (intent: Intent): number[] => Array.from({ length: intent.size }, (_, k) => intent.start + k);

function someLines(input: DriftInput, eligible: (line: string) => boolean, most: number): Set<number> {
  const candidates = windowLines(input.intent).filter((n) => eligible(input.lines[n]!));
  const chosen = new Set<number>();
  for (let k = 0; k < most && candidates.length > 0; k++) chosen.add(input.rng.pick(candidates));
  return chosen;
}

function curly(text: string, rng: Random): string {
  let double = 0;
  let single = 0;
  let out = "";
  for (const ch of text) {
    if (ch === '"') out += double++ % 2 === 0 ? "\u201C" : "\u201D";
    else if (ch === "'") out += single++ % 2 === 0 ? "\u2018" : "\u2019";
    else out += ch;
  }
  out = out.replace(/ - /g, rng.chance(0.5) ? " \u2013 " : " \u2014 ");
  if (rng.chance(0.3)) {
    const ws = leadingWs(out);
    const at = out.indexOf(" ", ws.length);
    if (at > 0) out = `${out.slice(0, at)}\u00A0${out.slice(at + 1)}`;
  }
  return out;
}

function unicode(input: DriftInput): Drifted | undefined {
  const lines = someLines(input, (l) => /["']| - /.test(content(l)), 2);
  const retype = input.rng.chance(0.5);
  return perLine(
    input,
    lines,
    (t) => curly(t, input.rng),
    retype,
    `typographic punctuation${retype ? " (retyped)" : ""}`,
  );
}

function trailingAdded(input: DriftInput): Drifted | undefined {
  const lines = someLines(input, (l) => !isBlankLine(l), 3);
  const tail = input.rng.pick([" ", "  ", "\t"]);
  return perLine(input, lines, (t) => t + tail, true, `trailing ${JSON.stringify(tail)} added`);
}

function trailingRemoved(input: DriftInput): Drifted | undefined {
  const lines = new Set(windowLines(input.intent));
  return perLine(input, lines, (t) => t.trimEnd(), true, "trailing whitespace removed");
}

export function applyWhitespaceDrift(kind: DriftKind, input: DriftInput): Drifted | undefined {
  switch (kind) {
    case "none":
    case "crlf":
      return { ops: straight(input.intent.ops), addTexts: new Map(), note: "" };
    case "trailing-removed":
      return trailingRemoved(input);
    case "trailing-added":
      return trailingAdded(input);
    case "indent-shift":
      return shiftIndent(input);
    case "tabs-spaces":
      return swapTabsSpaces(input);
    case "indent-2-4":
      return swapWidth(input);
    case "unicode":
      return unicode(input);
    case "leading-blank":
    case "elision":
    case "typo":
    case "dropped-line":
    case "extra-line":
    case "paraphrase":
    case "stale-context":
      return undefined;
  }
}

export { straight };
