/**
 * The intended change of a case: a window of real lines in a real file and what the model means to do there
 * (rename an identifier, insert a line, delete a line, change a string), as line ops in the FILE's own text.
 * Drift (drift.ts) later changes only what the model writes, never this intent.
 */
import type { Lang } from "./sources.js";
import type { Random } from "./random.js";
import { exactKey, findAll, isBlankLine, leadingWs } from "./text.js";

export type ChangeKind = "rename" | "insert" | "delete" | "string";

/** One line op in the file's text. `line` is the 0-based file line a context/remove op stands for. */
export interface BaseOp {
  readonly op: "context" | "remove" | "add";
  /** The file's text (context/remove) or the intended new text in the file's style (add). */
  readonly text: string;
  /** File line (context/remove); for add, the file line it derives from (changed line, or the one it follows). */
  readonly line: number;
  /** add only: true when the line replaces `line` (a changed line) rather than being inserted after it. */
  readonly changed?: boolean;
}

export interface Intent {
  readonly start: number;
  readonly size: number;
  readonly change: ChangeKind;
  readonly ops: readonly BaseOp[];
  /** File lines (absolute) the change touches: drift that must hit an unchanged line avoids them. */
  readonly touched: ReadonlySet<number>;
}

const KEYWORDS = new Set(
  "const let var function return import export from class extends interface type async await this self def elif else if for while try except finally raise with pass None True False null undefined new typeof void delete package func struct range break continue default switch case throw catch yield static public private protected readonly string number boolean".split(
    " ",
  ),
);

