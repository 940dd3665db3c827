/**
 * The words a request is about (pure): the terms the lexical ranking looks for. Identifiers are kept whole and
 * also split into their parts (`parseFlags` → parse, flags; `max_size` → max, size), words are lower-cased, and
 * the words every request has (articles, "fix", "should", "when") are dropped, as are very short ones.
 */

const STOPWORDS = new Set(
  (
    "a about above after again against all also always an and any are as at be because been before being below " +
    "between both but by can cannot could did do does doing down during each else even ever every few for from " +
    "further get gets getting give given gives go goes had has have having he her here hers him his how however i " +
    "if in into is it its itself just let like made make makes many may me might more most much must my need " +
    "needs never new no nor not now of off often on once one only or other our out over own per please same " +
    "see seems she should since so some still such than that the their them then there these they this those " +
    "though through thus to too under until up upon us use used uses using very via want wants was way we well " +
    "were what when where whether which while who whom why will with within without would yet you your " +
    // Words of bug reports and change requests that say nothing about where the code is.
    "add added adds bug bugs break breaks broken case cases change changes code correct correctly currently " +
    "describe described error errors expect expected expects fail failed failing fails fix fixed fixes fixing " +
    "instead issue issues problem properly result results return returned returns run runs support supports " +
    "test tests thing things true false null undefined work works working wrong " +
    // Folder names every project has.
    "src lib dist build " +
    // Two-letter words (two-letter terms are kept for paths: `bg`, `fs`, `io`).
    "am an as at be by do go he if in is it me my no of on or so to up us we"
  ).split(" "),
);

/** Two-letter words count for paths only (`bg` for `locale/bg/`); shorter ones not at all. */
const MIN_LENGTH = 2;
export const MIN_CONTENT_TERM = 3;
const MAX_TERMS = 24;

/**
 * A light stem (pure): plural and verb endings off, so that "ranges" finds `range.js` and "parsing" finds `parse`.
 * The ranking matches terms as substrings, so a stem too short to mislead is all it needs.
 */
export function stem(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length > 5 && lower.endsWith("ing")) return lower.slice(0, -3);
  if (lower.length > 5 && lower.endsWith("ies")) return `${lower.slice(0, -3)}y`;
  if (lower.length > 4 && lower.endsWith("ed") && !lower.endsWith("eed")) return lower.slice(0, -2);
  if (lower.length > 4 && /(?:ss|us|is)$/.test(lower)) return lower;
  if (lower.length > 4 && lower.endsWith("es") && /(?:x|ch|sh)es$/.test(lower)) return lower.slice(0, -2);
  if (lower.length > 3 && lower.endsWith("s")) return lower.slice(0, -1);
  // "parse" as "pars" finds parse, parser, parsing.
  if (lower.length > 4 && lower.endsWith("e") && !lower.endsWith("ee")) return lower.slice(0, -1);
  return lower;
}

/** The parts of an identifier: camelCase, PascalCase, snake_case, kebab-case, dotted. */
export function splitIdentifier(word: string): string[] {
  return word
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[\s_.\-$/]+/)
    .filter((part) => part !== "");
}

/** Words of the text that can locate code, most specific first (whole identifiers before their parts). */
export function queryTerms(text: string): string[] {
  // Trailers, addresses and links name people and places, not code.
  const prose = text
    .replace(/^[\w-]+-by:.*$/gim, "")
    .replace(/\S+@\S+\.\w+/g, " ")
    .replace(/\bhttps?:\/\/\S+/g, " ");
  const terms: string[] = [];
  const add = (term: string, original = term): void => {
    const lower = term.toLowerCase();
    if (lower.length < MIN_LENGTH || STOPWORDS.has(lower) || STOPWORDS.has(original.toLowerCase())) return;
    if (/^\d+$/.test(lower) || terms.includes(lower)) return;
    terms.push(lower);
  };
  // A file name (`parser.ts`) is found by its path (namedPaths), not by its words.
  const fileName = (w: string): boolean => /\.(?:[cm]?[jt]sx?|py|go|rs|java|rb|php|md|json|ya?ml|toml)$/i.test(w);
  const words = (prose.match(/[A-Za-z_$][\w$]*(?:[.-][A-Za-z_$][\w$]*)*/g) ?? []).filter((w) => !fileName(w));
  // Identifier-shaped words first: they name code (camelCase, snake_case, dotted, called as `name()`, quoted).
  const called = new Set([...prose.matchAll(/([A-Za-z_$][\w$]*)\(\)?|`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1] ?? m[2]));
  const shaped = words.filter((w) => /[a-z][A-Z]|_|[.-]\w/.test(w) || called.has(w));
  for (const word of shaped) {
    const whole = word.replace(/^[.-]+|[.-]+$/g, "");
    add(whole);
    // The names a dotted one joins (`numeric_range.__reversed__`): the code declares each on its own.
    for (const name of whole.split(".")) if (name !== whole && /[a-z][A-Z]|_/.test(name)) add(name);
  }
  for (const word of [...shaped, ...words]) for (const part of splitIdentifier(word)) add(stem(part), part);
  return terms.slice(0, MAX_TERMS);
}

/** The tokens of a path, for matching terms against file and folder names. */
export function pathTokens(path: string): Set<string> {
  const tokens = new Set<string>();
  for (const segment of path.split("/")) {
    const bare = segment.replace(/\.[A-Za-z0-9]+$/, "");
    tokens.add(bare.toLowerCase());
    for (const part of splitIdentifier(bare)) tokens.add(part.toLowerCase());
  }
  return tokens;
}
