/** File headers of unified diffs: git's `diff --git` block and the `---` / `+++` pair, with their path quirks. */
import { cleanPath } from "../shared/paths.js";
import { withoutDate } from "./header-dates.js";

export const DEV_NULL = "/dev/null";

export const isGitHeader = (line: string): boolean => line.startsWith("diff --git ");
export const isHunkHeader = (line: string): boolean => line.startsWith("@@");

const OLD_FILE = /^--- \S/;

/** `--- x` immediately followed by `+++ y`. */
export const startsPlainFile = (lines: readonly string[], i: number): boolean =>
  OLD_FILE.test(lines[i] ?? "") && (lines[i + 1] ?? "").startsWith("+++ ");

/**
 * Inside a hunk, `--- x` could be the removal of a line "-- x"; it is a new file only when a `+++` line and a hunk
 * header follow, which no real removal sequence looks like.
 */
export const isFileHeaderInHunk = (lines: readonly string[], i: number): boolean =>
  startsPlainFile(lines, i) && isHunkHeader(lines[i + 2] ?? "");

const UTF8 = new TextEncoder();

/** The characters git writes after a backslash in a quoted name, and what each stands for. */
const ESCAPED: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/**
 * A name as git quotes it (core.quotePath, on by default): in double quotes, C-style, any byte past ASCII as an
 * octal escape (`"caf\303\251.md"` is `café.md`, its UTF-8 bytes). Unquoted names are returned as written.
 */
export function unquote(s: string): string {
  if (s.length < 2 || !s.startsWith('"') || !s.endsWith('"')) return s;
  const body = s.slice(1, -1);
  const bytes: number[] = [];
  // Text between escapes is encoded as a whole, so a character of two UTF-16 units stays one.
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== "\\") continue;
    const octal = /^[0-3][0-7]{2}/.exec(body.slice(i + 1, i + 4));
    const escaped = ESCAPED[body[i + 1] ?? ""];
    if (octal === null && escaped === undefined) continue;
    bytes.push(...UTF8.encode(body.slice(from, i)));
    bytes.push(octal !== null ? parseInt(octal[0], 8) : escaped!);
    i += octal !== null ? 3 : 1;
    from = i + 1;
  }
  bytes.push(...UTF8.encode(body.slice(from)));
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

/** The path part of a `---`/`+++` line (after the marker): timestamp and quotes removed, prefixes kept. */
export function headerPath(rest: string): string {
  let s = rest;
  const tab = s.indexOf("\t");
  if (tab !== -1) s = s.slice(0, tab);
  s = withoutDate(s);
  s = s.replace(/\s+\((?:revision \d+|working copy|nonexistent)\)\s*$/, "");
  return unquote(s.trim());
}

