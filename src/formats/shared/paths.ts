/**
 * File paths as models decorate them: `` `src/a.py` ``, **src/a.py**, ### src/a.py, ./src/a.py, "File: src/a.py:".
 * Cleaning only removes decoration; safety (absolute paths, `..`) is the planner's call, so those stay as written.
 */
import type { PathLookup } from "../types.js";

// Case matters: "## Build" or "License:" are headings, BUILD and LICENSE are files.
const WELL_KNOWN_NAMES = new Set([
  "Makefile",
  "makefile",
  "GNUmakefile",
  "Dockerfile",
  "Containerfile",
  "LICENSE",
  "LICENCE",
  "COPYING",
  "NOTICE",
  "AUTHORS",
  "CONTRIBUTORS",
  "CHANGELOG",
  "README",
  "CODEOWNERS",
  "Gemfile",
  "Rakefile",
  "Procfile",
  "Jenkinsfile",
  "Vagrantfile",
  "Brewfile",
  "Pipfile",
  "Justfile",
  "justfile",
  "Caddyfile",
  "Podfile",
  "Earthfile",
  "Tiltfile",
  "BUILD",
  "WORKSPACE",
  "VERSION",
]);

const LABEL = /^(?:file ?name|file ?path|file|path|filepath|new file|updated file)\s*:\s*/i;
const NOTE = /\s+\((?:new|new file|created?|updated?|modified|changed|deleted|full file|complete file)[^)]*\)$/i;

