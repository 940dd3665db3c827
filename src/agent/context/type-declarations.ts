/**
 * A request about a package's published types ("fix(types): …", "the typings of x are wrong", "index.d.ts") is
 * about its declaration files, which need not share a word with it: a hand-written `index.d.ts` declares
 * `dequal(foo, bar)` and says nothing of types or typings (pure).
 */

/**
 * A conventional commit's `types` scope, or words that name declarations: typings, `d.ts`, type definitions or
 * declarations, declaration files. Not "types" alone: "all types of input" is about values.
 */
const ABOUT_TYPES =
  /^\s*\w+\((?:types?|typings?|dts|typescript)\)!?:|\b(?:typings?|d\.ts|type[ -](?:definitions?|declarations?|defs)|declaration files?)\b/im;

export const aboutTypes = (text: string): boolean => ABOUT_TYPES.test(text);

/** A TypeScript declaration file: `index.d.ts`, `types.d.mts`. */
export const DECLARATION = /\.d\.[cm]?ts$/;
/** Top-level declaration files shown when no manifest names one. */
const MAX_TOP_LEVEL = 3;

/** Every string under a `types` or `typings` key of a manifest's value, however deeply nested (`exports`). */
function typesEntries(value: unknown, underTypes = false): string[] {
  if (typeof value === "string") return underTypes ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => typesEntries(v, underTypes));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => typesEntries(v, underTypes || k === "types" || k === "typings"));
}

/**
 * The declaration files of the repository's package: those its `package.json` names (`types`, `typings`, the
 * `types` conditions of `exports`) that the repository holds, else its top-level `*.d.ts` files. None when the
 * types are built from sources (then the sources are where a fix goes).
 */
export function declarationFiles(paths: readonly string[], manifest: string | undefined): string[] {
  const held = new Set(paths);
  let named: string[] = [];
  try {
    named = typesEntries(JSON.parse(manifest ?? "null") as unknown)
      .map((p) => p.replace(/^\.\//, ""))
      .filter((p) => DECLARATION.test(p) && held.has(p));
  } catch {
    // A manifest that does not parse names nothing.
  }
  if (named.length > 0) return [...new Set(named)];
  return paths.filter((p) => !p.includes("/") && DECLARATION.test(p)).slice(0, MAX_TOP_LEVEL);
}
