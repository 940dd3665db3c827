/**
 * A Python project's set-up (pure): a virtual environment in the clone, the project installed into it with its test
 * extras, its development requirement files, its PEP 735 test groups and what tox.ini's test environment names,
 * pytest where the project configures it, and the checkers its pre-commit hooks run (pre-commit-hooks.ts).
 */
import { parse as parseToml } from "smol-toml";
import { PRE_COMMIT_CONFIG, preCommitHooks } from "./pre-commit-hooks.js";
import { splitRequirements } from "./requirements-file.js";
import { shellQuote, shellWord } from "./shell-quote.js";
import { detectsNpmTest, hasPytestConfig, type ProjectFacts } from "./test-command.js";
import { toxTestEnv } from "./tox-config.js";

/** Where a detected Python set-up puts its virtual environment, inside the clone. */
export const VENV_DIR = ".venv";

const TEST_EXTRAS = ["test", "tests", "testing", "dev"] as const;

/** Requirement files of development and tests, installed after the main one. */
const DEV_REQUIREMENTS = [
  "requirements-dev.txt",
  "requirements_dev.txt",
  "dev-requirements.txt",
  "requirements-test.txt",
  "requirements_test.txt",
  "requirements-tests.txt",
  "test-requirements.txt",
  "requirements/dev.txt",
  "requirements/development.txt",
  "requirements/test.txt",
  "requirements/tests.txt",
  "requirements/testing.txt",
] as const;

interface PyProject {
  readonly project?: { readonly "optional-dependencies"?: Record<string, unknown> };
  readonly "dependency-groups"?: Record<string, unknown>;
}

const pyprojects = new WeakMap<ProjectFacts, PyProject | undefined>();

/** The project's pyproject.toml, parsed once per set of facts; undefined when there is none or it is broken. */
function pyprojectOf(facts: ProjectFacts): PyProject | undefined {
  if (pyprojects.has(facts)) return pyprojects.get(facts);
  let parsed: PyProject | undefined;
  try {
    const text = facts.read("pyproject.toml");
    parsed = text === undefined ? undefined : parseToml(text);
  } catch {
    // A broken pyproject.toml: pip will say so during set-up.
    parsed = undefined;
  }
  pyprojects.set(facts, parsed);
  return parsed;
}

