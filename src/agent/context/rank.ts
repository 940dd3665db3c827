/**
 * The first stage of the context, run while set-up and the baseline tests run: what the request names and points
 * at (paths, stack traces), the lexical ranking of the code (term counts from `git grep`, no file read for it), a
 * sample of sources for the repository map and the import graph, and from those the files most likely to matter.
 */
import { rankFiles } from "./bm25.js";
import { extractDefinitions } from "./definitions.js";
import { isTestPath } from "../test-paths.js";
import { isCodePath, MAX_MAP_FILE_BYTES, mapSources, namedPaths } from "./files.js";
import type { ContextInput } from "./types.js";
import { goModuleOf, importsOf, type ImportContext } from "./imports.js";
import { relevance, type Relevance } from "./relevance.js";
import { MIN_CONTENT_TERM, queryTerms, stem } from "./terms.js";
import { createPathResolver, mentionedLocations, type Location } from "./traces.js";
import { aboutTypes, declarationFiles } from "./type-declarations.js";

export interface Ranking {
  readonly input: ContextInput;
  readonly terms: readonly string[];
  readonly named: readonly string[];
  /** The package's declaration files, when the request is about its types (type-declarations.ts). */
  readonly declarations: readonly string[];
  readonly traced: readonly Location[];
  readonly relevance: Relevance;
  /** Contents read so far (the map's sample), reused when selecting. */
  readonly contents: ReadonlyMap<string, string>;
  readonly imports: ImportContext;
  readonly resolve: (raw: string) => string | undefined;
}

const dirOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf("/")));

/** Past the map's size, modules up to this size are read for their definitions, the most matching few of them. */
const MAX_DEFINITION_FILE_BYTES = 1_000_000;
const MAX_BIG_FILES = 8;

/** What a file defines, by name and by stem, as the request's words are stemmed ("style()" → style, styl). */
function definedNames(path: string, content: string): Set<string> {
  const names = extractDefinitions(path, content).map((d) => d.name);
  return new Set(names.flatMap((name) => [name.toLowerCase(), stem(name)]));
}

export async function rankContext(input: ContextInput): Promise<Ranking> {
  const text = `${input.instruction}\n${input.extra ?? ""}`;
  const named = namedPaths(text, input.paths);
  const resolve = createPathResolver(input.paths);
  const traced = mentionedLocations(text, resolve);
  const terms = queryTerms(text);
  // Short terms match names only: as text they would be everywhere.
  const contentTerms = terms.filter((t) => t.length >= MIN_CONTENT_TERM);
  const [counts, sizes] = await Promise.all([
    contentTerms.length > 0
      ? input.termCounts(contentTerms)
      : Promise.resolve(new Map<string, ReadonlyMap<string, number>>()),
    input.sizes(),
  ]);
  const near = new Set([...named, ...traced.map((t) => t.path), ...(input.focus ? [input.focus.path] : [])].map(dirOf));
  const sample = mapSources(input.paths, near).filter((p) => (sizes.get(p) ?? 0) <= MAX_MAP_FILE_BYTES);
  const goMod = input.paths.includes("go.mod") ? ["go.mod"] : [];
  const declarations = aboutTypes(text)
    ? declarationFiles(input.paths, (await input.read(["package.json"])).get("package.json"))
    : [];
  const contents = new Map(await input.read([...new Set([...sample, ...goMod])]));
  const definitions = new Map<string, Set<string>>();
  for (const [path, content] of contents) definitions.set(path, definedNames(path, content));
  // Modules too big for the map still count by what they define: a code base's largest module is often the one
  // that defines the class a request names (pyparsing's core.py, bottle.py).
  const big = input.paths
    .filter((p) => isCodePath(p) && !contents.has(p) && counts.has(p))
    .filter((p) => (sizes.get(p) ?? 0) > MAX_MAP_FILE_BYTES && (sizes.get(p) ?? 0) <= MAX_DEFINITION_FILE_BYTES)
    .sort((a, b) => (counts.get(b)?.size ?? 0) - (counts.get(a)?.size ?? 0) || a.localeCompare(b))
    .slice(0, MAX_BIG_FILES);
  for (const [path, content] of await input.read(big)) definitions.set(path, definedNames(path, content));
  const known = new Set(input.paths);
  const goModule = goModuleOf(contents.get("go.mod"));
  const imports: ImportContext = {
    exists: (p) => known.has(p),
    paths: input.paths,
    ...(goModule === undefined ? {} : { goModule }),
  };
  const graph = new Map<string, string[]>();
  for (const [path, content] of contents) graph.set(path, importsOf(path, content, imports));
  const codePaths = input.paths.filter(isCodePath);
  const ranked = rankFiles({ paths: codePaths, terms, counts, sizes, definitions, collection: input.paths.length });
  return {
    input,
    terms,
    named,
    declarations,
    traced,
    relevance: relevance({ ranked, imports: graph, codePaths, isTest: isTestPath }),
    contents,
    imports,
    resolve,
  };
}
