/**
 * A test script that chains other checks around the test runner (`xo && c8 ava && tsd`), read as its parts (pure).
 * The shell stops at the first part that fails, so a lint failing on lines nobody touched hides every test result,
 * before and after a change alike; run part by part, the tests run whatever the lint says, and each part is judged
 * on its own.
 */
import { npmRunAllScripts, patternScripts } from "./npm-run-all.js";
import { shellQuote } from "./shell-quote.js";

/**
 * Test runners, as a word of the part that runs them (`c8 ava`, `NODE_ENV=test mocha`, `tsx --test`), or Node
 * running a test script of the project's own (`nyc node test.js`, `node test/index.mjs`).
 */
export const TEST_RUNNER =
  /(?:^|[\s/])(?:ava|jest|mocha|vitest|tap|tape|uvu|jasmine|karma|playwright|cypress|qunit|borp|lab|zora|(?:node|tsx)\s+--test|node\s+(?:\.\/)?(?:tests?|spec)(?:\.[cm]?js|\/\S*)?)(?=\s|$)/;

/** A command-sequencing operator at a shell command's top level, and where it starts. */
interface TopLevelOperator {
  readonly at: number;
  readonly op: "&&" | "||" | ";" | "&" | "\n" | "|";
}

/**
 * The operators that sequence commands at a command's top level, in order; undefined when a quote is left open.
 * Quotes, escapes, `$(…)`, backquotes and parentheses are kept whole. A pipe `|` is one only when `pipes` is set
 * (it binds tighter than the others, so a part joined by `&&` may hold one).
 */
function topLevelOperators(command: string, pipes = false): TopLevelOperator[] | undefined {
  const found: TopLevelOperator[] = [];
  let depth = 0;
  let quote: "'" | '"' | "`" | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote !== undefined) {
      if (c === "\\" && quote !== "'") i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "\\") i++;
    else if (c === "'" || c === '"' || c === "`") quote = c;
    else if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (depth > 0) continue;
    else if ((c === "&" || c === "|") && command[i + 1] === c) {
      found.push({ at: i, op: c === "&" ? "&&" : "||" });
      i++;
    } else if (c === "&" && (command[i - 1] === ">" || command[i - 1] === "<" || command[i + 1] === ">")) {
      continue; // a redirection: `2>&1`, `&> log`
    } else if (c === "&" || c === ";" || c === "\n") found.push({ at: i, op: c });
    else if (c === "|" && pipes && command[i + 1] !== "&") found.push({ at: i, op: "|" });
  }
  return quote === undefined ? found : undefined;
}

/**
 * The parts of a shell command joined by `&&` at its top level, trimmed; undefined when it is one part, or when
 * its top level has anything else that sequences commands (`||`, `;`, `&`, a newline), whose meaning a split would
 * change.
 */
export function andParts(command: string): string[] | undefined {
  const operators = topLevelOperators(command);
  if (operators === undefined || operators.length === 0 || operators.some((o) => o.op !== "&&")) return undefined;
  const parts = [...operators, { at: command.length }].map((o, k) =>
    command.slice(k === 0 ? 0 : operators[k - 1]!.at + 2, o.at).trim(),
  );
  return parts.every((p) => p !== "") ? parts : undefined;
}

/** What only turns a failure into success: `true`, `:`, `exit 0`, an `echo`. */
const SWALLOWER = /^(?:true|:|exit\s+0|echo(?:\s.*)?)$/s;
/** `tee` writing to files: it exits 0 whatever came through the pipe. */
const TEE = /^tee(?:\s+-a)?(?:\s+[\w./-]+)*$/;

/**
 * The command before a trailing ending that makes the script exit 0 whatever its tests say, so that the command
 * before it tells whether they pass: `|| true` (or `|| exit 0`, `|| :`, `|| echo …`, or any of them after `;`), or
 * a pipe into `tee` (`mocha 2>&1 | tee test.log`: a pipeline exits with its last command's status, sh has no
 * pipefail, and tee only copies what the run keeps anyway). Undefined when there is no such ending, or when
 * something other than `&&` (or a pipe) sequences what comes before it.
 */
export function swallowedCommand(script: string): string | undefined {
  const command = script.trim().replace(/;$/, "");
  const operators = topLevelOperators(command, true);
  const last = operators?.[operators.length - 1];
  if (operators === undefined || last === undefined) return undefined;
  // A pipe binds tighter than `&&`: a part before the ending may hold one.
  if (operators.slice(0, -1).some((o) => o.op !== "&&" && o.op !== "|")) return undefined;
  const body = command.slice(0, last.at).trim();
  const ending = command.slice(last.at + last.op.length).trim();
  const swallows = last.op === "|" ? TEE.test(ending) : (last.op === "||" || last.op === ";") && SWALLOWER.test(ending);
  return body !== "" && swallows ? body : undefined;
}

