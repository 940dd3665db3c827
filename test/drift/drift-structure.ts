/**
 * Content drift on the unchanged lines a model copies: a spurious blank line, an elided middle, a typo, a
 * dropped line, an invented line, a line from elsewhere in the file, a line from an older version of the file.
 * The intended result keeps the file's real text for all of them.
 */
import type { DriftInput, DriftKind, Drifted, ModelOp } from "./drift.js";
import { applyWhitespaceDrift, straight } from "./drift.js";
import type { Random } from "./random.js";
import type { Lang } from "./sources.js";
import { isBlankLine, leadingWs } from "./text.js";

const comment = (lang: Lang): string => (lang === "ts" || lang === "js" || lang === "go" ? "//" : "#");

/** Indexes (into ops) of unchanged, non-blank context lines the model could have mangled. */
function contextSlots(ops: readonly ModelOp[], interior: boolean): number[] {
  const slots: number[] = [];
  ops.forEach((o, i) => {
    if (o.op !== "context" || isBlankLine(o.text) || o.base === undefined) return;
    if (interior && (i === 0 || i === ops.length - 1)) return;
    slots.push(i);
  });
  return slots;
}

/** The line at `at` rewritten: it still stands for the line it replaces (its hunk header counts it there). */
const replaceAt = (ops: readonly ModelOp[], at: number, text: string): ModelOp[] =>
  ops.map((o, i) => (i === at ? { ...o, text } : o));

function typo(text: string, rng: Random): string | undefined {
  const ws = leadingWs(text);
  const letters: number[] = [];
  for (let i = ws.length; i < text.length; i++) if (/[A-Za-z]/.test(text.charAt(i))) letters.push(i);
  if (letters.length < 4) return undefined;
  const at = rng.pick(letters);
  const ch = text[at]!;
  switch (rng.int(0, 2)) {
    case 0: {
      const next = text[at + 1];
      if (next === undefined || next === ch || !/[A-Za-z]/.test(next)) return undefined;
      return text.slice(0, at) + next + ch + text.slice(at + 2);
    }
    case 1:
      return text.slice(0, at) + text.slice(at + 1);
    default: {
      const other = ch === "e" ? "a" : "e";
      return text.slice(0, at) + other + text.slice(at + 1);
    }
  }
}

/** An older version of a line: an identifier renamed, a number changed, or a string's text changed. */
function stale(text: string, rng: Random): string | undefined {
  const number = /\b\d+\b/.exec(text);
  if (number !== null && rng.chance(0.4)) {
    return text.slice(0, number.index) + String(Number(number[0]) + 1) + text.slice(number.index + number[0].length);
  }
  const words = [...text.matchAll(/[A-Za-z_][A-Za-z0-9_]{3,}/g)];
  if (words.length === 0) return undefined;
  const w = rng.pick(words);
  return (
    text.slice(0, w.index) +
    rng.pick(["old", "legacy", "prev"]) +
    w[0][0]!.toUpperCase() +
    w[0].slice(1) +
    text.slice(w.index + w[0].length)
  );
}

function invented(lang: Lang, ws: string): string {
  switch (lang) {
    case "py":
      return `${ws}drift_unused = None`;
    case "yaml":
      return `${ws}drift_unused: null`;
    case "make":
    case "sh":
      return `${ws}DRIFT_UNUSED=1`;
    case "go":
      return `${ws}_ = driftUnused`;
    case "ts":
    case "js":
      return `${ws}const driftUnused = null;`;
  }
}

function elide(input: DriftInput, ops: readonly ModelOp[]): Drifted | undefined {
  // A run of >= 2 unchanged lines with something on both sides.
  const runs: [number, number][] = [];
  let i = 1;
  while (i < ops.length - 1) {
    if (ops[i]!.op !== "context") {
      i++;
      continue;
    }
    let j = i;
    while (j < ops.length - 1 && ops[j]!.op === "context") j++;
    if (j - i >= 2) runs.push([i, j]);
    i = j + 1;
  }
  if (runs.length === 0) return undefined;
  const [from, to] = input.rng.pick(runs);
  const first = ops.slice(from, to).find((o) => !isBlankLine(o.text));
  const marker = input.rng.chance(0.2)
    ? `${leadingWs(first?.text ?? "")}...`
    : `${leadingWs(first?.text ?? "")}${comment(input.lang)} ... existing code ...`;
  const out = [...ops.slice(0, from), { op: "context" as const, text: marker }, ...ops.slice(to)];
  return { ops: out, addTexts: new Map(), note: `lines ${from + 1}-${to} elided as "${marker.trim()}"` };
}