/** Lines a reply cannot carry without being misread as markup in some dialect: avoided in windows. */
const MARKUP = /^(<{7}|={7}|>{7}|\*\*\* |@@|--|\+\+)|^\s*(```|~~~)/;

export function windowUsable(lines: readonly string[], start: number, size: number): boolean {
  const window = lines.slice(start, start + size);
  if (window.length !== size || window.some((l) => MARKUP.test(l))) return false;
  const real = window.filter((l) => !isBlankLine(l));
  return real.length >= Math.min(2, size) && real.join("").replace(/\s/g, "").length >= (size === 1 ? 3 : 30);
}

/** A window of `size` lines that occurs exactly once in the file (whole lines, exact text), around a line if given. */
export function pickUniqueWindow(
  lines: readonly string[],
  rng: Random,
  min: number,
  max: number,
  around?: readonly number[],
  accept: (start: number, size: number) => boolean = () => true,
): [number, number] | undefined {
  if (around?.length === 0) return undefined;
  for (let attempt = 0; attempt < 60; attempt++) {
    const size = rng.int(min, max);
    if (size > lines.length) continue;
    const start =
      around === undefined
        ? rng.int(0, lines.length - size)
        : Math.max(0, Math.min(lines.length - size, rng.pick(around) - rng.int(0, size - 1)));
    if (!accept(start, size) || !windowUsable(lines, start, size)) continue;
    if (findAll(lines, lines.slice(start, start + size), exactKey).length === 1) return [start, size];
  }
  return undefined;
}

/** A window of `size` lines whose exact text occurs at two or more places; returns all starts. */
export function pickRepeatedWindow(lines: readonly string[], rng: Random, size: number): number[] | undefined {
  const groups = new Map<string, number[]>();
  for (let s = 0; s + size <= lines.length; s++) {
    if (!windowUsable(lines, s, size)) continue;
    const key = lines.slice(s, s + size).join("\n");
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [s]);
    else if (s >= list[list.length - 1]! + size) list.push(s);
  }
  const repeated = [...groups.values()].filter((g) => g.length >= 2);
  return repeated.length === 0 ? undefined : rng.pick(repeated);
}

function probeLine(lang: Lang, n: number): string {
  switch (lang) {
    case "py":
      return `log_drift("probe ${n}")`;
    case "yaml":
      return `probe_${n}: true`;
    case "make":
      return `# probe ${n}`;
    case "sh":
      return `echo "probe ${n}"`;
    case "go":
      return `logDrift("probe ${n}")`;
    case "ts":
    case "js":
      return `logDrift("probe ${n}");`;
  }
}

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/g;
const STRING = /(["'])((?:\\.|(?!\1)[^\\])*)\1/;

function identifiers(line: string): string[] {
  const code = line.replace(/^\s*(\/\/|#|\*).*$/, "");
  return [...code.matchAll(IDENT)].map((m) => m[0]).filter((w) => w.length >= 3 && !KEYWORDS.has(w));
}

const renameIn = (line: string, from: string, to: string): string =>
  line.replace(new RegExp(`(?<![A-Za-z0-9_$])${from}(?![A-Za-z0-9_$])`, "g"), to);

/** New texts per window index (undefined: unchanged, null: deleted) plus inserted lines after an index. */
interface Plan {
  readonly changed: Map<number, string | null>;
  readonly inserted: Map<number, string>;
}

function planChange(kind: ChangeKind, window: readonly string[], lang: Lang, rng: Random): Plan | undefined {
  const candidates = window.flatMap((l, i) => (isBlankLine(l) ? [] : [i]));
  if (candidates.length === 0) return undefined;
  const k = rng.pick(candidates);
  const line = window[k]!;
  const changed = new Map<number, string | null>();
  const inserted = new Map<number, string>();
  switch (kind) {
    case "rename": {
      const words = identifiers(line);
      if (words.length === 0) return undefined;
      const from = rng.pick(words);
      const to = from + rng.pick(["Next", "2", "_alt", "Renamed"]);
      const everywhere = rng.chance(0.4);
      window.forEach((l, i) => {
        const next = renameIn(l, from, to);
        if (next !== l && (everywhere || i === k)) changed.set(i, next);
      });
      break;
    }
    case "string": {
      const m = STRING.exec(line);
      if (m === null) return undefined;
      const quote = m[1]!;
      const at = m.index + m[0].length - 1;
      changed.set(k, `${line.slice(0, at)} (drift)${quote}${line.slice(at + 1)}`);
      break;
    }
    case "delete":
      changed.set(k, null);
      break;
    case "insert": {
      const next = window.slice(k + 1).find((l) => !isBlankLine(l));
      const opens = /[{:([]\s*$/.test(line);
      const ws = opens && next !== undefined ? leadingWs(next) : leadingWs(line);
      inserted.set(k, ws + probeLine(lang, rng.int(1, 999)));
      break;
    }
  }
  return changed.size + inserted.size === 0 ? undefined : { changed, inserted };
}

/** The intent's line ops: consecutive changed lines are written as their removals, then their additions. */
function toOps(window: readonly string[], start: number, plan: Plan): BaseOp[] {
  const ops: BaseOp[] = [];
  let removes: BaseOp[] = [];
  let adds: BaseOp[] = [];
  const flush = (): void => {
    ops.push(...removes, ...adds);
    removes = [];
    adds = [];
  };
  window.forEach((text, i) => {
    const line = start + i;
    const next = plan.changed.get(i);
    if (next === undefined) {
      flush();
      ops.push({ op: "context", text, line });
    } else {
      removes.push({ op: "remove", text, line });
      if (next !== null) adds.push({ op: "add", text: next, line, changed: true });
    }
    const inserted = plan.inserted.get(i);
    if (inserted !== undefined) {
      flush();
      ops.push({ op: "add", text: inserted, line, changed: false });
    }
  });
  flush();
  return ops;
}

export function makeIntent(
  lines: readonly string[],
  start: number,
  size: number,
  lang: Lang,
  rng: Random,
  kinds: readonly ChangeKind[] = ["rename", "insert", "delete", "string"],
): Intent | undefined {
  const window = lines.slice(start, start + size);
  for (let attempt = 0; attempt < 6; attempt++) {
    const change = rng.pick(kinds);
    const plan = planChange(change, window, lang, rng);
    if (plan === undefined) continue;
    const ops = toOps(window, start, plan);
    const touched = new Set(ops.filter((o) => o.op !== "context").map((o) => o.line));
    return { start, size, change, ops, touched };
  }
  return undefined;
}

/**
 * The file's lines with the intent applied, given the text each add op should have (by op index). `order` lists
 * op indexes in another order (an alternative reading), `start` puts the window elsewhere (another occurrence).
 */
export function intendedLines(
  lines: readonly string[],
  intent: Intent,
  addTexts: ReadonlyMap<number, string>,
  order: readonly number[] = intent.ops.map((_, i) => i),
  start: number = intent.start,
): string[] {
  const middle: string[] = [];
  for (const i of order) {
    const o = intent.ops[i]!;
    if (o.op === "context") middle.push(o.text);
    else if (o.op === "add") middle.push(addTexts.get(i) ?? o.text);
  }
  return [...lines.slice(0, start), ...middle, ...lines.slice(start + intent.size)];
}
