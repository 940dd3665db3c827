/**
 * Real source files for the drift harness: code shipped in node_modules (TypeScript, JavaScript, declaration
 * files), the Python standard library, Go files, Makefiles and shell scripts from git's contrib folder, YAML
 * workflows. Missing folders are skipped, so the harness runs on any machine with node_modules installed.
 *
 * Some files are given other conventions than they have on disk, so that every case does not look alike:
 * CRLF line endings (converted), no final newline (stripped), tab indentation (space-indented JS/TS converted:
 * whole levels become tabs, alignment spaces stay), a BOM, trailing whitespace on some lines. Go files and Makefiles are tab-indented by nature.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { createRandom, type Random } from "./random.js";
import { detectUnit, leadingWs } from "./text.js";

export type Lang = "ts" | "js" | "py" | "go" | "make" | "yaml" | "sh";

export interface Variant {
  readonly crlf: boolean;
  readonly finalNewline: boolean;
  readonly tabified: boolean;
  readonly bom: boolean;
  /** Trailing whitespace sprinkled on some lines (seeded), as many real repositories have. */
  readonly trailing: number | undefined;
}

export interface SourceFile {
  /** Where it was read from (for reports). */
  readonly origin: string;
  /** The relative path the replies name. */
  readonly path: string;
  readonly lang: Lang;
  /** LF text without BOM, final newline as on disk (conventions are applied per case by `withVariant`). */
  readonly raw: string;
}

interface Root {
  readonly dir: string;
  readonly weight: number;
  readonly depth: number;
  readonly accept: (name: string) => boolean;
}

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const MAX_LINES = 3000;
const MIN_LINES = 25;
/** Longer lines mean minified or generated code. */
const MAX_LINE_LENGTH = 220;

const codeExt = (exts: readonly string[]) => (name: string) =>
  exts.some((e) => name.endsWith(e)) && !name.endsWith(".map") && !name.includes(".min.");

function pythonRoots(): Root[] {
  const lib = "/usr/lib";
  if (!existsSync(lib)) return [];
  return readdirSync(lib)
    .filter((d) => /^python3\.\d+$/.test(d))
    .slice(0, 1)
    .map((d) => ({ dir: join(lib, d), weight: 3, depth: 2, accept: codeExt([".py"]) }));
}

const ROOTS: readonly Root[] = [
  { dir: join(REPO, "node_modules/openai/src"), weight: 2, depth: 4, accept: codeExt([".ts"]) },
  { dir: join(REPO, "node_modules/zod/src"), weight: 2, depth: 5, accept: codeExt([".ts"]) },
  { dir: join(REPO, "node_modules/probot/lib"), weight: 1, depth: 4, accept: codeExt([".js", ".d.ts"]) },
  { dir: join(REPO, "node_modules/diff/libesm"), weight: 1, depth: 3, accept: codeExt([".js"]) },
  { dir: join(REPO, "node_modules/simple-git/dist"), weight: 1, depth: 5, accept: codeExt([".ts", ".mjs"]) },
  { dir: join(REPO, "node_modules/vitest/dist"), weight: 1, depth: 3, accept: codeExt([".js", ".d.ts"]) },
  { dir: join(REPO, "node_modules/typescript/lib"), weight: 1, depth: 1, accept: codeExt([".d.ts"]) },
  { dir: join(REPO, "node_modules/yaml/dist"), weight: 1, depth: 3, accept: codeExt([".js"]) },
  { dir: join(REPO, "node_modules/@octokit"), weight: 1, depth: 5, accept: codeExt([".js", ".ts"]) },
  ...pythonRoots(),
  {
    dir: "/usr/share/doc/git/contrib",
    weight: 2,
    depth: 4,
    accept: (name) => name === "Makefile" || codeExt([".go", ".sh"])(name),
  },
];

function langOf(name: string): Lang | undefined {
  if (name === "Makefile") return "make";
  if (name.endsWith(".ts") || name.endsWith(".mts")) return "ts";
  const ext = extname(name);
  if (ext === ".js" || ext === ".mjs" || ext === ".cjs") return "js";
  if (ext === ".py") return "py";
  if (ext === ".go") return "go";
  if (ext === ".yml" || ext === ".yaml") return "yaml";
  if (ext === ".sh") return "sh";
  return undefined;
}

function walk(dir: string, depth: number, accept: (name: string) => boolean, out: string[]): void {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of entries) {
    const full = join(dir, name);
    let isDir: boolean;
    try {
      isDir = statSync(full).isDirectory();
    } catch {
      continue;
    }
    if (isDir) {
      if (depth > 0 && name !== "node_modules" && !name.startsWith(".")) walk(full, depth - 1, accept, out);
    } else if (accept(name)) out.push(full);
  }
}

