/**
 * The repository files a file imports (pure): relative imports and requires of JavaScript and TypeScript (with
 * TypeScript's `.js`-for-`.ts` convention), Python's absolute and relative imports, Go's packages inside the
 * module (and a test's own package), Rust's `mod` and `use crate::`. Enough to go from a test to the code it tests
 * and from a source to its helpers; packages from outside the repository are not followed.
 */
import { posix } from "node:path";

export type PathExists = (path: string) => boolean;

const JS_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const JS_SPECIFIERS = [
  /(?:^|[^.\w$])(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"]([^'"\n]+)['"]/g,
  /\brequire\(\s*['"]([^'"\n]+)['"]\s*\)/g,
  /\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g,
];

const first = (candidates: readonly string[], exists: PathExists): string | undefined => candidates.find(exists);

function resolveJs(from: string, specifier: string, exists: PathExists): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  const base = posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\/$/, "");
  if (base.startsWith("..")) return undefined;
  const stem = base.replace(/\.(?:m|c)?js$/, "");
  return first(
    [
      base,
      ...JS_EXTENSIONS.map((ext) => `${base}${ext}`),
      // TypeScript's ESM imports name the emitted `.js` file.
      ...(stem !== base ? JS_EXTENSIONS.map((ext) => `${stem}${ext}`) : []),
      ...JS_EXTENSIONS.map((ext) => posix.join(base, `index${ext}`)),
    ],
    exists,
  );
}

function pythonModule(base: string, parts: readonly string[], exists: PathExists): string | undefined {
  const joined = posix.join(base, ...parts);
  return first([`${joined}.py`, `${joined}/__init__.py`], exists);
}

function resolvePython(from: string, module: string, names: readonly string[], exists: PathExists): string[] {
  const dots = /^\.*/.exec(module)?.[0].length ?? 0;
  const parts = module
    .slice(dots)
    .split(".")
    .filter((p) => p !== "");
  const bases =
    dots > 0
      ? [posix.normalize(posix.join(posix.dirname(from), ...Array<string>(dots - 1).fill("..")))]
      : ["", "src", "lib", posix.dirname(from)];
  const found: string[] = [];
  for (const base of bases) {
    if (base.startsWith("..")) continue;
    const target = parts.length === 0 ? undefined : pythonModule(base, parts, exists);
    if (target !== undefined) found.push(target);
    // `from pkg import sub` may name a submodule.
    for (const name of names) {
      const sub = pythonModule(base, [...parts, name], exists);
      if (sub !== undefined) found.push(sub);
    }
    if (found.length > 0) break;
  }
  return found;
}

function pythonImports(from: string, content: string, exists: PathExists): Import[] {
  const found: Import[] = [];
  for (const match of content.matchAll(/^\s*from\s+(\.*[\w.]*)\s+import\s+\(?([\w\s,*]+)/gm)) {
    const names = (match[2] ?? "")
      .split(",")
      .map((n) => n.trim().split(/\s+/)[0] ?? "")
      .filter((n) => /^\w+$/.test(n));
    const statement = match[0].trim();
    for (const path of resolvePython(from, match[1] ?? "", names, exists)) found.push({ path, statement });
  }
  for (const match of content.matchAll(/^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)/gm)) {
    const statement = match[0].trim();
    for (const module of (match[1] ?? "").split(",")) {
      for (const path of resolvePython(from, module.trim(), [], exists)) found.push({ path, statement });
    }
  }
  return found;
}

function goImports(from: string, content: string, paths: readonly string[], module: string | undefined): string[] {
  const found: string[] = [];
  const sources = (dir: string): string[] =>
    paths.filter((p) => posix.dirname(p) === dir && p.endsWith(".go") && !p.endsWith("_test.go")).slice(0, 6);
  // A test is in its package's folder: the package's sources are what it tests.
  if (from.endsWith("_test.go")) found.push(...sources(posix.dirname(from)));
  if (module !== undefined) {
    for (const match of content.matchAll(/"([^"\n]+)"/g)) {
      const spec = match[1] ?? "";
      if (spec.startsWith(`${module}/`)) found.push(...sources(spec.slice(module.length + 1)));
    }
  }
  return found;
}

function rustImports(from: string, content: string, exists: PathExists): string[] {
  const found: string[] = [];
  const dir = posix.dirname(from);
  const stem = posix.basename(from, ".rs");
  const own = ["lib", "main", "mod"].includes(stem) ? dir : posix.join(dir, stem);
  for (const match of content.matchAll(/^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/gm)) {
    const name = match[1] ?? "";
    const target = first([posix.join(own, `${name}.rs`), posix.join(own, name, "mod.rs")], exists);
    if (target !== undefined) found.push(target);
  }
  const crateRoot =
    from.startsWith("src/") || !from.includes("/src/") ? "src" : from.slice(0, from.indexOf("/src/") + 4);
  for (const match of content.matchAll(/\buse\s+crate::([\w:]+)/g)) {
    const parts = (match[1] ?? "").split("::");
    for (let n = parts.length; n > 0; n--) {
      const module = posix.join(crateRoot, ...parts.slice(0, n));
      const target = first([`${module}.rs`, posix.join(module, "mod.rs")], exists);
      if (target !== undefined) {
        found.push(target);
        break;
      }
    }
  }
  return found;
}

export interface ImportContext {
  readonly exists: PathExists;
  readonly paths: readonly string[];
  /** The Go module path from go.mod, when there is one. */
  readonly goModule?: string;
}

/** A repository file a file imports, and the statement that imports it (what names it takes, and from where). */
export interface Import {
  readonly path: string;
  readonly statement: string;
}

/** The line of `content` around `index`. */
function lineAround(content: string, index: number): string {
  const end = content.indexOf("\n", index);
  return content.slice(content.lastIndexOf("\n", index) + 1, end < 0 ? undefined : end).trim();
}

/**
 * Every import of a repository file in `path`, in the order written, never of itself; a file imported twice is
 * listed twice. A JavaScript import's statement is the whole `import … from '…'` (or the line of a `require`).
 */
export function importStatementsOf(path: string, content: string, context: ImportContext): Import[] {
  const found: Import[] = [];
  // Go and Rust imports are followed by module, not by the names they take.
  const bare = (paths: readonly string[]): Import[] => paths.map((p) => ({ path: p, statement: "" }));
  if (/\.(?:[cm]?[jt]sx?)$/.test(path)) {
    for (const [n, pattern] of JS_SPECIFIERS.entries()) {
      for (const match of content.matchAll(pattern)) {
        const target = resolveJs(path, match[1] ?? "", context.exists);
        const statement = n === 0 ? match[0].slice(match[0].search(/import|export/)) : lineAround(content, match.index);
        if (target !== undefined) found.push({ path: target, statement });
      }
    }
  } else if (path.endsWith(".py")) found.push(...pythonImports(path, content, context.exists));
  else if (path.endsWith(".go")) found.push(...bare(goImports(path, content, context.paths, context.goModule)));
  else if (path.endsWith(".rs")) found.push(...bare(rustImports(path, content, context.exists)));
  return found.filter((i) => i.path !== path);
}

/** The repository files `path` imports, each once, never itself. */
export const importsOf = (path: string, content: string, context: ImportContext): string[] => [
  ...new Set(importStatementsOf(path, content, context).map((i) => i.path)),
];

/** The module path a go.mod declares. */
export const goModuleOf = (goMod: string | undefined): string | undefined =>
  goMod === undefined ? undefined : /^module\s+(\S+)/m.exec(goMod)?.[1];
