/**
 * Do the tests import the repository's own Python package from the clone? A package under `src/` is importable
 * only once installed. The detected set-up installs it editable, from the clone; without set-up (`--no-setup`), or
 * with one that installs a copy, the tests import whatever copy the interpreter finds (the host's site-packages),
 * and no change to the clone can show in them: every attempt would be "no worse" and committed untested.
 */
import { shellQuote } from "./shell-quote.js";

/** At most this many packages are looked up: a repository has one or two. */
const MOST = 3;

/** The packages of a src layout (`src/name/__init__.py`). */
export function srcPackages(paths: readonly string[]): string[] {
  const names = new Set<string>();
  for (const path of paths) {
    const name = /^src\/([A-Za-z_]\w*)\/__init__\.py$/.exec(path)?.[1];
    if (name !== undefined) names.add(name);
  }
  return [...names].sort().slice(0, MOST);
}

/** The files where a repository puts its own folders on the import path for its tests. */
export const pathSettingFiles = (paths: readonly string[]): string[] =>
  paths.filter((p) => /(^|\/)conftest\.py$/.test(p) || /^(pyproject\.toml|pytest\.ini|setup\.cfg|tox\.ini)$/.test(p));

/**
 * Whether the repository puts folders on the import path itself, for pytest (`pythonpath =` in its configuration,
 * `sys.path` changed in a `conftest.py`): a lookup outside pytest would not see what the tests see, so none is made.
 */
export const setsImportPath = (texts: Iterable<string>): boolean =>
  [...texts].some((text) => /^\s*pythonpath\s*=/m.test(text) || /\bsys\.path\b/.test(text));

/** Test commands that run Python in the run's environment (not through tox or nox, which make their own). */
export const runsPythonDirectly = (command: string): boolean =>
  /^(?:\S*\/)?(?:python3?(?:\.\d+)?\s+-m\s+(?:pytest|unittest)|py\.?test)(?:\s|$)/.test(command.trim());

/** A command printing, per package, the file it would be imported from ("-" when it cannot be): nothing is run. */
export const originProbe = (names: readonly string[]): string =>
  `python3 -c ${shellQuote(
    [
      "import importlib.util as u",
      `for n in ${JSON.stringify(names)}:`,
      "    s = u.find_spec(n)",
      '    print(n, s.origin if s is not None and s.origin else "-")',
    ].join("\n"),
  )}`;

/** Why the tests do not import the repository's package from the clone at `root`, if they do not. */
export function foreignOrigin(output: string, names: readonly string[], root: string): string | undefined {
  for (const line of output.split("\n")) {
    const match = /^(\S+) (.+)$/.exec(line.trim());
    if (match === null || !names.includes(match[1]!)) continue;
    const [, name, origin] = match as unknown as [string, string, string];
    if (origin === "-") {
      return `the repository's package \`${name}\` (src/${name}/) cannot be imported: it is importable only once installed`;
    }
    if (!origin.startsWith(`${root}/src/${name}/`)) {
      return `they import the repository's package \`${name}\` from ${origin}, not from the clone's src/${name}/, so no change to the clone can show in them`;
    }
  }
  return undefined;
}
