/**
 * npm-run-all's commands (`run-s`, `run-p`, `npm-run-all`) read as the package scripts they run (pure), so a test
 * script such as `run-p --aggregate-output test:*` can run as its steps: run together, a lint failing stops the
 * others (or, aggregated, hides the tests' output until they end), and a test that hangs takes every result with
 * it. Patterns follow npm-run-all's: `*` matches within one `:`-separated segment, `**` across them, in the order
 * package.json lists its scripts (picomatch, `:` read as `/`).
 */
import picomatch from "picomatch";

/**
 * Options that change nothing about which scripts run, or only how their output is shown. `--race` is not one: it
 * runs a server beside the tests and ends it when they end, which one after the other would wait on for ever.
 */
const HARMLESS = new Set([
  "-p",
  "--parallel",
  "-s",
  "--sequential",
  "--serial",
  "-c",
  "--continue-on-error",
  "-l",
  "--print-label",
  "-n",
  "--print-name",
  "--aggregate-output",
  "--silent",
]);
/** Options that take a value. */
const WITH_VALUE = new Set(["--max-parallel", "--npm-path"]);

/** Which script names a pattern matches: its `:` segments read as path segments (npm-run-all does so with minimatch). */
const matcherOf = (pattern: string): ((name: string) => boolean) => {
  const test = picomatch(pattern.replaceAll(":", "/"));
  return (name) => test(name.replaceAll(":", "/"));
};

/**
 * The scripts an npm-run-all command runs, in order; undefined when `command` is none, or holds anything whose
 * effect a split could change (arguments passed on with `--`, quotes, an option not known to be harmless), or a
 * pattern that names no script.
 */
export function npmRunAllScripts(command: string, scripts: Readonly<Record<string, string>>): string[] | undefined {
  const words = command.trim().split(/\s+/);
  const [tool, ...args] = words;
  if (tool !== "run-s" && tool !== "run-p" && tool !== "npm-run-all") return undefined;
  const names = Object.keys(scripts);
  const picked: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (WITH_VALUE.has(arg)) {
      i++;
      continue;
    }
    if (HARMLESS.has(arg)) continue;
    if (arg.startsWith("-") || /["'`$\\]/.test(arg)) return undefined;
    const matching = arg.includes("*") ? names.filter(matcherOf(arg)) : [arg];
    if (matching.length === 0 || matching.some((name) => scripts[name] === undefined)) return undefined;
    for (const name of matching) if (!picked.includes(name)) picked.push(name);
  }
  return picked.length > 0 ? picked : undefined;
}

/** pnpm's `pnpm run "/^test:/"` (or without `run`): the script names its regular expression matches. */
const PNPM_PATTERN = /^pnpm\s+(?:run\s+)?(["'])\/(.+)\/\1$/;

/**
 * The scripts a command runs by a pattern, in package.json's order: npm-run-all's (above) or pnpm's regular
 * expression; undefined when it is neither, or names no script.
 */
export function patternScripts(command: string, scripts: Readonly<Record<string, string>>): string[] | undefined {
  const fromNpmRunAll = npmRunAllScripts(command, scripts);
  if (fromNpmRunAll !== undefined) return fromNpmRunAll;
  const source = PNPM_PATTERN.exec(command.trim())?.[2];
  if (source === undefined) return undefined;
  let pattern: RegExp;
  try {
    pattern = new RegExp(source);
  } catch {
    return undefined;
  }
  const names = Object.keys(scripts).filter((name) => pattern.test(name));
  return names.length > 0 ? names : undefined;
}
