/**
 * A test script that chains other checks around the test runner (`xo && c8 ava && tsd`), read as its parts (pure).
 * The shell stops at the first part that fails, so a lint failing on lines nobody touched hides every test result,
 * before and after a change alike; run part by part, the tests run whatever the lint says, and each part is judged
 * on its own.
 */

/** Test runners, as a word of the part that runs them (`c8 ava`, `NODE_ENV=test mocha`, `node --test`). */
const RUNNER =
  /(?:^|[\s/])(?:ava|jest|mocha|vitest|tap|tape|uvu|jasmine|karma|playwright|cypress|qunit|borp|lab|zora|node\s+--test)(?=\s|$)/;

/**
 * The parts of a shell command joined by `&&` at its top level, trimmed; undefined when it is one part, or when
 * its top level has anything else that sequences commands (`||`, `;`, `&`, a newline), whose meaning a split would
 * change. Quotes, escapes, `$(…)`, backquotes and parentheses are kept whole.
 */
export function andParts(command: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let quote: "'" | '"' | "`" | undefined;
  let start = 0;
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
    else if (c === "&" && command[i + 1] === "&") {
      parts.push(command.slice(start, i).trim());
      start = i + 2;
      i++;
    } else if (c === "&" || c === ";" || c === "\n" || (c === "|" && command[i + 1] === "|")) return undefined;
  }
  if (quote !== undefined) return undefined;
  parts.push(command.slice(start).trim());
  return parts.length > 1 && parts.every((p) => p !== "") ? parts : undefined;
}

/**
 * A part that changes the shell the later parts run in (`cd packages/core`, `export CI=1`, a bare assignment): run
 * apart, the later parts would run elsewhere.
 */
const SETS_STATE =
  /^(?:(?:cd|pushd|popd|export|source|\.|set|unset|ulimit|umask|alias|shopt)(?:\s|$)|[A-Za-z_]\w*=\S*\s*$)/;

/**
 * The parts of a test script and which one runs the tests, when exactly one part runs a known test runner and no
 * part changes the shell the others run in.
 */
export function chainedTestScript(script: string): { parts: string[]; main: number } | undefined {
  const parts = andParts(script);
  if (parts === undefined || parts.some((part) => SETS_STATE.test(part))) return undefined;
  const runners = parts.flatMap((part, i) => (RUNNER.test(part) ? [i] : []));
  return runners.length === 1 ? { parts, main: runners[0]! } : undefined;
}

/** A single-quoted shell word. */
export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
