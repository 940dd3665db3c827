/**
 * File paths as models decorate them: `` `src/a.py` ``, **src/a.py**, ### src/a.py, ./src/a.py, "File: src/a.py:".
 * Cleaning only removes decoration; safety (absolute paths, `..`) is the planner's call, so those stay as written.
 */

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
export function looksLikePath(path: string, knownPaths?: ReadonlySet<string>): boolean {
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

/**
 * The path a line names, or undefined. With `prose`, a sentence that ends by naming a path also counts; callers
 * whose block would overwrite a whole file do not allow that ("Example use of `lib/a.js`:" is not a file header).
 */
export function pathFromLine(line: string, knownPaths?: ReadonlySet<string>, prose = true): string | undefined {
  const cleaned = cleanPath(line);
  if (looksLikePath(cleaned, knownPaths)) return cleaned;
  if (!prose) return undefined;
  const m = TRAILING_NAMED.exec(line.trim());
  const named = m?.[1] ?? m?.[2];
  if (named === undefined) return undefined;
  const path = cleanPath(named);
  return looksLikePath(path, knownPaths) ? path : undefined;
}

/**
 * The path in a fence info string: ```` ```src/a.py ````, ```` ```python src/a.py ````, ```` ```py title="a.py" ````,
 * ```` ```python:src/a.py ````.
 */
export function pathFromInfo(info: string, knownPaths?: ReadonlySet<string>): string | undefined {
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
