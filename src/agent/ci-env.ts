/**
 * The variables the project's own CI sets where it runs the tests (pure): a date library's suite that expects
 * `TZ: America/New_York`, a locale in `LANG`, `NODE_OPTIONS`. Its GitHub workflows say so in `env:` at the top,
 * on the job or on the step; without them the suite fails here as it would on a bare runner, the baseline is red
 * for reasons no change can fix, and every verdict is weaker.
 *
 * Only literal values count (an expression, `${{ matrix.tz }}` or a secret, has no value outside GitHub); a
 * variable that the workflows set to different values for their tests is left out (no one value is CI's); the
 * runner's own (`GITHUB_*`, `RUNNER_*`, `ACTIONS_*`), the sandbox's own (PATH, HOME, the proxy) and
 * secret-looking names are left out. The workflow may come from the pull request's head: what it sets only reaches
 * the sandboxed commands, which the same head already controls.
 */
import { parse } from "yaml";
import { isSecretEnvName } from "../core/redact.js";
import { RESERVED_NAMES } from "../ports/sandbox-runner.js";
import { TEST_RUNNER } from "./chained-script.js";

export const WORKFLOW_PATH = /^\.github\/workflows\/[^/]+\.ya?ml$/;

/**
 * Beside a JS test runner: a package manager's test script, a coverage wrapper, a Python test driver, `make test`,
 * Go's and Cargo's tests. tox and nox run whatever environment they are given; see TOX_OTHER_ENV.
 */
const OTHER_TEST_RUN =
  /\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?(?:-\S+\s+)*(?:test|t|cit|it|install-test)\b|\b(?:c8|nyc|pytest|py\.test|tox|nox)\b|\bpython[\d.]*\s+(?:-\S+\s+)*-m\s+(?:pytest|unittest)\b|\b(?:manage|setup)\.py\s+test\b|\bmake\s+(?:test|check)\b|\b(?:go|cargo)\s+test\b/;

/**
 * tox or nox told to run an environment that is neither a Python version's (`py312`, `py3.12-django`, `pypy3`) nor
 * the tests' (`tox -e mypy`, `nox -s docs`).
 */
const TOX_OTHER_ENV =
  /\b(?:tox|nox)\b.*\s(?:-e|-s|--env|--session)[\s=]+(?!(?:py(?:py)?[\d.]*(?:[-,\s]|$))|[^\s,]*test)/;

const runsTests = (run: string): boolean =>
  TEST_RUNNER.test(run) || (OTHER_TEST_RUN.test(run) && !TOX_OTHER_ENV.test(run));

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RUNNER_OWNED = /^(?:GITHUB|RUNNER|ACTIONS)_/;
/** A value GitHub computes (`${{ … }}`): unknown here. */
const EXPRESSION = /\$\{\{/;
/** Jobs on these runners are not the environment a Linux sandbox mirrors. */
const OTHER_SYSTEM = /\b(?:windows|macos)\b/i;

export interface CiEnvironment {
  /** Name → value, as CI's test steps see them. */
  readonly env: Readonly<Record<string, string>>;
  /** Name → the workflow files that set it. */
  readonly from: Readonly<Record<string, readonly string[]>>;
}

type Mapping = Record<string, unknown>;

const isMapping = (value: unknown): value is Mapping =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** An `env:` block as name → value text (undefined for an expression); anything else is no variables. */
function envBlock(value: unknown): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  if (!isMapping(value)) return out;
  for (const [name, raw] of Object.entries(value)) {
    if (!VARIABLE_NAME.test(name) || RUNNER_OWNED.test(name) || RESERVED_NAMES.has(name) || isSecretEnvName(name))
      continue;
    const text =
      typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean" ? String(raw) : undefined;
    out.set(name, text === undefined || EXPRESSION.test(text) ? undefined : text);
  }
  return out;
}

/** A workflow as data; one YAML cannot read is none (its warnings, an unknown tag, are not the service's to log). */
function parsed(text: string): Mapping | undefined {
  try {
    const doc: unknown = parse(text, { logLevel: "error" });
    return isMapping(doc) ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** Each step's whole environment (workflow, then job, then step) where a Linux job runs the tests. */
function testStepEnvironments(workflow: Mapping): Map<string, string | undefined>[] {
  const found: Map<string, string | undefined>[] = [];
  const top = envBlock(workflow.env);
  const jobs = isMapping(workflow.jobs) ? Object.values(workflow.jobs) : [];
  for (const job of jobs) {
    if (!isMapping(job) || !Array.isArray(job.steps)) continue;
    if (typeof job["runs-on"] === "string" && OTHER_SYSTEM.test(job["runs-on"])) continue;
    const jobEnv = envBlock(job.env);
    for (const step of job.steps) {
      if (!isMapping(step) || typeof step.run !== "string" || !runsTests(step.run)) continue;
      found.push(new Map([...top, ...jobEnv, ...envBlock(step.env)]));
    }
  }
  return found;
}

/** What the workflows (path → text) set for their test steps, every one agreeing. */
export function ciTestEnvironment(workflows: ReadonlyMap<string, string>): CiEnvironment {
  const values = new Map<string, Set<string | undefined>>();
  const sources = new Map<string, Set<string>>();
  for (const [path, text] of [...workflows].sort(([a], [b]) => a.localeCompare(b))) {
    const workflow = parsed(text);
    if (workflow === undefined) continue;
    for (const step of testStepEnvironments(workflow)) {
      for (const [name, value] of step) {
        values.set(name, (values.get(name) ?? new Set()).add(value));
        sources.set(name, (sources.get(name) ?? new Set()).add(path));
      }
    }
  }
  const env: Record<string, string> = {};
  const from: Record<string, string[]> = {};
  for (const name of [...values.keys()].sort()) {
    const seen = [...values.get(name)!];
    if (seen.length !== 1 || seen[0] === undefined) continue;
    env[name] = seen[0];
    from[name] = [...sources.get(name)!];
  }
  return { env, from };
}

/**
 * CI's variables under those set here otherwise (the virtual environment set-up makes, the request's `env`): the
 * variables the runs get, and what of CI's is among them.
 */
export function underOwn(
  ci: CiEnvironment,
  own: Readonly<Record<string, string>>,
): { readonly env: Readonly<Record<string, string>>; readonly ci: CiEnvironment } {
  const names = Object.keys(ci.env).filter((name) => !Object.hasOwn(own, name));
  const kept = Object.fromEntries(names.map((name) => [name, ci.env[name]!]));
  const from = Object.fromEntries(names.map((name) => [name, ci.from[name] ?? []]));
  return { env: { ...kept, ...own }, ci: { env: kept, from } };
}

/** For the report: which variables the tests got from CI, and from where. */
export function ciEnvironmentNote(ci: CiEnvironment): string | undefined {
  const names = Object.keys(ci.env);
  if (names.length === 0) return undefined;
  const listed = names.map((name) => `${name}=${ci.env[name]!}`).join(", ");
  const files = [...new Set(names.flatMap((name) => ci.from[name] ?? []))].sort();
  return `Set-up and tests ran with what the CI workflow sets for its tests (${files.join(", ")}): ${listed}.`;
}
