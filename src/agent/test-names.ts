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

/** A pair of lists: `names` that failed as tests, and those that are test files the run could not load. */
export interface SplitNames {
  readonly failing: readonly string[];
  readonly notLoaded: readonly string[];
}

/**
 * `names` split by what `run`'s failures say of each: a test file it could not load (none of its tests ran, so it
 * says nothing about the code as a failing test does) is named apart from the tests that failed.
 */
export function splitNotLoaded(names: readonly string[], run: TestSummary | null): SplitNames {
  const notLoaded = new Set((run?.failures ?? []).flatMap((f) => (f.notRun === true ? [f.name] : [])));
  return { failing: names.filter((n) => !notLoaded.has(n)), notLoaded: names.filter((n) => notLoaded.has(n)) };
}
