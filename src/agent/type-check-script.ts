/**
 * The type check a TypeScript project keeps beside its tests (pure): Vitest, Jest with Babel or SWC, tsx and
 * node's type stripping run TypeScript without checking its types, so a change whose types are wrong passes the
 * tests and fails the project's CI, which runs `tsc` on its own (`"typecheck": "tsc --noEmit"`). Such a script
 * runs after the tests as one more step, judged as a lint step is, unless the test run already checks types
 * (followed through the scripts it calls as chained-script.ts follows a test runner).
 */
import { scriptReaches, testRunReaches } from "./chained-script.js";

/** The names projects give a script that only checks types, most common first. */
const TYPE_CHECK_NAMES = [
  "typecheck",
  "type-check",
  "check-types",
  "check:types",
  "types:check",
  "check:type",
  "lint:types",
  "test:types",
  "test:typescript",
  "tsc",
] as const;

/** A command that checks TypeScript types: `tsc`, `vue-tsc`, `tsgo`, `tsd`, Vitest's `--typecheck`. */
const CHECKS_TYPES = /(?:^|[\s/&;|(])(?:vue-tsc|tsc|tsgo|tsd)(?=\s|$|[;&|)])|\s--typecheck\b/;

/**
 * The name of the script that checks the project's types, when `npm test` (with its `pretest` and `posttest`)
 * does not already: one of the usual names whose command checks types (a `tsc` that builds is one too: its
 * output is build output).
 */
export function typeCheckScript(scripts: Readonly<Record<string, string>>): string | undefined {
  if (testRunReaches(scripts, CHECKS_TYPES)) return undefined;
  return TYPE_CHECK_NAMES.find((name) => scriptReaches(name, scripts, CHECKS_TYPES));
}
