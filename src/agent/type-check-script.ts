/**
 * The type check a TypeScript project keeps beside its tests (pure): Vitest, Jest with Babel or SWC, tsx and
 * node's type stripping run TypeScript without checking its types, so a change whose types are wrong passes the
 * tests and fails the project's CI, which runs `tsc` on its own (`"typecheck": "tsc --noEmit"`). Such a script
 * runs after the tests as one more step, judged as a lint step is, unless the test run already checks types.
 */
import { npmRunAllScripts } from "./npm-run-all.js";

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

/** `npm run x`, `pnpm run x`, `pnpm x`, `yarn x`, `yarn run x`, `bun run x`: the script a command part runs. */
const RUN_SCRIPT = /(?:^|[\s&;|(])(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?(?:--\S+\s+)*([\w:.-]+)/g;

/** How deep scripts calling scripts are followed: test → check → check:type → check:type:ts. */
const MAX_DEPTH = 4;

/** pnpm's `pnpm run "/^test:/"`: every script whose name the regular expression matches. */
const PNPM_PATTERN = /pnpm\s+(?:run\s+)?(["'])\/(.+?)\/\1/g;

/** The scripts `body` runs by name: `npm run x` and the like, pnpm's and npm-run-all's patterns. */
function calledScripts(body: string, scripts: Readonly<Record<string, string>>): string[] {
  const called = [...body.matchAll(RUN_SCRIPT)].map((m) => m[1]!).filter((name) => scripts[name] !== undefined);
  for (const [, , source] of body.matchAll(PNPM_PATTERN)) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(source!);
    } catch {
      continue;
    }
    called.push(...Object.keys(scripts).filter((name) => pattern.test(name)));
  }
  // npm-run-all reads one command at a time: each part between the shell's operators.
  for (const part of body.split(/&&|\|\||;|\n/)) called.push(...(npmRunAllScripts(part.trim(), scripts) ?? []));
  return called;
}

/** Whether running `roots` (script names) checks types, following the scripts they call. */
function checksTypes(roots: readonly string[], scripts: Readonly<Record<string, string>>): boolean {
  const seen = new Set<string>();
  let level = roots.filter((name) => scripts[name] !== undefined);
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const name of level) {
      if (seen.has(name)) continue;
      seen.add(name);
      const body = scripts[name]!;
      if (CHECKS_TYPES.test(body)) return true;
      next.push(...calledScripts(body, scripts));
    }
    level = next;
  }
  return false;
}

/**
 * The name of the script that checks the project's types, when `npm test` (with its `pretest` and `posttest`)
 * does not already: one of the usual names whose command checks types (a `tsc` that builds is one too: its
 * output is build output).
 */
export function typeCheckScript(scripts: Readonly<Record<string, string>>): string | undefined {
  const name = TYPE_CHECK_NAMES.find((n) => scripts[n] !== undefined && checksTypes([n], scripts));
  if (name === undefined || checksTypes(["pretest", "test", "posttest"], scripts)) return undefined;
  return name;
}