function cleanOnce(text: string): string {
  let s = text.trim();
  s = s.replace(/^#{1,6}\s+/, "");
  s = s.replaceAll("**", "");
  s = s.replace(/^\*+\s*|\s*\*+$/g, "");
  s = s.replace(LABEL, "");
  s = s.replace(NOTE, "");
  s = s.replace(/:+$/, "");
  s = s.replace(/^`+|`+$/g, "");
  s = s.replace(/^(["'])(.*)\1$/, "$2");
  return s.trim();
}

// Nothing to peel: the common case, kept cheap because every fence and path candidate goes through here.
const PLAIN = /^[\w.+@/-]*$/;

/** Removes decoration around a path; backslashes become `/`, a leading `./` goes. Idempotent. */
export function cleanPath(text: string): string {
  let s = text;
  if (PLAIN.test(s)) {
    while (s.startsWith("./")) s = s.slice(2);
    return s;
  }
  // Decorations nest (### **`a.py`**:), so peel until nothing changes; five rounds cover any real reply.
  for (let round = 0; round < 5; round++) {
    const next = cleanOnce(s);
    if (next === s) break;
    s = next;
  }
  s = s.replaceAll("\\", "/");
  while (s.startsWith("./")) s = s.slice(2);
  return s;
}

/** `name.ext` or a dotfile (`.env`); the extension holds a letter, so "1.5" or "v2.0" are not file names. */
function hasExtension(base: string): boolean {
  const dot = base.lastIndexOf(".");
  if (dot === -1 || dot === base.length - 1) return false;
  const ext = base.slice(dot + 1);
  if (ext.length > 16 || !/^[\w+-]+$/.test(ext) || !/[A-Za-z]/.test(ext)) return false;
  return dot === 0 || base[dot - 1] !== ".";
}

/** Whether an already-cleaned string can stand for a file path (see the module comment for the rules). */
export function looksLikePath(path: string, knownPaths?: PathLookup): boolean {
  if (path === "") return false;
  if (knownPaths?.has(path) === true) return true;
  if (/\s/.test(path) || path.includes("://") || path.includes("`")) return false;
  if (/^[<>=*+~`-]/.test(path)) return false;
  if (path.endsWith("/")) return false;
  const base = path.slice(path.lastIndexOf("/") + 1);
  if (base === "" || base === "." || base === "..") return false;
  if (path.includes("/")) return true;
  return hasExtension(base) || WELL_KNOWN_NAMES.has(base);
}

// "Update `src/a.py`:" or "Here is **src/a.py**:" — a prose line that ends by naming one path.
const TRAILING_NAMED = /(?:`([^`\s]+)`|\*\*([^*\s]+)\*\*)\s*:?\s*$/;

// A comment that holds only a path, as models put it on a block's first line or above it: `// src/a.ts`,
// `# a.py`, `-- q.sql`, `<!-- docs/a.md -->`, `/* a.css */`, with or without a label (`// filepath: src/a.ts`,
// Copilot's habit; `# File: a.py`).
const COMMENT_LABEL = String.raw`(?:(?:file ?path|file ?name|file|path)\s*:\s*)`;
const COMMENTED = new RegExp(
  String.raw`^(?:(?:\/\/|#|--)\s+(${COMMENT_LABEL})?(\S+)|<!--\s*(${COMMENT_LABEL})?(\S+)\s*-->|\/\*\s*(${COMMENT_LABEL})?(\S+)\s*\*\/)$`,
  "i",
);

/** The path a comment line names, and whether it said so with a label. */
function commentedPath(
  line: string,
  knownPaths: PathLookup | undefined,
): { readonly path: string; readonly labelled: boolean } | undefined {
  const m = COMMENTED.exec(line.trim());
  if (m === null) return undefined;
  const token = m[2] ?? m[4] ?? m[6];
  if (token === undefined) return undefined;
  const path = cleanPath(token);
  if (!named(path, knownPaths) || !looksLikePath(path, knownPaths)) return undefined;
  return { path, labelled: (m[1] ?? m[3] ?? m[5]) !== undefined };
}

const pathFromComment = (line: string, knownPaths: PathLookup | undefined): string | undefined =>
  commentedPath(line, knownPaths)?.path;

/**
 * The path a block's first line names with a label (`// File: lib/x.js`, `# filepath: a.py`): a header the model
 * put inside the fence, not a line of the file. Without the label a first-line comment may be the file's own.
 */
export function labelledPathComment(line: string, knownPaths?: PathLookup): string | undefined {
  const found = commentedPath(line, knownPaths);
  return found?.labelled === true ? found.path : undefined;
}

/** The file of the repository a block's first line names in a comment without a label (`// lib/x.js`). */
export function knownPathComment(line: string, knownPaths?: PathLookup): string | undefined {
  const found = commentedPath(line, knownPaths);
  return found?.labelled === false && knownPaths?.has(found.path) === true ? found.path : undefined;
}

// "In lib/x.js:" — a preposition or verb and a path, ending with a colon: a label before a block, not a sentence.
const LABEL_LINE = /^(?:in|inside|for|file|update|updating|edit|editing|change|changes to|modify)\s+(\S+?)\s*:$/i;

function pathFromLabelLine(line: string, knownPaths: PathLookup | undefined): string | undefined {
  const m = LABEL_LINE.exec(line.trim());
  if (m === null) return undefined;
  const path = cleanPath(m[1]!);
  return named(path, knownPaths) && looksLikePath(path, knownPaths) ? path : undefined;
}

/** A path that names a file on its own: known, or with a directory or an extension (not a bare word). */
const named = (path: string, knownPaths: PathLookup | undefined): boolean =>
  knownPaths?.has(path) === true || path.includes("/") || hasExtension(path.slice(path.lastIndexOf("/") + 1));

// What may surround a path that is alone in backticks: decoration and a label, no words.
const DECORATION = /^[\s#*>:-]*(?:(?:file ?name|file ?path|file|path|filepath|new file|updated file)\s*:)?[\s*:]*$/i;

/**
 * A new file's path with spaces (`` `src/my app.py` ``): only in backticks, with nothing but decoration around
 * them on the line, and with a directory or an extension, because prose in backticks has spaces too.
 */
function spacedPath(line: string): string | undefined {
  const m = /^([^`]*)`([^`]+)`([^`]*)$/.exec(line);
  if (!m || !DECORATION.test(m[1]!) || !DECORATION.test(m[3]!)) return undefined;
  const path = cleanPath(m[2]!);
  if (!/ /.test(path) || /\s\s|[\t\n]/.test(path) || path !== path.trim()) return undefined;
  return named(path, undefined) && looksLikePath(path.replaceAll(" ", "_")) ? path : undefined;
}

/** The backticked tokens of a sentence that look like paths ("Then in `src/b.ts`, add `y`:" has one). */
function backtickedPaths(line: string, knownPaths: PathLookup | undefined): Set<string> {
  const paths = new Set<string>();
  for (const m of line.matchAll(/`([^`\s]+)`/g)) {
    const path = cleanPath(m[1]!);
    if (named(path, knownPaths) && looksLikePath(path, knownPaths)) paths.add(path);
  }
  return paths;
}

/**
 * The path a line names, or undefined: a path with decoration, a comment holding only a path, or a backticked
 * path with spaces. With `prose`, a sentence that names exactly one path in backticks, or ends by naming one in
 * bold, also counts; callers whose block would overwrite a whole file do not allow that ("Example use of `lib/a.js`:"
 * is not a file header).
 */
export function pathFromLine(line: string, knownPaths?: PathLookup, prose = true): string | undefined {
  const cleaned = cleanPath(line);
  if (looksLikePath(cleaned, knownPaths)) return cleaned;
  const plain = pathFromComment(line, knownPaths) ?? pathFromLabelLine(line, knownPaths) ?? spacedPath(line);
  if (plain !== undefined || !prose) return plain;
  // Two paths in backticks ("Move `f` from `a.ts` to `b.ts`:") name no single file, even when one ends the line.
  const backticked = backtickedPaths(line, knownPaths);
  if (backticked.size > 1) return undefined;
  const m = TRAILING_NAMED.exec(line.trim());
  const trailing = m?.[1] ?? m?.[2];
  if (trailing !== undefined) {
    const path = cleanPath(trailing);
    if (looksLikePath(path, knownPaths)) return path;
  }
  return [...backticked][0];
}

/**
 * The path in a fence info string: ```` ```src/a.py ````, ```` ```python src/a.py ````, ```` ```py title="a.py" ````,
 * ```` ```python:src/a.py ````.
 */
export function pathFromInfo(info: string, knownPaths?: PathLookup): string | undefined {
  if (info === "") return undefined;
  for (const raw of info.split(/\s+/)) {
    let token = raw.replace(/^(?:title|file|filename|path)=/i, "");
    const colon = token.indexOf(":");
    // "python:src/a.py" names the language first; a drive letter ("C:/x") is one character.
    if (colon > 1) token = token.slice(colon + 1);
    const path = cleanPath(token);
    // Language tags such as "makefile" or "Dockerfile" name no file: an info path needs a "/" or an extension.
    const named = knownPaths?.has(path) === true || path.includes("/") || hasExtension(path);
    if (named && looksLikePath(path, knownPaths)) return path;
  }
  return undefined;
}
