/** Failing tests named in a sentence (pure): a report's line, a prompt's list. */

/** A test name past this many characters is shown by its start and end (data-driven titles run to hundreds). */
const MAX_NAME_CHARS = 100;

const shortName = (name: string): string =>
  name.length <= MAX_NAME_CHARS ? name : `${name.slice(0, MAX_NAME_CHARS - 31)}…${name.slice(-30)}`;

/** The first `most` test names, each shortened, comma-separated, with "…" when there are more. */
export function testNames(names: readonly string[], most: number): string {
  return `${names.slice(0, most).map(shortName).join(", ")}${names.length > most ? ", …" : ""}`;
}
