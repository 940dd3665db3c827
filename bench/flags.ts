/** Command-line flags of `npm run bench` (pure, so that the unit tests can reach it). */

export interface Flags {
  /** Section names to run; undefined means all. */
  readonly only: readonly string[] | undefined;
  readonly json: boolean;
}

/** The flags, or a usage error in words. */
export function parseFlags(argv: readonly string[], known: readonly string[]): Flags | string {
  let only: string[] | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") json = true;
    else if (arg === "--only" || arg.startsWith("--only=")) {
      const value = arg === "--only" ? argv[++i] : arg.slice("--only=".length);
      if (value === undefined || value === "") return "--only needs a section name";
      only = [...(only ?? []), ...value.split(",")];
    } else return `unknown argument: ${arg}`;
  }
  const unknown = only?.find((name) => !known.includes(name));
  if (unknown !== undefined) return `unknown section "${unknown}" (known: ${known.join(", ")})`;
  return { only, json };
}
