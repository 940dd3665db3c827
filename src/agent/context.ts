/**
 * What the model sees of the repository, within a budget: the focus lines (a review comment), the files the
 * instruction names, files that mention identifiers from the instruction (`git grep`), and a repository map.
 * What did not fit is recorded, so the report can say so instead of pretending the model saw everything.
 */
import { extractDefinitions, languageOf } from "./definitions.js";
import { buildRepoMap, type RepoMap } from "./repo-map.js";
import type { FixRequest } from "./types.js";

export type ContextReason = "focus" | "named" | "mentions";

export interface ContextFile {
  readonly path: string;
  readonly content: string;
  readonly why: ContextReason;
  /** Set when only part of the file is shown (1-based, inclusive). */
  readonly lines?: { readonly start: number; readonly end: number };
}

export interface GatheredContext {
  readonly files: readonly ContextFile[];
  readonly omitted: readonly string[];
  readonly repoMap: RepoMap;
  /** Identifiers from the instruction that were searched for. */
  readonly words: readonly string[];
}

export interface ContextInput {
  readonly instruction: string;
  readonly extra?: string;
  readonly focus?: FixRequest["focus"];
  readonly paths: readonly string[];
  readonly read: (paths: readonly string[]) => Promise<ReadonlyMap<string, string>>;
  readonly grep: (words: readonly string[]) => Promise<ReadonlyMap<string, number>>;
  /** Tokens for file contents (about 4 characters each). */
  readonly fileTokens?: number;
  readonly mapTokens?: number;
}

export const DEFAULT_FILE_TOKENS = 24_000;
export const DEFAULT_MAP_TOKENS = 3_000;
/** The map scans at most this many source files, and skips big ones (generated or vendored code). */
export const MAX_MAP_FILES = 1_000;
export const MAX_MAP_FILE_BYTES = 100_000;
const MAX_MENTION_FILES = 6;
const MAX_WORDS = 12;
const FOCUS_MARGIN = 60;

/** Paths the text names: exact, as a suffix after a slash, or by a unique file name. */
export function namedPaths(text: string, paths: readonly string[]): string[] {
  const found: string[] = [];
  const tokens = text.match(/[\w./-]+\.[A-Za-z0-9]+|[\w.-]+\/[\w./-]+/g) ?? [];
  const byName = new Map<string, string[]>();
  for (const p of paths) {
    const name = p.slice(p.lastIndexOf("/") + 1);
    byName.set(name, [...(byName.get(name) ?? []), p]);
  }
  for (const raw of tokens) {
    const token = raw.replace(/^\.\//, "").replace(/[.,:;]+$/, "");
    // A suffix or a bare name counts only when it names one file: guessing between two would mislead the model.
    const suffixed = paths.filter((p) => p.endsWith(`/${token}`));
    const sameName = byName.get(token) ?? [];
    const hit = paths.includes(token)
      ? token
      : suffixed.length === 1
        ? suffixed[0]
        : sameName.length === 1
          ? sameName[0]
          : undefined;
    if (hit !== undefined && !found.includes(hit)) found.push(hit);
  }
  return found;
}

/**
 * Identifier-shaped words of the text: in backticks, camelCase, snake_case, called `name(`, or dotted `a.b`;
 * plus plain words that the repository defines (`known`).
 */
export function mentionedIdentifiers(text: string, known: ReadonlySet<string> = new Set()): string[] {
  const words = new Set<string>();
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    for (const w of m[1]!.match(/[A-Za-z_$][\w$]{2,}/g) ?? []) words.add(w);
  }
  for (const w of text.match(/[A-Za-z_$][\w$]{2,}/g) ?? []) {
    const shaped =
      /[a-z][A-Z]|_|^[A-Z][a-z]+[A-Z]/.test(w) || new RegExp(`\\b${w.replace(/\$/g, "\\$")}\\(`).test(text);
    if (shaped || known.has(w)) words.add(w);
  }
  return [...words].slice(0, MAX_WORDS);
}

const dirOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf("/")));
const depthOf = (path: string): number => path.split("/").length;

/**
 * The source files the map scans, when there are more than it can read: those next to the files the instruction
 * names first, then the shallowest (entry points and public modules tend to live near the root).
 */
export function mapSources(paths: readonly string[], nearDirs: ReadonlySet<string>): string[] {
  const sources = paths.filter((p) => languageOf(p) !== undefined);
  if (sources.length <= MAX_MAP_FILES) return sources;
  const rank = (p: string): number => (nearDirs.has(dirOf(p)) ? 0 : 1);
  return [...sources]
    .sort((a, b) => rank(a) - rank(b) || depthOf(a) - depthOf(b) || a.localeCompare(b))
    .slice(0, MAX_MAP_FILES);
}

function window(content: string, start: number, end: number): { text: string; start: number; end: number } {
  const lines = content.split("\n");
  const from = Math.max(1, start - FOCUS_MARGIN);
  const to = Math.min(lines.length, end + FOCUS_MARGIN);
  return { text: lines.slice(from - 1, to).join("\n"), start: from, end: to };
}

export async function gatherContext(input: ContextInput): Promise<GatheredContext> {
  const text = `${input.instruction}\n${input.extra ?? ""}`;
  const named = namedPaths(text, input.paths);
  const near = new Set([...named, ...(input.focus ? [input.focus.path] : [])].map(dirOf));
  const contents = new Map(
    [...(await input.read(mapSources(input.paths, near)))].filter(
      ([, content]) => content.length <= MAX_MAP_FILE_BYTES,
    ),
  );
  const known = new Set(
    [...contents].flatMap(([path, content]) => extractDefinitions(path, content).map((d) => d.name)),
  );
  const words = mentionedIdentifiers(text, known);
  const hits = words.length > 0 ? await input.grep(words) : new Map<string, number>();
  const mentioning = [...hits.entries()]
    .filter(([p]) => !named.includes(p))
    .sort(([pa, a], [pb, b]) => b - a || pa.localeCompare(pb))
    .slice(0, MAX_MENTION_FILES)
    .map(([p]) => p);

  const wanted: Array<{ path: string; why: ContextReason }> = [];
  if (input.focus) wanted.push({ path: input.focus.path, why: "focus" });
  for (const p of named) if (!wanted.some((w) => w.path === p)) wanted.push({ path: p, why: "named" });
  for (const p of mentioning) if (!wanted.some((w) => w.path === p)) wanted.push({ path: p, why: "mentions" });
  const read = await input.read(wanted.map((w) => w.path));

  let budget = (input.fileTokens ?? DEFAULT_FILE_TOKENS) * 4;
  const files: ContextFile[] = [];
  const omitted: string[] = [];
  for (const { path, why } of wanted) {
    const content = read.get(path);
    if (content === undefined) continue;
    if (content.length <= budget) {
      files.push({ path, content, why });
      budget -= content.length;
    } else if (why === "focus" && input.focus) {
      // A big file under review: the commented lines and their surroundings still fit.
      const part = window(content, input.focus.startLine, input.focus.endLine);
      if (part.text.length > budget) omitted.push(path);
      else {
        files.push({ path, content: part.text, why, lines: { start: part.start, end: part.end } });
        budget -= part.text.length;
      }
    } else omitted.push(path);
  }
  const boost = new Set<string>([...words, ...named]);
  const repoMap = buildRepoMap({
    paths: input.paths,
    contents,
    budgetChars: (input.mapTokens ?? DEFAULT_MAP_TOKENS) * 4,
    boost,
  });
  return { files, omitted, repoMap, words };
}
