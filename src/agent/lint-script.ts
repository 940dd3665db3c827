/**
 * The lint a project keeps beside its tests (pure): a project whose CI runs `npm run lint` on its own rejects a
 * commit whose tests pass but whose code its linter does not. Such a script runs after the tests as one more step,
 * judged as a lint in `pretest` is (one that fails already fails as before; what the change adds counts), unless the
 * test run already lints (followed through the scripts it calls, as chained-script.ts follows a test runner), or
 * the script or the scripts npm runs around it write files (`--fix`, `--write`): a check must not change the tree
 * it checks.
 */
import { scriptReaches, testRunReaches } from "./chained-script.js";

/** The names projects give a script that lints their code, most common first. */
const LINT_NAMES = [
  "lint",
  "lint:js",
  "lint:ts",
  "lint:code",
  "lint:src",
  "lint:check",
  "check:lint",
  "eslint",
] as const;

/**
 * A command that lints: ESLint (itself, or through `next lint` and `ng lint`), XO, standard, oxlint, TSLint,
 * Stylelint, Biome's checks, Prettier asked to check. Not `vue-cli-service lint`, which fixes what it finds.
 */
const LINTS =
  /(?:^|[\s/&;|(])(?:eslint|xo|standard|semistandard|oxlint|tslint|stylelint|(?:next|ng)\s+lint|biome\s+(?:lint|check|ci)|prettier\b[^;&|]*\s(?:--check|-c|--list-different|-l))(?=\s|$|[;&|)])/;

/** A command that writes what it checks: a linter's `--fix`, a formatter's `--write`, Biome's `--apply`. */
const WRITES = /\s(?:--fix|--write|-w|--apply|--apply-unsafe)(?=\s|$|[;&|)=])|\bbiome\s+format\b/;

/**
 * The name of the script that lints the project, when `npm test` (with its `pretest` and `posttest`) does not
 * already and neither it nor what npm runs around it (`prelint`, `postlint`) writes files.
 */
export function lintScript(scripts: Readonly<Record<string, string>>): string | undefined {
  if (testRunReaches(scripts, LINTS)) return undefined;
  const name = LINT_NAMES.find((candidate) => scriptReaches(candidate, scripts, LINTS));
  const writes = (around: string): boolean => scriptReaches(around, scripts, WRITES);
  if (name === undefined || [name, `pre${name}`, `post${name}`].some(writes)) return undefined;
  return name;
}