/** The test extras a Python project declares (pyproject's optional dependencies, setup.cfg's or setup.py's). */
export function pythonExtras(facts: ProjectFacts): string[] {
  const declared = new Set<string>();
  for (const name of Object.keys(pyprojectOf(facts)?.project?.["optional-dependencies"] ?? {})) declared.add(name);
  const cfg = facts.read("setup.cfg");
  const section =
    cfg === undefined ? undefined : /^\[options\.extras_require\]\s*\n([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(cfg);
  for (const line of section?.[1]?.split("\n") ?? []) {
    const name = /^([A-Za-z0-9_.-]+)\s*=/.exec(line)?.[1];
    if (name !== undefined) declared.add(name);
  }
  const setupPy = facts.read("setup.py");
  const extras = setupPy === undefined ? undefined : /extras_require\s*=\s*(?:dict\()?\{?([\s\S]*?)[})]/.exec(setupPy);
  for (const match of extras?.[1]?.matchAll(/["']([A-Za-z0-9_.-]+)["']\s*:|\b([A-Za-z0-9_]+)\s*=/g) ?? []) {
    declared.add((match[1] ?? match[2])!);
  }
  return TEST_EXTRAS.filter((name) => declared.has(name));
}

/** The names of test dependency groups, in the order they are taken; `dev` only when none of the others exists. */
const TEST_GROUPS = ["test", "tests", "testing"] as const;

type GroupEntry = string | { readonly "include-group"?: unknown };

/**
 * The requirements of a project's test dependency groups (PEP 735 `[dependency-groups]` in pyproject.toml, where
 * Pallets' and many newer projects keep pytest), with the groups they include. pip reads groups itself only from
 * 25.1 on (`--group`), and a venv gets the pip its Python came with: the requirements are passed as they are.
 */
export function pythonTestGroups(facts: ProjectFacts): string[] {
  const groups = pyprojectOf(facts)?.["dependency-groups"] ?? {};
  const named = TEST_GROUPS.filter((name) => Array.isArray(groups[name]));
  const taken = named.length > 0 ? named : Array.isArray(groups["dev"]) ? ["dev"] : [];
  const requirements = new Set<string>();
  const seen = new Set<string>();
  const add = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const entries = groups[name];
    if (!Array.isArray(entries)) return;
    for (const entry of entries as GroupEntry[]) {
      if (typeof entry === "string") requirements.add(entry.trim());
      else if (typeof entry["include-group"] === "string") add(entry["include-group"]);
    }
  };
  for (const name of taken) add(name);
  return [...requirements].filter((r) => r !== "");
}

/** pip of the virtual environment set-up makes. */
const PIP = `${VENV_DIR}/bin/python -m pip install --progress-bar off`;

const HOOK_TOOLS_MISSING = "patchsmith: the pre-commit hooks' checkers were not installed at their versions";

/**
 * The hooks' checkers installed in the virtual environment. A pinned tool pip cannot install here (a release too
 * old for this Python, no index reachable) must not stop the tests: its check then runs with what is installed,
 * and is left out if it fails before the change.
 */
const hooksCommand = (tools: readonly string[]): string =>
  `${PIP} ${tools.map(shellQuote).join(" ")} || echo ${shellQuote(HOOK_TOOLS_MISSING)}`;

/**
 * What replaces a Python set-up when pip cannot get a package (no index reachable, or none that has the version):
 * the virtual environment over this machine's Python packages (`--system-site-packages`), the project from the clone
 * without its dependencies, and each of the plan's `installs` tried again without stopping the set-up, with
 * `--retries 0` (an index pip could not reach the first time is not waited for again), and where pip installs none
 * of a set because one of it failed, each of its requirements alone. The project is
 * installed without build isolation (its build backend must then be on the machine); where that fails, a `.pth`
 * file puts the clone's code on the path, `src/` for a src layout, as an editable install does.
 */
function machinePackagesPlan(installs: readonly PipInstall[], packaged: boolean, layoutRoot: string): string[] {
  const onPath = `${VENV_DIR}/bin/python -c ${shellQuote(CLONE_ON_PATH)} ${shellQuote(layoutRoot)}`;
  const bestEffort = (args: string, what: string): string =>
    `${PIP} --retries 0 ${args} || echo ${shellQuote(`patchsmith: pip could not install ${what}; the machine's packages stand in`)}`;
  const alone = (args: readonly string[]): string => `${bestEffort(args.map(shellWord).join(" "), args.join(" "))};`;
  return [
    `python3 -m venv --clear --system-site-packages ${VENV_DIR}`,
    packaged ? `${PIP} --no-build-isolation --no-deps -e . || ${onPath}` : onPath,
    // pip installs none of a set when one of it has no distribution: each is then tried alone.
    ...installs.map(({ args, each }) =>
      each === undefined || each.length < 2
        ? bestEffort(args, "all of these")
        : `${PIP} --retries 0 ${args} || { ${each.map(alone).join(" ")} }`,
    ),
  ];
}

/** pip's arguments for one install (quoted), and for each of its requirements alone when they can be told apart. */
interface PipInstall {
  readonly args: string;
  readonly each?: readonly (readonly string[])[];
}

/** A requirements file's install, with each requirement's (and the file's options) when it can be split. */
function requirementsInstall(file: string, read: (path: string) => string | undefined): PipInstall {
  const split = splitRequirements(file, read);
  const each = split?.requirements.map((args) => [...split.options, ...args]);
  return { args: `-r ${shellQuote(file)}`, ...(each === undefined ? {} : { each }) };
}

/** Writes a `.pth` file naming its argument into the virtual environment's site-packages. */
const CLONE_ON_PATH =
  'import site, sys; open(site.getsitepackages()[0] + "/_patchsmith_clone.pth", "w").write(sys.argv[1] + "\\n")';

/** The requirement pip found no distribution for (`flit_core<4,>=3.11`), when that is why it failed. */
export function missingDistribution(output: string): string | undefined {
  return /^\s*ERROR: No matching distribution found for (.+)$/m.exec(output)?.[1]?.trim();
}

export interface PythonSetup {
  readonly commands: string[];
  readonly venv: string;
  readonly hooks: boolean;
  /** The set-up over the machine's packages, for when pip cannot get one (undefined when nothing can fail so). */
  readonly fallback?: readonly string[];
}

export function pythonSetup(facts: ProjectFacts, cloneDir: string): PythonSetup | undefined {
  const has = (path: string): boolean => facts.paths.includes(path);
  // A pyproject.toml that only configures tools (black, ruff) is not a package pip can install; pip needs a
  // setup.py or a pyproject.toml to install from (setup.cfg alone is read through one of them).
  const pyprojectPackage =
    has("pyproject.toml") && /^\[(project|build-system|tool\.poetry)\]/m.test(facts.read("pyproject.toml") ?? "");
  const packaged = has("setup.py") || pyprojectPackage;
  const requirements = ["requirements.txt", ...DEV_REQUIREMENTS].filter(has);
  const tox = toxTestEnv(facts.read("tox.ini"));
  // tox's requirement files that are not installed already, and its other requirements.
  const toxArgs = tox.deps.filter((args) => args[0] !== "-r" || !requirements.includes(args[1]!));
  const grouped = has("pyproject.toml") ? pythonTestGroups(facts) : [];
  const others = [...grouped.map((r) => [r]), ...toxArgs];
  // The checkers the pre-commit hooks run (pre-commit-hooks.ts), for a project with Python files whose detected
  // tests run them (not after `npm test`).
  const hookTools =
    has(PRE_COMMIT_CONFIG) && facts.paths.some((p) => p.endsWith(".py")) && !detectsNpmTest(facts)
      ? preCommitHooks(facts.read(PRE_COMMIT_CONFIG)).requirements
      : [];
  const hooksOnly = !packaged && requirements.length === 0 && others.length === 0;
  if (hooksOnly && hookTools.length === 0) return undefined;
  // A project that configures pytest runs its tests with it, which the virtual environment holds only when the
  // project installs it: pip resolves it with the other test requirements, and does nothing when it is there.
  const namesPytest = others.some((args) => /^pytest(?![\w-])/i.test(args[0]!));
  const pytest = hasPytestConfig(facts) && !namesPytest ? [["pytest"]] : [];
  const venv = `${cloneDir}/${VENV_DIR}`;
  // An environment made for the hooks' checkers alone keeps what the tests found before it (the machine's pytest
  // and packages), as they ran without one, and installs nothing else that could fail.
  if (hooksOnly)
    return {
      commands: [`python3 -m venv --system-site-packages ${VENV_DIR}`, hooksCommand(hookTools)],
      venv,
      hooks: true,
    };
  // pip's arguments for the requirement files and for the rest; the project itself is installed between them.
  const rest = [...others, ...pytest];
  const installs = requirements.map((file) => requirementsInstall(file, facts.read));
  const restInstall =
    rest.length > 0 ? [{ args: rest.map((arg) => arg.map(shellQuote).join(" ")).join(" "), each: rest }] : [];
  const extras = [...new Set([...pythonExtras(facts), ...tox.extras])];
  const project = packaged ? [`${PIP} -e ${shellQuote(extras.length > 0 ? `.[${extras.join(",")}]` : ".")}`] : [];
  const hooks = hookTools.length > 0 ? [hooksCommand(hookTools)] : [];
  const commands = [
    `python3 -m venv ${VENV_DIR}`,
    ...installs.map(({ args }) => `${PIP} ${args}`),
    ...project,
    ...restInstall.map(({ args }) => `${PIP} ${args}`),
    ...hooks,
  ];
  const srcLayout = facts.paths.some((p) => /^src\/[^/]+(?:\/__init__)?\.py$/.test(p));
  const layoutRoot = srcLayout ? `${cloneDir}/src` : cloneDir;
  const fallback = [...machinePackagesPlan([...installs, ...restInstall], packaged, layoutRoot), ...hooks];
  return { commands, venv, hooks: hookTools.length > 0, fallback };
}
