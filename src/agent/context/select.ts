/**
 * The second stage of the context, once the baseline has run: the files the first prompt shows, in this order —
 * the lines under review, the files the request names, the files its stack traces point at, the failing tests with
 * the sources they import (those whose failures share the request's words first, up to three past them), the most
 * relevant sources, the other failing tests, then a test or two that show how the code is called. A file
 * that does not fit whole is shown around the lines that matter (the reviewed lines, a traced line; or where the
 * request's rarest words are, a source in up to four parts, the further ones from what the other files left), or
 * listed as omitted. The three most relevant sources are shown whole even past
 * the budget, up to a limit: a fix is rarely right on an excerpt of the file it changes; and so are the lines
 * around a failure in the failing tests shown first: what a test expects is the specification. With them go the
 * repository's notes for coding agents that apply to the files shown (instructions.ts), on a budget of their own.
 */
import { isCredentialPath } from "../../core/credential-files.js";
import { excerpts, MAX_EXCERPTS, type Excerpt } from "./excerpts.js";
import { fitInstructions, instructionPaths } from "./instructions.js";
import type { FailureBlock } from "../failures/types.js";
import { isTestPath } from "../test-paths.js";
import { isCodePath } from "./files.js";
import { DECLARATION } from "./type-declarations.js";
import {
  DEFAULT_FILE_TOKENS,
  DEFAULT_MAP_TOKENS,
  type ContextFile,
  type ContextReason,
  type GatheredContext,
} from "./types.js";
import { blamedBy, rankedFailureLocations } from "./failing.js";
import { importStatementsOf } from "./imports.js";
import type { Ranking } from "./rank.js";
import { sourceKey, subjectKeys } from "./relevance.js";
import { buildRepoMap } from "./repo-map.js";
import type { Location } from "./traces.js";

/** Sources are shown while their score is at least this share of the best one's, and at most this many. */
const RELATIVE_SCORE = 0.3;
const MAX_SOURCES = 6;
const MAX_TESTS = 2;
/**
 * How many failing tests (and code their frames point into) are shown before the ranked sources, at least: all of
 * those whose failures share the most of the request's words, then the next ones up to this many. The rest come
 * after the sources: when a repository has tests that fail whatever the request (offline, a time zone, a
 * platform), they must not crowd out the code it is about.
 */
const FAILING_FIRST = 3;
/** A test or a document bigger than this is shown as an excerpt: it is there to show usage, not to be edited. */
const WHOLE_EXAMPLE_CHARS = 12_000;
/**
 * The most relevant sources may go past the budget to be shown whole, each up to this size. Three rather than two:
 * on the context bench (230 fix commits) 93.0 % of cases had every gold file in full against 91.7 %, and 98.5 %
 * against 96.2 % after a red baseline, for a median prompt 1 % longer (p90 +13 %).
 */
const TOP_SOURCES = 3;
/** How many entry files stand in for code when nothing matched the request's words. */
const ENTRY_FILES = 2;
const TOP_SOURCE_CHARS = 160_000;
/**
 * A failing test (of those shown first) whose failure names a line is shown around it even when the files before it
 * took the budget, up to this size: what the test expects is the request's specification (a stack overflow's frames
 * can fill the budget with the code it recursed through).
 */
const FAILING_EXCERPT_CHARS = 8_000;

interface Wanted {
  readonly path: string;
  readonly why: ContextReason;
  readonly detail?: string;
  readonly range?: { readonly start: number; readonly end: number };
  /** Shown whole only up to WHOLE_EXAMPLE_CHARS (tests, documents). */
  readonly example: boolean;
  /** May exceed the budget to be shown whole, up to TOP_SOURCE_CHARS. */
  readonly top?: boolean;
  /** A failing test's lines around its failure, shown even past the budget (up to FAILING_EXCERPT_CHARS). */
  readonly spec?: boolean;
}

/** Names of the files a package starts from. */
const ENTRY = /^(?:index|main|lib|mod|__init__|__main__|app|cli)\.[a-z]+$/;

/** Code files at the repository's top level (or under `src/`, `lib/`) with an entry file's name, shallowest first. */
export function entryFiles(paths: readonly string[]): string[] {
  const depth = (path: string): number => path.split("/").length;
  return paths
    .filter((path) => isCodePath(path) && !isTestPath(path) && !DECLARATION.test(path))
    .filter((path) => /^(?:(?:src|lib)\/)?[^/]+$/.test(path) && ENTRY.test(path.slice(path.lastIndexOf("/") + 1)))
    .sort((a, b) => depth(a) - depth(b) || a.localeCompare(b));
}

