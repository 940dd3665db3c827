/** Failing tests named in a sentence (pure): a report's line, a prompt's list. */
import type { TestSummary } from "./types.js";

/** A test name past this many characters is shown by its start and end (data-driven titles run to hundreds). */
const MAX_NAME_CHARS = 100;

const shortName = (name: string): string =>
  name.length <= MAX_NAME_CHARS ? name : `${name.slice(0, MAX_NAME_CHARS - 31)}…${name.slice(-30)}`;

/** The first `most` test names, each shortened, comma-separated, with "…" when there are more. */
export function testNames(names: readonly string[], most: number): string {
  return `${names.slice(0, most).map(shortName).join(", ")}${names.length > most ? ", …" : ""}`;
}

/**
 * The names among a run's failures that are test files it could not load: none of their tests ran, so they say
 * nothing about the code as a failing test does, and are named apart from the tests that failed.
 */
export function notLoadedNames(run: TestSummary | null): ReadonlySet<string> {
  return new Set((run?.failures ?? []).flatMap((f) => (f.notRun === true ? [f.name] : [])));
}

/** `names` without those of files that could not load, and those apart. */
export function splitNotLoaded(
  names: readonly string[],
  notLoaded: ReadonlySet<string>,
): { readonly failing: readonly string[]; readonly notLoaded: readonly string[] } {
  return { failing: names.filter((n) => !notLoaded.has(n)), notLoaded: names.filter((n) => notLoaded.has(n)) };
}