/**
 * A part that changes the shell the later parts run in (`cd packages/core`, `export CI=1`, a bare assignment): run
 * apart, the later parts would run elsewhere.
 */
const SETS_STATE =
  /^(?:(?:cd|pushd|popd|export|source|\.|set|unset|ulimit|umask|alias|shopt)(?:\s|$)|[A-Za-z_]\w*=\S*\s*$)/;

/** `npm run name` (or `npm run-script name`), alone: a part that runs another script of the package. */
const NPM_RUN = /^npm\s+(?:run|run-script)\s+([\w:.@/-]+)$/;
/**
 * The same through Yarn or pnpm, which also run a script named after them alone (`yarn test:build`), with flags
 * that take no value around the name (`npm run --silent lint`, `yarn -s test:unit`, `npm run lint --if-present`).
 */
const SCRIPT_RUN =
  /^(?:npm\s+(?:run|run-script)|yarn(?:\s+run)?|pnpm(?:\s+run)?)(?:\s+--?[a-z][\w-]*)*\s+([\w:.@/-]+)(?:\s+--?[a-z][\w-]*)*$/;
/** Variables set for one command only: `cross-env TZ=UTC `, `env CI=1 `, `NODE_ENV=test `. */
const COMMAND_ENV = /^(?:(?:cross-env|env)\s+)?(?:[A-Za-z_]\w*=\S*\s+)*/;

/**
 * Whether a part runs a command `pattern` matches, itself or through the package's scripts it names (a few levels
 * down, npm-run-all's and pnpm's patterns too).
 */
function reaches(part: string, scripts: Readonly<Record<string, string>>, pattern: RegExp, depth: number): boolean {
  if (pattern.test(part)) return true;
  if (depth >= 3) return false;
  const command = part.replace(COMMAND_ENV, "");
  const named = SCRIPT_RUN.exec(command)?.[1];
  const script = named === undefined ? undefined : scripts[named];
  const bodies = script === undefined ? (patternScripts(command, scripts) ?? []).map((n) => scripts[n]!) : [script];
  return bodies.some((body) => bodyReaches(body, scripts, pattern, depth + 1));
}

/** Whether a script's body runs a command `pattern` matches, in one of its parts or the scripts they name. */
export function bodyReaches(
  body: string,
  scripts: Readonly<Record<string, string>>,
  pattern: RegExp,
  depth = 0,
): boolean {
  return (andParts(body) ?? [body]).some((part) => reaches(part, scripts, pattern, depth));
}

/** Whether the package's script `name` runs a command `pattern` matches (`bodyReaches`); false when it has none. */
export const scriptReaches = (name: string, scripts: Readonly<Record<string, string>>, pattern: RegExp): boolean =>
  scripts[name] !== undefined && bodyReaches(scripts[name], scripts, pattern);

/** Whether `npm test`, with its `pretest` and `posttest`, runs a command `pattern` matches. */
export const testRunReaches = (scripts: Readonly<Record<string, string>>, pattern: RegExp): boolean =>
  ["pretest", "test", "posttest"].some((name) => scriptReaches(name, scripts, pattern));

/** Whether a part runs a test runner, itself or through the package's scripts it names. */
const runsTests = (part: string, scripts: Readonly<Record<string, string>>): boolean =>
  reaches(part, scripts, TEST_RUNNER, 0);

/**
 * The parts of a test script and which of them run tests (a known test runner, itself or through a script it
 * names; a script may run its runner more than once, per time zone or per configuration), when one does and no
 * part changes the shell the others run in. The other parts are judged as the steps around the tests are.
 */
export function chainedTestScript(
  script: string,
  scripts: Readonly<Record<string, string>> = {},
): { parts: string[]; tests: number[] } | undefined {
  // npm-run-all's commands (`run-p test:*`) run as the scripts they name, each a part of its own.
  const parts = (andParts(script) ?? [script.trim()]).flatMap(
    (part) => npmRunAllScripts(part, scripts)?.map((name) => `npm run ${name}`) ?? [part],
  );
  if (parts.length < 2 || parts.some((part) => SETS_STATE.test(part))) return undefined;
  const tests = parts.flatMap((part, i) => (runsTests(part, scripts) ? [i] : []));
  return tests.length === 0 ? undefined : { parts, tests };
}

/** How a part runs as npm would run it: `npm run name` as it is, anything else in npm's shell and PATH. */
export const partCommand = (part: string): string => (NPM_RUN.test(part) ? part : `npm exec -c ${shellQuote(part)}`);