/** The file a declaration file declares (`index.d.ts` → `index.js`), when the repository has it. */
function implementationOf(path: string, paths: readonly string[]): string | undefined {
  if (!DECLARATION.test(path)) return undefined;
  const stem = path.replace(DECLARATION, "");
  return [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"].map((ext) => stem + ext).find((p) => paths.includes(p));
}

function plan(
  ranking: Ranking,
  failing: readonly { location: Location; score: number }[],
  failureText: string,
  contents: ReadonlyMap<string, string>,
): Wanted[] {
  const { input, relevance } = ranking;
  const wanted: Wanted[] = [];
  const add = (entry: Wanted): void => {
    // A file that may hold credentials is never shown, even when the request names it.
    if (isCredentialPath(entry.path)) return;
    if (!wanted.some((w) => w.path === entry.path)) wanted.push(entry);
  };
  const example = (path: string): boolean => isTestPath(path) || !isCodePath(path);
  if (input.focus) {
    const { path, startLine, endLine } = input.focus;
    add({ path, why: "focus", range: { start: startLine, end: endLine }, example: false });
  }
  for (const path of ranking.named) add({ path, why: "named", example: !isCodePath(path) });
  for (const path of ranking.declarations) {
    add({
      path,
      why: "ranked",
      detail: "the package's type declarations (the request is about types)",
      example: false,
    });
  }
  for (const { path, line } of ranking.traced) {
    add({
      path,
      why: "trace",
      example: example(path),
      ...(line === undefined ? {} : { detail: `line ${String(line)}`, range: { start: line, end: line } }),
    });
  }
  const scored = new Set(relevance.sources.map((s) => s.path));
  const addFailing = ({ path, line }: Location, withImports: boolean): void => {
    // A failure's frames may point into the code (where an error was thrown): that is code to read, not a test.
    const test = isTestPath(path);
    add({
      path,
      why: test ? "failing-test" : "trace",
      example: test,
      ...(line === undefined ? {} : { range: { start: line, end: line } }),
      ...(test && withImports && line !== undefined ? { spec: true } : {}),
    });
    if (!withImports) return;
    const content = contents.get(path);
    const imports = content === undefined ? [] : importStatementsOf(path, content, ranking.imports);
    const blamed = new Set(imports.filter((i) => blamedBy(i.statement, failureText)).map((i) => i.path));
    const imported = [...new Set(imports.map((i) => i.path))];
    // The sources a failing test imports: those the failures name, the one it is named after, then the ones the
    // request's words match.
    const subject = subjectKeys(path)[0];
    const rank = (source: string): number =>
      4 * Number(blamed.has(source)) + 2 * Number(sourceKey(source) === subject) + Number(scored.has(source));
    for (const source of imported.sort((a, b) => rank(b) - rank(a)).slice(0, 3)) {
      add({ path: source, why: "imported", detail: `by ${path}`, example: false });
    }
  };
  const best = failing[0]?.score ?? 0;
  const first = Math.max(FAILING_FIRST, failing.filter((f) => f.score === best).length);
  for (const { location } of failing.slice(0, first)) addFailing(location, true);
  const top = relevance.sources[0]?.score ?? 0;
  relevance.sources
    .filter((s, i) => i < MAX_SOURCES && s.score >= top * RELATIVE_SCORE)
    .forEach((source, index) => {
      add({
        path: source.path,
        why: "ranked",
        detail:
          source.matched.length > 0 || source.lentBy === undefined
            ? `matches ${source.matched.slice(0, 6).join(", ")}`
            : `what ${source.lentBy} tests`,
        example: false,
        top: index < TOP_SOURCES,
      });
      // A declaration file matches the request's words as its code does, which is where a fix goes.
      const code = implementationOf(source.path, input.paths);
      if (code !== undefined)
        add({ path: code, why: "ranked", detail: `what ${source.path} declares`, example: false });
    });
  if (!wanted.some((w) => !w.example && !DECLARATION.test(w.path))) {
    // Nothing points at any code (a request in words the code does not use: "fix the regression with numbers"):
    // the project's entry files, the code a request about its behaviour most often means.
    for (const path of entryFiles(input.paths).slice(0, ENTRY_FILES)) {
      add({
        path,
        why: "ranked",
        detail: "an entry file (nothing matched the request's words)",
        example: false,
        top: true,
      });
    }
  }
  for (const { location } of failing.slice(first)) addFailing(location, false);
  for (const test of relevance.tests.slice(0, MAX_TESTS)) {
    add({
      path: test.path,
      why: "ranked",
      detail: `a test matching ${test.matched.slice(0, 6).join(", ")}`,
      example: true,
    });
  }
  return wanted;
}

export async function selectContext(
  ranking: Ranking,
  failures: readonly FailureBlock[] = [],
): Promise<GatheredContext> {
  const { input } = ranking;
  const failureText = failures.map((f) => `${f.name}\n${f.text}`).join("\n");
  const failing = rankedFailureLocations(failures, ranking.resolve, ranking.terms);
  const contents = new Map(ranking.contents);
  const unread = failing.map((f) => f.location.path).filter((p) => !contents.has(p));
  for (const [path, content] of await input.read(unread)) contents.set(path, content);
  const wanted = plan(ranking, failing, failureText, contents);
  for (const [path, content] of await input.read(wanted.map((w) => w.path).filter((p) => !contents.has(p)))) {
    contents.set(path, content);
  }
  let budget = (input.fileTokens ?? DEFAULT_FILE_TOKENS) * 4;
  const files: ContextFile[] = [];
  const omitted: string[] = [];
  const further: ContextFile[][] = [];
  for (const entry of wanted) {
    const content = contents.get(entry.path);
    if (content === undefined) continue;
    const detail = entry.detail === undefined ? {} : { detail: entry.detail };
    const whole = entry.example ? content.length <= Math.min(budget, WHOLE_EXAMPLE_CHARS) : content.length <= budget;
    if (whole || (entry.top === true && content.length <= TOP_SOURCE_CHARS)) {
      files.push({ path: entry.path, content, why: entry.why, ...detail });
      budget = Math.max(0, budget - content.length);
      continue;
    }
    const room = entry.spec === true ? Math.max(budget, FAILING_EXCERPT_CHARS) : budget;
    // A test or a document is there to show usage: one part of it does.
    const [first, ...rest] = excerpts(content, ranking.terms, entry.range, entry.example ? 1 : MAX_EXCERPTS);
    if (first === undefined || first.text.length > room || first.text.length >= content.length) {
      omitted.push(entry.path);
      continue;
    }
    const part = (p: Excerpt): ContextFile => ({
      path: entry.path,
      content: p.text,
      why: entry.why,
      ...detail,
      lines: { start: p.start, end: p.end },
    });
    files.push(part(first));
    budget = Math.max(0, budget - first.text.length);
    if (rest.length > 0) further.push(rest.map(part));
  }
  // A large file's further parts come out of what every file wanted left: they never push one out.
  for (const parts of further) {
    for (const p of parts) {
      if (p.content.length > budget) break;
      // In file order among the parts of the same file shown already.
      const same = files.flatMap((f, i) => (f.path === p.path ? [i] : []));
      const before = same.filter((i) => (files[i]!.lines?.start ?? 0) < p.lines!.start);
      files.splice(before.length > 0 ? before.at(-1)! + 1 : same[0]!, 0, p);
      budget -= p.content.length;
    }
  }
  const notePaths = instructionPaths(
    input.paths,
    files.map((f) => f.path),
  );
  const noteContents = await input.read(notePaths);
  const instructions = fitInstructions(
    notePaths.flatMap((path) => {
      const content = noteContents.get(path);
      return content === undefined ? [] : [{ path, content }];
    }),
  );
  const repoMap = buildRepoMap({
    paths: input.paths,
    contents: ranking.contents,
    budgetChars: (input.mapTokens ?? DEFAULT_MAP_TOKENS) * 4,
    boost: new Set<string>([...ranking.terms, ...ranking.named]),
  });
  // A note shown as such is not shown again as a file.
  const noted = new Set(instructions.map((n) => n.path));
  return {
    files: files.filter((f) => !noted.has(f.path)),
    omitted,
    repoMap,
    words: ranking.terms,
    ...(instructions.length === 0 ? {} : { instructions }),
  };
}
