/**
 * From the lexical ranking to the files a change most likely needs (pure). Tests rank high on a request's words
 * (they spell out the behaviour), but the fix is in the code they exercise: a source gains half the score of the
 * best-ranked test named after it (`test_core.py` → `core.py`, `command.help.test.js` → `command.js`), a quarter
 * of one that imports it — the best one, not the sum, so the entry point every test imports does not win by numbers. A
 * source many others import gets a small lift among the matched ones; examples, docs and benchmarks count less.
 */
import type { Ranked } from "./bm25.js";
import { splitIdentifier } from "./terms.js";

/** A ranked file, with the test that lent it the most of its score, if one did. */
export interface Relevant extends Ranked {
  readonly lentBy?: string;
}

export interface Relevance {
  /** Code that is not a test, most relevant first. */
  readonly sources: readonly Relevant[];
  readonly tests: readonly Relevant[];
}

export interface RelevanceInput {
  readonly ranked: readonly Ranked[];
  /** What each scanned file imports (repository paths). */
  readonly imports: ReadonlyMap<string, readonly string[]>;
  readonly codePaths: readonly string[];
  readonly isTest: (path: string) => boolean;
}

const LEND = 0.5;
/**
 * What a test lends a source it only imports: less than its namesake gets, since a test imports its helpers too,
 * and in Go every file of its package.
 */
const IMPORT_LEND = 0.25;
const HUB = 0.25;
const SIDELINE = 0.3;
const SIDELINES = /(^|\/)(examples?|docs?|benchmarks?|bench|fixtures?|sandbox)\//;
/** Re-export hubs (`index.js`, `__init__.py`): imported by everything, rarely where a fix goes. */
const HUB_FILE = /(^|\/)(index\.[cm]?[jt]sx?|__init__\.py|mod\.rs|lib\.rs)$/;

const stem = (path: string): string => path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "");

/** A source's name as a test's name is compared with it: lower case, without separators. */
export const sourceKey = (path: string): string => stem(path).toLowerCase().replace(/[._-]/g, "");

/** The names a test may be named after, closest first: `parse_args.test.ts` → parseargs, then parse. */
export function subjectKeys(test: string): string[] {
  const words = splitIdentifier(stem(test).replace(/(^|[._-])(test|spec)s?($|[._-])/gi, "$1$3")).map((w) =>
    w.toLowerCase(),
  );
  return [words.join(""), words[0] ?? ""];
}

/** The source a test is named after, when exactly one source has that name. */
function namesake(test: string, byStem: ReadonlyMap<string, readonly string[]>): string | undefined {
  for (const word of subjectKeys(test)) {
    const found = byStem.get(word);
    if (found?.length === 1) return found[0];
  }
  return undefined;
}

export function relevance(input: RelevanceInput): Relevance {
  const byStem = new Map<string, string[]>();
  for (const path of input.codePaths) {
    if (input.isTest(path)) continue;
    const key = sourceKey(path);
    byStem.set(key, [...(byStem.get(key) ?? []), path]);
  }
  const indegree = new Map<string, number>();
  for (const targets of input.imports.values())
    for (const target of targets) indegree.set(target, (indegree.get(target) ?? 0) + 1);
  const scores = new Map<string, { score: number; matched: Set<string> }>();
  const entry = (path: string) => {
    let found = scores.get(path);
    if (found === undefined) scores.set(path, (found = { score: 0, matched: new Set() }));
    return found;
  };
  for (const r of input.ranked) {
    const e = entry(r.path);
    e.score += r.score;
    for (const term of r.matched) e.matched.add(term);
  }
  const lent = new Map<string, { score: number; by: string }>();
  for (const r of input.ranked) {
    if (!input.isTest(r.path)) continue;
    const targets = new Set(input.imports.get(r.path) ?? []);
    const named = namesake(r.path, byStem);
    if (named !== undefined) targets.add(named);
    for (const target of targets) {
      const score = r.score * (target === named ? LEND : IMPORT_LEND);
      if (!input.isTest(target) && score > (lent.get(target)?.score ?? 0)) lent.set(target, { score, by: r.path });
    }
  }
  for (const [path, { score }] of lent) entry(path).score += score;
  for (const [path, e] of scores) {
    if (input.isTest(path) || e.score === 0) continue;
    if (!HUB_FILE.test(path)) e.score *= 1 + HUB * Math.log1p(indegree.get(path) ?? 0);
    if (SIDELINES.test(path)) e.score *= SIDELINE;
  }
  const all = [...scores]
    .filter(([, e]) => e.score > 0)
    .map(([path, e]): Relevant => {
      const by = lent.get(path)?.by;
      return { path, score: e.score, matched: [...e.matched], ...(by === undefined ? {} : { lentBy: by }) };
    })
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  return { sources: all.filter((r) => !input.isTest(r.path)), tests: all.filter((r) => input.isTest(r.path)) };
}
