/**
 * Can the baseline run tell anything about the code (pure)? A suite that cannot start — its runner not installed,
 * a dependency missing, no test collected, a sandbox limit hit — fails for the environment, and no model can fix
 * that: the run stops before the first model call and says what to set. A missing module of the repository's own
 * (a broken relative import) is the code's fault, and the loop goes on; so is a test the runner names after the
 * sandbox ended it for its memory.
 */
import type { TestSummary } from "./types.js";
import { testStepsPassed, firstFailingTestStep } from "./verdict.js";

export interface EnvironmentProblem {
  /** What is wrong, in a sentence that names the missing piece when it can. */
  readonly why: string;
  /** The line of the output that tells it (a long run's tail may no longer show it). */
  readonly evidence?: string;
}

/** The whole line of `text` around `index`, trimmed and bounded. */
function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf("\n", index) + 1;
  const end = text.indexOf("\n", index);
  return text
    .slice(start, end === -1 ? undefined : end)
    .trim()
    .slice(0, 300);
}

interface Sign {
  readonly pattern: RegExp;
  readonly why: (match: RegExpExecArray) => string | undefined;
}

const isRelative = (specifier: string): boolean => /^[./]/.test(specifier) || /^[A-Za-z]:[\\/]/.test(specifier);

export interface RepositoryNames {
  /** Top-level Python packages and modules of the repository (a missing one of these is a code bug). */
  readonly pythonModules: ReadonlySet<string>;
  /** Submodules that could not be checked out: output naming a path inside one is the environment's fault. */
  readonly missingSubmodules?: readonly string[];
}

/** A runner's summary saying that not one test ran (every file failed to load, or none was found). */
const NO_TEST_RAN = /^\s*Tests\s+no tests\s*$|^Tests:\s+0 total\s*$/m;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function missingSubmoduleIn(tail: string, submodules: readonly string[]): string | undefined {
  return submodules.find((path) => new RegExp(`(?:^|[\\s'"/(])${escapeRegExp(path)}/`).test(tail));
}

function signs(names: RepositoryNames): readonly Sign[] {
  return [
    {
      // sh: "sh: 1: tape: not found"; bash: "bash: tape: command not found".
      pattern: /^(?:\/bin\/)?(?:sh|bash|dash)(?::\s*\d+)?:\s*(?:line \d+:\s*)?([^:\s]+):\s*(?:command )?not found\s*$/m,
      why: (m) => `the command \`${m[1] ?? "?"}\` is not installed`,
    },
    {
      pattern: /Cannot find (?:module|package) '([^']+)'/,
      why: (m) => (isRelative(m[1] ?? "") ? undefined : `the package \`${m[1] ?? "?"}\` is not installed`),
    },
    {
      pattern: /ModuleNotFoundError: No module named '([^'.]+)[^']*'/,
      why: (m) => {
        const name = m[1] ?? "";
        return names.pythonModules.has(name) ? undefined : `the Python package \`${name}\` is not installed`;
      },
    },
    {
      pattern: /^npm (?:ERR!|error) Missing script: "([^"]+)"/m,
      why: (m) => `package.json has no "${m[1] ?? "test"}" script`,
    },
    { pattern: /\bno tests ran\b|collected 0 items/, why: () => "no test was collected" },
    { pattern: /No test files found|No tests found, exiting with code 1/, why: () => "no test file was found" },
    {
      pattern: /(?:no required|cannot find) module provid(?:es|ing) package ([^\s;]+)|missing go\.sum entry/,
      why: (m) => (m[1] === undefined ? "a Go module is not downloaded" : `the Go module ${m[1]} is not downloaded`),
    },
    {
      pattern:
        /failed to (?:get|download|load) .*(?:dependency|package)|attempting to make an HTTP request, but --offline was specified/,
      why: () => "a Cargo dependency is not downloaded",
    },
  ];
}

export function environmentProblem(baseline: TestSummary, names: RepositoryNames): EnvironmentProblem | undefined {
  // Run step by step, the tests are the steps that run them: when they pass, a lint or an audit around them failing
  // is for the verdict to weigh, not a sign that the tests cannot run.
  if (baseline.passed || testStepsPassed(baseline)) return undefined;
  const tests = firstFailingTestStep(baseline);
  // The tests step's own output: a side step's missing module (a lint plugin) says nothing about the tests.
  const tail = tests?.tail ?? baseline.tail;
  // A test process killed for its memory while the runner went on and named it is a test that fails, most likely
  // the code under test growing without end (the loop a request is about); anything else stopped the whole run.
  const testOverMemory = baseline.limit?.kind === "memory" && baseline.failing.length > 0;
  if (baseline.limit !== undefined && !testOverMemory) return { why: baseline.limit.message };
  if ((tests ?? baseline).exitCode === 127) {
    const missing = signs(names)[0]!.pattern.exec(tail);
    return {
      why:
        missing?.[1] === undefined
          ? "the test command is not installed"
          : `the command \`${missing[1]}\` is not installed`,
    };
  }
  const submodule = missingSubmoduleIn(tail, names.missingSubmodules ?? []);
  if (submodule !== undefined) {
    return {
      why: `the submodule \`${submodule}\` is not checked out, and the tests read files inside it`,
      evidence: lineAt(tail, tail.indexOf(`${submodule}/`)),
    };
  }
  // A failing test that names its failures ran: whatever else it printed, the environment works. Unless no test
  // ran at all: then the "failures" are test files that could not load, and the signs below say why.
  if (baseline.failing.length > 0 && !NO_TEST_RAN.test(tail) && baseline.notRun?.all !== true) return undefined;
  const missing = missingPiece(tail, names);
  return missing === undefined ? undefined : { why: missing.why, evidence: lineAt(tail, missing.index) };
}

/** What an output says keeps the tests from running (a package or command not installed), where it says it. */
export function missingPiece(
  text: string,
  names: RepositoryNames,
): { readonly why: string; readonly index: number } | undefined {
  for (const sign of signs(names)) {
    const match = sign.pattern.exec(text);
    if (match === null) continue;
    const why = sign.why(match);
    if (why !== undefined) return { why, index: match.index };
  }
  return undefined;
}

/** The top-level Python modules of a repository, from its paths (`pkg/__init__.py`, `src/pkg/...`, `mod.py`). */
export function pythonModulesOf(paths: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const path of paths) {
    if (!path.endsWith(".py")) continue;
    const parts = path.replace(/^src\//, "").split("/");
    const first = parts[0]!;
    names.add(parts.length === 1 ? first.replace(/\.py$/, "") : first);
  }
  return names;
}
