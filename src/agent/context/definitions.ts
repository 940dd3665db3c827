/**
 * A light-weight definition extractor (pure, regex per line) for TS/JS, Python, Go, Rust and Java. It finds the
 * names a repository map should show; it is not a parser, and misses some forms on purpose to stay cheap.
 */

export interface Definition {
  readonly name: string;
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  /** The defining line, trimmed and capped, as the map shows it. */
  readonly signature: string;
}

type Language = "ts" | "python" | "go" | "rust" | "java";

const LANGUAGE_BY_EXTENSION: Record<string, Language> = {
  ts: "ts",
  tsx: "ts",
  mts: "ts",
  cts: "ts",
  js: "ts",
  jsx: "ts",
  mjs: "ts",
  cjs: "ts",
  py: "python",
  go: "go",
  rs: "rust",
  java: "java",
};

export function languageOf(path: string): Language | undefined {
  const ext = /\.([a-z]+)$/i.exec(path)?.[1]?.toLowerCase();
  return ext === undefined ? undefined : LANGUAGE_BY_EXTENSION[ext];
}

// Each pattern's first capture group is the defined name.
const PATTERNS: Record<Language, readonly RegExp[]> = {
  ts: [
    /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/,
    /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/,
    /^\s*(?:export\s+)?(?:declare\s+)?(?:interface|type|enum)\s+([A-Za-z_$][\w$]*)/,
    /^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=/,
    // Class members: `name(…) {`, `async name(…)`, `static name(…)`; keywords are filtered below.
    /^\s+(?:(?:public|private|protected|static|async|readonly|override|get|set)\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{]*)?\{\s*$/,
  ],
  python: [/^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/, /^\s*class\s+([A-Za-z_]\w*)/, /^([A-Z][A-Z0-9_]+)\s*(?::[^=]+)?=/],
  go: [
    /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/,
    /^type\s+([A-Za-z_]\w*)/,
    /^(?:var|const)\s+([A-Za-z_]\w*)/,
    /^\s+([A-Za-z_]\w*)\s+(?:struct|interface)\b/,
  ],
  rust: [
    /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_]\w*)/,
    /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|trait|type|union|mod)\s+([A-Za-z_]\w*)/,
    /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+(?:mut\s+)?([A-Za-z_]\w*)\s*:/,
    /^\s*macro_rules!\s*([A-Za-z_]\w*)/,
  ],
  java: [
    /^\s*(?:(?:public|private|protected|static|final|abstract|sealed|non-sealed|strictfp)\s+)*(?:class|interface|enum|record|@interface)\s+([A-Za-z_$][\w$]*)/,
    /^\s*(?:(?:public|private|protected|static|final|abstract|synchronized|native|default)\s+)+(?:<[^>]+>\s+)?[\w$<>[\],.? ]+\s+([A-Za-z_$][\w$]*)\s*\(/,
  ],
};

const KEYWORDS = new Set([
  "if",
  "for",
  "while",
  "switch",
  "catch",
  "return",
  "function",
  "constructor",
  "super",
  "new",
  "else",
  "do",
  "try",
  "with",
  "typeof",
  "await",
  "yield",
]);

const MAX_SIGNATURE = 120;
/** Longer lines are minified or generated code; they carry no useful definitions. */
const MAX_LINE = 400;

export function extractDefinitions(path: string, content: string): Definition[] {
  const language = languageOf(path);
  if (language === undefined) return [];
  const patterns = PATTERNS[language];
  const found: Definition[] = [];
  const lines = content.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length > MAX_LINE || line.trim() === "") continue;
    for (const pattern of patterns) {
      const name = pattern.exec(line)?.[1];
      if (name === undefined || KEYWORDS.has(name)) continue;
      const signature = line.trim().replace(/\s*\{\s*$/, "");
      found.push({
        name,
        path,
        line: i + 1,
        signature: signature.length > MAX_SIGNATURE ? `${signature.slice(0, MAX_SIGNATURE - 1)}…` : signature,
      });
      break;
    }
  }
  return found;
}

/** The distinct identifiers a file mentions (for "how many files reference this name"). */
export function identifiersIn(content: string): Set<string> {
  return new Set(content.match(/[A-Za-z_$][\w$]{2,}/g) ?? []);
}