/** The two paths of `diff --git a/x b/y` (prefixes kept), or undefined when the line cannot be read. */
export function gitHeaderPaths(line: string): readonly [string, string] | undefined {
  const rest = line.slice("diff --git ".length).trim();
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*")$/.exec(rest) ?? /^("(?:[^"\\]|\\.)*") (\S+)$/.exec(rest);
  if (quoted) return [unquote(quoted[1]!), unquote(quoted[2]!)];
  // Same name on both sides (the usual case), even with spaces: "a/P b/P".
  if (rest.startsWith("a/") && (rest.length - 5) % 2 === 0) {
    const half = (rest.length - 5) / 2;
    const a = rest.slice(2, 2 + half);
    if (rest.slice(2 + half) === ` b/${a}`) return [`a/${a}`, `b/${a}`];
  }
  const split = rest.indexOf(" b/");
  if (split > 0) return [rest.slice(0, split), rest.slice(split + 1)];
  const space = rest.indexOf(" ");
  return space > 0 ? [rest.slice(0, space), rest.slice(space + 1)] : undefined;
}

/**
 * Drops git's `a/` and `b/` prefixes when both sides carry them, or when the other side is /dev/null, and, in
 * diff(1)'s output over two trees (`trees`: both names dated), the folders of `diff -r old new` (first folders
 * that differ before the same rest); any other name is kept as written (a model's `--- lib/x.js` / `+++
 * src/x.js` names two files of the repository). Decorations (backticks, `./`) are cleaned; /dev/null stays.
 */
export function stripPrefixes(
  oldRaw: string | undefined,
  newRaw: string | undefined,
  trees = false,
): { readonly old: string | undefined; readonly new: string | undefined } {
  let o = oldRaw;
  let n = newRaw;
  const tail = (p: string | undefined): string | undefined =>
    p === undefined ? undefined : /^[^/]+\/(.+)$/.exec(p)?.[1];
  const folders = trees && o !== n && o !== DEV_NULL && tail(o) !== undefined && tail(o) === tail(n);
  if (folders && !(o!.startsWith("a/") && n!.startsWith("b/"))) return stripPrefixes(tail(o), tail(n));
  const both = o?.startsWith("a/") === true && n?.startsWith("b/") === true;
  if (both || (n === DEV_NULL && o?.startsWith("a/") === true)) o = o!.slice(2);
  if (both || (o === DEV_NULL && n?.startsWith("b/") === true)) n = n!.slice(2);
  return { old: cleanHeaderPath(o), new: cleanHeaderPath(n) };
}

/** Cleans a header path; an empty one counts as absent. */
function cleanHeaderPath(p: string | undefined): string | undefined {
  if (p === undefined || p === DEV_NULL) return p;
  const clean = cleanPath(p);
  return clean === "" ? undefined : clean;
}

export interface GitHeaders {
  newFile: boolean;
  deletedFile: boolean;
  binary: boolean;
  renameFrom: string | undefined;
  renameTo: string | undefined;
  copyFrom: string | undefined;
  copyTo: string | undefined;
  /** The octal modes of `old mode`, `new mode` and `new file mode`, as written (`100755`). */
  oldMode: string | undefined;
  newMode: string | undefined;
  newFileMode: string | undefined;
}

export const emptyGitHeaders = (): GitHeaders => ({
  newFile: false,
  deletedFile: false,
  binary: false,
  renameFrom: undefined,
  renameTo: undefined,
  copyFrom: undefined,
  copyTo: undefined,
  oldMode: undefined,
  newMode: undefined,
  newFileMode: undefined,
});

/** git's modes of a regular file: executable or not. Others (120000 a symlink, 160000 a submodule) are not files. */
export const REGULAR_MODE = "100644";
export const EXECUTABLE_MODE = "100755";

const EXTENDED = /^(?:index|similarity index|dissimilarity index) /;
const modeOf = (line: string, label: string): string => line.slice(label.length).trim();

/**
 * Reads git's extended header lines from `i` and returns the index after them. Binary payloads are skipped so
 * their base85 lines do not read as prose.
 */
export function readGitHeaders(lines: readonly string[], i: number, into: GitHeaders): number {
  let j = i;
  while (j < lines.length) {
    const line = lines[j]!;
    if (line.startsWith("new file mode")) {
      into.newFile = true;
      into.newFileMode = modeOf(line, "new file mode");
    } else if (line.startsWith("deleted file mode")) into.deletedFile = true;
    else if (line.startsWith("old mode ")) into.oldMode = modeOf(line, "old mode");
    else if (line.startsWith("new mode ")) into.newMode = modeOf(line, "new mode");
    else if (line.startsWith("rename from ")) into.renameFrom = cleanHeaderPath(unquote(line.slice(12)));
    else if (line.startsWith("rename to ")) into.renameTo = cleanHeaderPath(unquote(line.slice(10)));
    else if (line.startsWith("copy from ")) into.copyFrom = cleanHeaderPath(unquote(line.slice(10)));
    else if (line.startsWith("copy to ")) into.copyTo = cleanHeaderPath(unquote(line.slice(8)));
    else if (/^Binary files .* differ\s*$/.test(line)) into.binary = true;
    else if (line.trim() === "GIT binary patch") {
      into.binary = true;
      j++;
      while (j < lines.length && /^(?:literal \d+|delta \d+|[A-Za-z][!-~]*|)$/.test(lines[j]!)) {
        if (isGitHeader(lines[j]!)) break;
        j++;
      }
      continue;
    } else if (!EXTENDED.test(line)) break;
    j++;
  }
  return j;
}
