/**
 * Files and lines a text points at (pure): stack frames (`at fn (/abs/path/src/x.js:12:5)`, Python's
 * `File "x.py", line 12`), and `path:line` mentions in an issue. Absolute paths from someone else's machine are
 * matched to the repository by their longest suffix that names exactly one file.
 */
import { posix } from "node:path";

export interface Location {
  readonly path: string;
  /** 1-based, when the text gave one. */
  readonly line?: number;
}

const PATTERNS: readonly RegExp[] = [
  /File "([^"\n]+)", line (\d+)/g,
  /((?:file:\/\/)?(?:[A-Za-z]:)?[\w@.~/\\-]*[\w-]\.[A-Za-z][A-Za-z0-9]{0,5}):(\d+)(?::\d+)?/g,
];

/** JavaScript a compiler writes, and the sources it is compiled from. */
const COMPILED = /\.(?:js|mjs|cjs|jsx)$/;
const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts"] as const;

/**
 * Finds the repository path of a path written elsewhere (absolute, Windows-style, `file://`, relative): the longest
 * of its suffixes that is a suffix of exactly one repository path. A compiled file that is not in the repository
 * (`dist/test/parse.test.js`, where a TypeScript project runs its compiled tests) is read as its source: the same
 * path under another extension (`src/test/parse.test.ts`), found the same way, the build folder being a prefix.
 */
export function createPathResolver(paths: readonly string[]): (raw: string) => string | undefined {
  const bySuffix = new Map<string, string[]>();
  for (const path of paths) {
    const segments = path.split("/");
    for (let start = 0; start < segments.length; start++) {
      const suffix = segments.slice(start).join("/");
      const list = bySuffix.get(suffix);
      if (list === undefined) bySuffix.set(suffix, [path]);
      else if (list.length < 2) list.push(path);
    }
  }
  const lookUp = (clean: string): string | undefined => {
    const segments = clean.split("/").filter((s) => s !== "" && s !== ".");
    for (let start = 0; start < segments.length; start++) {
      const found = bySuffix.get(segments.slice(start).join("/"));
      if (found === undefined) continue;
      // An absolute path of which only the file name is ours (a runtime's own file) is not ours.
      if (start === segments.length - 1 && segments.length > 1 && clean.startsWith("/")) return undefined;
      return found.length === 1 ? found[0] : undefined;
    }
    return undefined;
  };
  return (raw) => {
    const clean = raw
      .replace(/^file:\/\//, "")
      .replace(/\\/g, "/")
      .replace(/^[A-Za-z]:/, "");
    if (/(^|\/)node_modules\//.test(clean)) return undefined;
    const direct = lookUp(clean);
    if (direct !== undefined || !COMPILED.test(clean)) return direct;
    const sources = new Set(
      SOURCE_EXTENSIONS.map((ext) => lookUp(clean.replace(COMPILED, ext))).filter((p) => p !== undefined),
    );
    return sources.size === 1 ? [...sources][0] : undefined;
  };
}

/** Every repository location the text mentions, in order of first mention, each path once (its first line). */
export function mentionedLocations(text: string, resolve: (raw: string) => string | undefined): Location[] {
  const found = new Map<string, Location>();
  const hits: Array<{ index: number; location: Location }> = [];
  for (const pattern of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const raw = match[1] ?? "";
      const path = resolve(raw);
      if (path === undefined) continue;
      // A line of the compiled file says nothing of where its source's lines are.
      const line = posix.extname(path) === posix.extname(raw) ? Number(match[2]) : Number.NaN;
      hits.push({ index: match.index, location: Number.isFinite(line) && line > 0 ? { path, line } : { path } });
    }
  }
  for (const { location } of hits.sort((a, b) => a.index - b.index)) {
    if (!found.has(location.path)) found.set(location.path, location);
  }
  return [...found.values()];
}
