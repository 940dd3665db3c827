/**
 * A path the reply names that no file has, read as the one known file it can only mean (pure): models write a
 * file's bare name (`response.js`), put the repository's folder or a diff's `a/` before its path, or write it in
 * another case. Only edits of
 * an existing file's lines move so, and only to a sole candidate, where they must still be found; a deletion, a
 * rename or a new file keeps its path, and several candidates are named in the failure instead.
 */
import { distance } from "fastest-levenshtein";
import type { ParsedItem } from "../core/edit.js";
import type { EditResult } from "../core/result.js";
import { normalizeRelativePath } from "./paths.js";

/** An item's path as the planner reads it (normalised), or undefined for a problem or a refused path. */
export function pathOf(item: ParsedItem): string | undefined {
  if (item.type !== "edit") return undefined;
  const normal = normalizeRelativePath(item.edit.path);
  return normal.ok ? normal.path : undefined;
}

/** Known paths whose key ends with `path`'s key, or is its end, at a folder boundary (or equals it). */
function candidatesBy(path: string, known: readonly string[], key: (p: string) => string): string[] {
  const wanted = key(path);
  return known.filter((candidate) => {
    if (candidate === path) return false;
    const own = key(candidate);
    return own === wanted || own.endsWith(`/${wanted}`) || wanted.endsWith(`/${own}`);
  });
}

/**
 * Known paths that `path` may stand for: one ending with it, or one it ends with, at a folder boundary; when none
 * does, the same in any case (`src/parser.ts` for `src/Parser.ts`, as a case-insensitive file system lets a model
 * write it).
 */
export function pathCandidates(path: string, known: Iterable<string>): string[] {
  const list = [...known];
  const exact = candidatesBy(path, list, (p) => p);
  return (exact.length > 0 ? exact : candidatesBy(path, list, (p) => p.toLowerCase())).sort();
}

/** An edit of lines it quotes from an existing file. */
const isLineEdit = (item: ParsedItem): boolean =>
  item.type === "edit" && item.edit.kind === "replace" && item.edit.ops.some((op) => op.op !== "add");

/** Whether every edit of `path` changes lines it quotes in an existing file. */
const onlyLineEdits = (items: readonly ParsedItem[], path: string): boolean =>
  items.every((item) => item.type !== "edit" || pathOf(item) !== path || isLineEdit(item));

/**
 * A path written from the repository's root with a leading slash (`/src/app.ts`) is absolute to the planner, which
 * refuses it: where the rest is a listed file, the edit means that file.
 */
function rootRelative(item: ParsedItem, listed: ReadonlySet<string>): ParsedItem {
  if (item.type !== "edit" || !item.edit.path.startsWith("/") || !isLineEdit(item)) return item;
  const relative = normalizeRelativePath(item.edit.path.replace(/^\/+/, ""));
  if (!relative.ok || !listed.has(relative.path)) return item;
  return { type: "edit", edit: { ...item.edit, path: relative.path } };
}

const isSlashed = (item: ParsedItem): boolean => item.type === "edit" && item.edit.path.startsWith("/");

/** Whether resolving the items' paths reads the known paths: a path names no file, or starts with `/`. */
export const needsKnownPaths = (parsed: readonly ParsedItem[], missing: readonly string[]): boolean =>
  missing.length > 0 || parsed.some(isSlashed);

export interface ResolvedPaths {
  readonly items: ParsedItem[];
  /** Each missing path with several candidates and only line edits: its candidates (paths-by-content.ts). */
  readonly several: ReadonlyMap<string, readonly string[]>;
}

/**
 * The items, with each missing path that has a sole candidate, and only line edits, moved to that candidate, and
 * each root-relative path written with a leading slash made relative. The known paths are read only when a path
 * needs them.
 */
export function resolveMissingPaths(
  parsed: readonly ParsedItem[],
  missing: readonly string[],
  known: Iterable<string>,
): ResolvedPaths {
  if (!needsKnownPaths(parsed, missing)) return { items: [...parsed], several: new Map() };
  const slashed = parsed.some(isSlashed);
  const list = [...known];
  const listed = new Set(list);
  const items = slashed ? parsed.map((item) => rootRelative(item, listed)) : [...parsed];
  const moved = new Map<string, string>();
  const several = new Map<string, readonly string[]>();
  for (const path of missing) {
    const candidates = pathCandidates(path, list);
    if (candidates.length === 0 || !onlyLineEdits(items, path)) continue;
    if (candidates.length === 1) moved.set(path, candidates[0]!);
    else several.set(path, candidates);
  }
  return { items: movePaths(items, moved), several };
}

/** The items with each edit of a path in `moved` moved to the path it maps to. */
export function movePaths(items: readonly ParsedItem[], moved: ReadonlyMap<string, string>): ParsedItem[] {
  if (moved.size === 0) return [...items];
  return items.map((item): ParsedItem => {
    const path = pathOf(item);
    const to = path === undefined ? undefined : moved.get(path);
    return to === undefined || item.type !== "edit" ? item : { type: "edit", edit: { ...item.edit, path: to } };
  });
}

/** A path this many characters (or fewer) apart from a missing one may be what it was meant to be: a typo. */
const MAX_PATH_TYPO = 2;

/**
 * Known paths a few characters apart from `path` (`lib/indx.js` for `lib/index.js`), nearest first, at most three.
 * Named only, never used: a misspelt path names no file for sure.
 */
function nearPaths(path: string, known: readonly string[]): string[] {
  return known
    .filter((candidate) => Math.abs(candidate.length - path.length) <= MAX_PATH_TYPO)
    .map((candidate) => ({ candidate, apart: distance(candidate.toLowerCase(), path.toLowerCase()) }))
    .filter(({ apart }) => apart <= MAX_PATH_TYPO)
    .sort((a, b) => a.apart - b.apart || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

/** A failure on a missing path names the known files it may have meant: of that name, else of a name close to it. */
export function withPathCandidates(results: readonly EditResult[], known: Iterable<string>): EditResult[] {
  if (!results.some((result) => !result.ok && result.reason === "missing-original")) return [...results];
  const list = [...known];
  return results.map((result) => {
    if (result.ok || result.reason !== "missing-original") return result;
    const candidates = pathCandidates(result.path, list);
    if (candidates.length === 0) {
      const near = nearPaths(result.path, list);
      return near.length === 0
        ? result
        : { ...result, message: `${result.message} Files named close to it: ${near.join(", ")}.` };
    }
    const shown = candidates.slice(0, 10).join(", ");
    const more = candidates.length > 10 ? ` and ${candidates.length - 10} more` : "";
    return { ...result, message: `${result.message} Files of that name: ${shown}${more}.` };
  });
}