function mangle(kind: DriftKind, input: DriftInput, ops: ModelOp[]): Drifted | undefined {
  const { rng } = input;
  const none = new Map<number, string>();
  switch (kind) {
    case "leading-blank":
      return { ops: [{ op: "context", text: "" }, ...ops], addTexts: none, note: "spurious leading blank line" };
    case "elision":
      return elide(input, ops);
    case "typo": {
      const at = rng.pick(contextSlots(ops, false));
      const text = typo(ops[at]!.text, rng);
      return text === undefined
        ? undefined
        : { ops: replaceAt(ops, at, text), addTexts: none, note: `typo: ${text.trim()}` };
    }
    case "stale-context": {
      const at = rng.pick(contextSlots(ops, false));
      const text = stale(ops[at]!.text, rng);
      if (text === undefined) return undefined;
      return { ops: replaceAt(ops, at, text), addTexts: none, note: `stale line: ${text.trim()}` };
    }
    case "dropped-line": {
      const interior = contextSlots(ops, true);
      const at = rng.pick(interior.length > 0 ? interior : contextSlots(ops, false));
      const out = ops.filter((_, i) => i !== at);
      if (out.filter((o) => o.op !== "add" && !isBlankLine(o.text)).length < 2) return undefined;
      const dropped = ops[at]!.base;
      return {
        ops: out,
        addTexts: none,
        note: `dropped: ${ops[at]!.text.trim()}`,
        ...(dropped === undefined ? {} : { dropped }),
      };
    }
    case "extra-line": {
      const at = rng.int(1, Math.max(1, ops.length - 1));
      const ws = leadingWs(ops[at - 1]?.text ?? "");
      const text = invented(input.lang, ws);
      return {
        ops: [...ops.slice(0, at), { op: "context", text }, ...ops.slice(at)],
        addTexts: none,
        note: "invented line",
      };
    }
    case "paraphrase": {
      const at = rng.pick(contextSlots(ops, false));
      const own = ops[at]!.text;
      const { start, size } = input.intent;
      const elsewhere = input.lines.filter(
        (l, n) => (n < start || n >= start + size) && !isBlankLine(l) && l.trim() !== own.trim() && l.trim().length > 8,
      );
      if (elsewhere.length === 0) return undefined;
      const copied = rng.pick(elsewhere);
      // A line copied from just beyond the window makes the old side a real quote of a window shifted by a line or
      // two (the lines in between dropped): the reply then points there. Text found there is not used.
      const near = (l: string, n: number): boolean =>
        ((n >= start - 2 && n < start) || (n >= start + size && n < start + size + 2)) && l.trim() === copied.trim();
      if (input.lines.some(near)) return undefined;
      const text = leadingWs(own) + copied.trim();
      return { ops: replaceAt(ops, at, text), addTexts: none, note: `paraphrase: ${text.trim()}` };
    }
    case "none":
    case "crlf":
    case "trailing-removed":
    case "trailing-added":
    case "indent-shift":
    case "tabs-spaces":
    case "indent-2-4":
    case "unicode":
      return undefined;
  }
}

/** Any drift kind: whitespace kinds from drift.ts, content kinds here. Undefined when it cannot apply. */
export function applyDrift(kind: DriftKind, input: DriftInput): Drifted | undefined {
  const whitespace = applyWhitespaceDrift(kind, input);
  if (whitespace !== undefined) return whitespace;
  const ops = straight(input.intent.ops);
  if (kind !== "leading-blank" && kind !== "elision" && kind !== "extra-line") {
    if (contextSlots(ops, false).length === 0) return undefined;
  }
  return mangle(kind, input, ops);
}
