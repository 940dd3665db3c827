/**
 * Runs a case through the engine (in memory) and classifies the outcome against the intended result:
 * - correct: the file became exactly the intended text;
 * - refused: nothing changed and the engine said why (right for `refuse` cases, acceptable for `either`);
 * - wrong: the file changed to anything but the intended text, another file changed, or a must-refuse case applied;
 * - doubtful: changed at the right place but differs from the intended text only in whitespace, matches one of the
 *   case's defensible alternative readings (whitespace aside), or "applied" without changing anything. Listed with
 *   examples, never silently counted as right.
 * A refusal of a `mustLand` case (mild drift, loosely unique window) is also marked needless.
 */
import { distance } from "fastest-levenshtein";
import { applyEdits } from "../../src/engine.js";
import type { DriftCase } from "./faults.js";
import { looseKey, splitFile } from "./text.js";

export type Outcome = "correct" | "refused" | "wrong" | "doubtful";

export interface Verdict {
  readonly outcome: Outcome;
  readonly needless: boolean;
  readonly strategy?: string;
  readonly reason?: string;
  /** For wrong/doubtful: why, and the first differing line. */
  readonly detail?: string;
}

export function firstDifference(actual: string, intended: string): string {
  const a = actual.split("\n");
  const b = intended.split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return `line ${i + 1}: got ${JSON.stringify(a[i] ?? "<none>")}, intended ${JSON.stringify(b[i] ?? "<none>")}`;
    }
  }
  return "identical lines (BOM or final newline differ)";
}

/** Same lines once leading and trailing whitespace are ignored. */
export function sameModuloWhitespace(actual: string, intended: string): boolean {
  const norm = (s: string): string[] =>
    s
      .replace(/^\uFEFF/, "")
      .split(/\r?\n/)
      .map((l) => l.trim());
  const a = norm(actual);
  const b = norm(intended);
  return a.length === b.length && a.every((l, i) => l === b[i]);
}

/** Drift that changes the text of copied lines: the reply may then resemble another place more than its own. */
const CONTENT_DRIFT = new Set(["typo", "paraphrase", "stale-context", "extra-line", "dropped-line"]);

const similarity = (a: string, b: string): number =>
  a.length + b.length === 0 ? 1 : 1 - distance(a, b) / Math.max(a.length, b.length);

/**
 * Best similarity of the model's old side to a window of the file starting in [from, to] (sizes n-1..n+1), of
 * those `admits` (all by default).
 */
function bestNear(
  lines: readonly string[],
  want: string,
  n: number,
  from: number,
  to: number,
  admits: (start: number, size: number) => boolean = () => true,
): number {
  let best = 0;
  for (let s = Math.max(0, from); s <= Math.min(lines.length - 1, to); s++) {
    for (const size of [n - 1, n, n + 1]) {
      if (size < 1 || s + size > lines.length || !admits(s, size)) continue;
      best = Math.max(
        best,
        similarity(
          want,
          lines
            .slice(s, s + size)
            .map(looseKey)
            .join("\n"),
        ),
      );
    }
  }
  return best;
}

/**
 * True when the engine changed lines away from the intended window, and the reply's old side (as the model wrote
 * it) is at least as similar to the file there as to the intended window: the reply itself then points there,
 * and landing there is a judgment call.
 */
function closerWhereApplied(c: DriftCase, after: string): boolean {
  const before = splitFile(c.before).lines;
  const changed = splitFile(after).lines;
  let first = 0;
  while (first < before.length && before[first] === changed[first]) first++;
  let tail = 0;
  while (tail < before.length - first && before[before.length - 1 - tail] === changed[changed.length - 1 - tail])
    tail++;
  const old = oldSideOf(c.reply);
  if (old.length === 0) return false;
  const want = old.map(looseKey).join("\n");
  // A change within two lines of the intended window is at the right place but wrong inside it, unless a window
  // apart from the intended one holds it: two look-alike blocks next to each other, the reply as similar to the
  // other one.
  const start = c.window.start - 1;
  const end = start + c.window.size;
  const changeEnd = before.length - tail;
  const near = first <= end + 2 && changeEnd >= start - 2;
  const apart = (s: number, size: number): boolean =>
    !near || ((s + size <= start || s >= end) && s <= first && s + size >= changeEnd);
  const here = bestNear(before, want, old.length, first - old.length, first, apart);
  const intended = bestNear(before, want, old.length, c.window.start - 2, c.window.start);
  return here > 0 && here >= intended;
}