function yamlFiles(): string[] {
  const base = join(REPO, "node_modules");
  const out: string[] = [];
  const visit = (pkg: string): void => {
    walk(join(pkg, ".github/workflows"), 0, codeExt([".yml", ".yaml"]), out);
  };
  for (const name of existsSync(base) ? readdirSync(base).sort() : []) {
    if (name.startsWith("@")) for (const inner of readdirSync(join(base, name)).sort()) visit(join(base, name, inner));
    else visit(join(base, name));
  }
  return out;
}

let listing: { readonly files: readonly string[]; readonly weight: number }[] | undefined;

function listRoots(): readonly { readonly files: readonly string[]; readonly weight: number }[] {
  if (listing !== undefined) return listing;
  listing = ROOTS.map((root) => {
    const files: string[] = [];
    walk(root.dir, root.depth, root.accept, files);
    return { files, weight: root.weight };
  });
  listing.push({ files: yamlFiles(), weight: 1 });
  listing = listing.filter((r) => r.files.length > 0);
  return listing;
}

const loaded = new Map<string, SourceFile | null>();

/** Reads a candidate, or null when it is not a usable source (too short or long, minified, binary). */
function load(origin: string): SourceFile | null {
  const cachedFile = loaded.get(origin);
  if (cachedFile !== undefined) return cachedFile;
  let result: SourceFile | null = null;
  const lang = langOf(basename(origin));
  try {
    const text = readFileSync(origin, "utf8").replace(/^\uFEFF/, "");
    const lines = text.split("\n");
    const usable =
      lang !== undefined &&
      !text.includes("\0") &&
      !text.includes("\r") &&
      !text.includes("\uFFFD") &&
      lines.length >= MIN_LINES &&
      lines.length <= MAX_LINES &&
      lines.every((l) => l.length <= MAX_LINE_LENGTH);
    if (usable) {
      const rel = relative(REPO, origin);
      const path = rel.startsWith("..") ? origin.replace(/^\/(usr\/)?/, "") : rel.replace(/^node_modules\//, "vendor/");
      result = { origin, path, lang, raw: text };
    }
  } catch {
    result = null;
  }
  loaded.set(origin, result);
  return result;
}

/** A source picked by the seeded generator: a root by weight, then a file in it; unusable files are skipped. */
export function pickSource(rng: Random): SourceFile {
  const roots = listRoots();
  if (roots.length === 0) throw new Error("drift harness: no source files found (is node_modules installed?)");
  const total = roots.reduce((s, r) => s + r.weight, 0);
  for (let attempt = 0; attempt < 200; attempt++) {
    let x = rng.next() * total;
    let root = roots[0]!;
    for (const r of roots) {
      x -= r.weight;
      if (x < 0) {
        root = r;
        break;
      }
    }
    const file = load(rng.pick(root.files));
    if (file !== null) return file;
  }
  throw new Error("drift harness: no usable source file found in 200 attempts");
}

/** Picks the conventions a case's file gets; `force` for the CRLF and trailing-whitespace faults. */
export function pickVariant(
  rng: Random,
  source: SourceFile,
  force: { readonly crlf: boolean; readonly trailing: boolean },
): Variant {
  const spaces = detectUnit(source.raw.split("\n")).kind === "spaces";
  return {
    crlf: force.crlf || rng.chance(0.08),
    finalNewline: !rng.chance(0.1),
    tabified: (source.lang === "ts" || source.lang === "js") && spaces && rng.chance(0.12),
    bom: rng.chance(0.03),
    trailing: force.trailing || rng.chance(0.05) ? rng.int(1, 1_000_000) : undefined,
  };
}

/** Whole indentation levels become tabs; what is left (alignment spaces, e.g. JSDoc ` * `) stays spaces. */
function tabify(lines: readonly string[]): string[] {
  const unit = detectUnit(lines);
  if (unit.kind !== "spaces") return [...lines];
  return lines.map((line) => {
    const ws = leadingWs(line);
    if (ws.includes("\t") || ws.length === 0) return line;
    const levels = Math.floor(ws.length / unit.width);
    return "\t".repeat(levels) + " ".repeat(ws.length - levels * unit.width) + line.slice(ws.length);
  });
}

/** The file's text with a variant's conventions. */
export function withVariant(source: SourceFile, variant: Variant): string {
  let lines = source.raw.split("\n");
  const hadFinal = lines[lines.length - 1] === "";
  if (hadFinal) lines.pop();
  if (variant.tabified) lines = tabify(lines);
  if (variant.trailing !== undefined) {
    const rng = createRandom(variant.trailing);
    lines = lines.map((l) => (rng.chance(0.08) ? l + rng.pick([" ", "  ", "\t", "    "]) : l));
  }
  const eol = variant.crlf ? "\r\n" : "\n";
  const body = lines.join(eol) + (variant.finalNewline ? eol : "");
  return (variant.bom ? "\uFEFF" : "") + body;
}
