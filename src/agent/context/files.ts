/** Which files are which (pure): the ones a text names, code and tests, the sources the map scans. */
import { languageOf } from "./definitions.js";

/** The map scans at most this many source files, and skips big ones (generated or vendored code). */
export const MAX_MAP_FILES = 1_000;
export const MAX_MAP_FILE_BYTES = 100_000;

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

const dirOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf("/")));
const depthOf = (path: string): number => path.split("/").length;

/**
 * The source files the map scans, when there are more than it can read: those next to the files that matter first,
 * then the shallowest (entry points and public modules tend to live near the root).
 */
export function mapSources(paths: readonly string[], nearDirs: ReadonlySet<string>): string[] {
  const sources = paths.filter((p) => languageOf(p) !== undefined);
  if (sources.length <= MAX_MAP_FILES) return sources;
  const rank = (p: string): number => (nearDirs.has(dirOf(p)) ? 0 : 1);
  return [...sources]
    .sort((a, b) => rank(a) - rank(b) || depthOf(a) - depthOf(b) || a.localeCompare(b))
    .slice(0, MAX_MAP_FILES);
}

/** Files of code (not documentation, data, lockfiles or minified bundles): what the ranking may pick. */
const CODE =
  /\.(?:[cm]?[jt]sx?|py|pyi|go|rs|java|kt|kts|scala|rb|php|cs|c|cc|cpp|cxx|h|hh|hpp|m|mm|swift|ex|exs|erl|hs|ml|clj|lua|pl|pm|r|sh|bash|zsh|vue|svelte|sql)$/i;
/**
 * Build output, installed dependencies and package managers' committed bundles (Yarn's release and plugins under
 * `.yarn/`) are generated: never the place to fix anything.
 */
const GENERATED = /^(dist|build|out|coverage|target|\.next|\.yarn)\/|(^|\/)node_modules\//;
export const isCodePath = (path: string): boolean =>
  CODE.test(path) && !/\.min\.[cm]?js$/.test(path) && !GENERATED.test(path);