/** The old side of the reply's first hunk or SEARCH block, as written (prefixes removed). */
function oldSideOf(reply: string): string[] {
  const lines = reply.split("\n");
  const search = lines.indexOf("<<<<<<< SEARCH");
  if (search >= 0) return lines.slice(search + 1, lines.indexOf("=======", search));
  const head = lines.findIndex((l) => l.startsWith("@@"));
  if (head < 0) return [];
  const old: string[] = [];
  for (const l of lines.slice(head + 1)) {
    if (l.startsWith("```") || l.startsWith("*** ")) break;
    if (l.startsWith("+")) continue;
    old.push(l.startsWith(" ") || l.startsWith("-") ? l.slice(1) : l);
  }
  return old;
}

/** Which strategy and reason the engine reported first, for reports. */
export interface Tags {
  readonly strategy?: string;
  readonly reason?: string;
}

export async function judgeCase(c: DriftCase): Promise<Verdict> {
  let result;
  try {
    result = await applyEdits(c.reply, (p) => (p === c.path ? c.before : undefined), { knownPaths: [c.path] });
  } catch (error) {
    return {
      outcome: "wrong",
      needless: false,
      detail: `engine threw: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  let strategy: string | undefined;
  let reason: string | undefined;
  let failed = false;
  for (const r of result.results) {
    if (r.ok) strategy ??= r.strategy;
    else {
      reason ??= r.reason;
      failed = true;
    }
  }
  const tags: Tags = { ...(strategy === undefined ? {} : { strategy }), ...(reason === undefined ? {} : { reason }) };
  const others = [...result.files.keys()].filter((p) => p !== c.path);
  if (others.length > 0)
    return { outcome: "wrong", needless: false, ...tags, detail: `wrote other paths: ${others.join(", ")}` };
  const after = result.files.get(c.path);
  if (after === undefined) {
    if (failed) {
      return { outcome: "refused", needless: c.mustLand, ...tags };
    }
    if (result.results.length === 0)
      return { outcome: "doubtful", needless: false, detail: "nothing parsed, no failure" };
    return { outcome: "doubtful", needless: false, ...tags, detail: "reported success without changing the file" };
  }
  if (after === null) return { outcome: "wrong", needless: false, ...tags, detail: "deleted the file" };
  return classifyAfter(c, after, tags);
}

/** Judges the text the engine made of `c.before` (a change happened) against the case's intended result. */
export function classifyAfter(c: DriftCase, after: string, tags: Tags): Verdict {
  if (after === c.intended && c.expect !== "refuse") return { outcome: "correct", needless: false, ...tags };
  const alternative = c.alternatives.find((a) => a.text === after);
  if (alternative !== undefined) {
    return { outcome: "doubtful", needless: false, ...tags, detail: `alternative reading: ${alternative.why}` };
  }
  if (c.expect === "refuse") {
    const where = after === c.intended ? "at the intended place" : firstDifference(after, c.intended);
    return { outcome: "wrong", needless: false, ...tags, detail: `applied a case that must be refused (${where})` };
  }
  const detail = firstDifference(after, c.intended);
  if (CONTENT_DRIFT.has(c.drift) && closerWhereApplied(c, after)) {
    return {
      outcome: "doubtful",
      needless: false,
      ...tags,
      detail: `the drifted reply is closer to where it landed: ${detail}`,
    };
  }
  if (sameModuloWhitespace(after, c.intended))
    return { outcome: "doubtful", needless: false, ...tags, detail: `whitespace: ${detail}` };
  const nearAlternative = c.alternatives.find((a) => sameModuloWhitespace(after, a.text));
  if (nearAlternative !== undefined) {
    const where = firstDifference(after, nearAlternative.text);
    return { outcome: "doubtful", needless: false, ...tags, detail: `whitespace, ${nearAlternative.why}: ${where}` };
  }
  return { outcome: "wrong", needless: false, ...tags, detail };
}
