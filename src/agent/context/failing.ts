/**
 * What the failing tests point at (pure): the places their failures name, those that share the most of the
 * request's words first, and whether a failure names what one of a test's imports takes.
 */
import type { FailureBlock } from "../failures/types.js";
import { mentionedLocations, type Location } from "./traces.js";
import { sharedWords } from "../failure-order.js";

/** Words of an import statement that name nothing imported. */
const IMPORT_WORDS = new Set(["import", "export", "from", "require", "const", "let", "var", "type", "default"]);

/**
 * Whether a failure's text names what an import statement takes: its specifier (`'../src/utils/is.js' does not
 * provide an export named …`) or one of its names (`isSameProtocol is not a function`). That source is what the
 * failure is about, whatever the request's words say.
 */
export function blamedBy(statement: string, failureText: string): boolean {
  const specifier = /['"]([^'"\n]+)['"]/.exec(statement)?.[1];
  if (specifier !== undefined && failureText.includes(specifier)) return true;
  const names = statement.replace(/['"][^'"\n]*['"]/g, " ").match(/[A-Za-z_$][\w$]{2,}/g) ?? [];
  return names.some((name) => {
    if (IMPORT_WORDS.has(name)) return false;
    const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`);
    return word.test(failureText);
  });
}

/**
 * The places the failures point at, each once (its first line), those whose failures share the most of the request's
 * words first, then in the order the runner reported them.
 */
export function rankedFailureLocations(
  failures: readonly FailureBlock[],
  resolve: (raw: string) => string | undefined,
  terms: readonly string[],
): { location: Location; score: number }[] {
  const found = new Map<string, { location: Location; score: number; order: number }>();
  for (const failure of failures) {
    const text = `${failure.name}\n${failure.text}`;
    const score = sharedWords(failure, terms);
    for (const location of mentionedLocations(text, resolve)) {
      const seen = found.get(location.path);
      if (seen === undefined) found.set(location.path, { location, score, order: found.size });
      else seen.score = Math.max(seen.score, score);
    }
  }
  return [...found.values()].sort((a, b) => b.score - a.score || a.order - b.order);
}
