/**
 * What a repository needs before its tests can run (pure): the set-up commands (the request's, the repo config's,
 * or detected from its lockfiles and manifests) and the environment both set-up and tests run in — corepack shims
 * for the package manager it declares, the virtual environment set-up makes, the package managers' caches.
 */
import { parse as parseToml } from "smol-toml";
import { committedYarn, nodeManager, readPackageJson, type PackageJson } from "./node-manager.js";
import { HOOK_FILES_COMMAND, HOOK_FILES_SHIM } from "./hook-files.js";
import { PRE_COMMIT_CONFIG, preCommitHooks } from "./pre-commit-hooks.js";
import { shellQuote } from "./shell-quote.js";
import { detectsNpmTest, hasPytestConfig, type ProjectFacts } from "./test-command.js";
import { toxTestEnv } from "./tox-config.js";

export type SetupSource = "request" | "repo-config" | "detected";

export interface SetupPlan {
  readonly commands: readonly string[];
  readonly source: SetupSource;
}

/** How set-up and test runs see the project: the same for both, so what set-up installed is what the tests find. */
export interface RunEnvironment {
  /** Commands put on PATH (`pnpm` → `corepack pnpm`), for scripts that call the declared package manager. */
  readonly shims: Readonly<Record<string, string>>;
  /** Folders in front of PATH (the virtual environment's `bin`, absolute). */
  readonly path: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** The files set-up detection reads, besides the list of paths. */
export const SETUP_FILES = [
  "package.json",
  ".taprc",
  ".yarnrc.yml",
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "tox.ini",
] as const;

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

const hasEntries = (value: unknown): boolean =>
  typeof value === "object" && value !== null && Object.keys(value).length > 0;

const declares = (value: unknown, name: string): boolean =>
  typeof value === "object" && value !== null && Object.hasOwn(value, name);

/**
 * Whether the project names tap plugins (package.json's `tap.plugin`, or a `plugin` key in `.taprc`) for a tap it
 * depends on. tap (18 and later) installs a named plugin that is not a dependency on its first run, from the
 * registry, into `.tap/plugins`, and rebuilds itself with it: the tests run without network, so that run fails
 * before any test. `tap build` at set-up does both with the registry in reach.
 */
function namesTapPlugins(pkg: PackageJson, facts: ProjectFacts): boolean {
  if (![pkg.dependencies, pkg.devDependencies].some((deps) => declares(deps, "tap"))) return false;
  const inPackage = typeof pkg.tap === "object" && pkg.tap !== null && "plugin" in pkg.tap;
  return inPackage || /^plugin\s*:/m.test(facts.read(".taprc") ?? "");
}

function nodeSetup(
  facts: ProjectFacts,
  cloneDir: string,
): { commands: string[]; shims: Record<string, string> } | undefined {
  const pkg = readPackageJson(facts);
  if (pkg === undefined) return undefined;
  const install = nodeInstall(pkg, facts, cloneDir);
  if (install.commands.length === 0 || !namesTapPlugins(pkg, facts)) return install;
  const { pnpm, yarn } = install.shims;
  const tapBuild =
    pnpm !== undefined
      ? `${pnpm} exec tap build`
      : yarn !== undefined
        ? `${yarn} tap build`
        : "npm exec --no -- tap build";
  return { ...install, commands: [...install.commands, tapBuild] };
}

function nodeInstall(
  pkg: PackageJson,
  facts: ProjectFacts,
  cloneDir: string,
): { commands: string[]; shims: Record<string, string> } {
  const has = (path: string): boolean => facts.paths.includes(path);
  const manager = nodeManager(pkg, facts);
  const release = manager?.name === "yarn" && manager.berry ? committedYarn(facts) : undefined;
  const yarn = release === undefined ? "corepack yarn" : `node ${shellQuote(`${cloneDir}/${release}`)}`;
  const shims: Record<string, string> =
    manager?.name === "pnpm" ? { pnpm: "corepack pnpm" } : manager?.name === "yarn" ? { yarn } : {};
  const lockfile = ["package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock"].some(has);
  const dependencies = [pkg.dependencies, pkg.devDependencies, pkg.optionalDependencies].some(hasEntries);
  if (!lockfile && !dependencies && pkg.workspaces === undefined) return { commands: [], shims };
  if (manager?.name === "pnpm") {
    const frozen = has("pnpm-lock.yaml") ? " --frozen-lockfile" : "";
    const store = '--store-dir "${PATCHSMITH_CACHE:-$HOME/.cache}/pnpm-store"';
    return { commands: [`corepack pnpm install${frozen} --prefer-offline ${store}`], shims };
  }
  if (manager?.name === "yarn") {
    const locked = has("yarn.lock");
    // Berry is immutable by default under CI=true, which refuses to write a missing lockfile.
    const command = manager.berry
      ? `${yarn} install${locked ? " --immutable" : " --no-immutable"}`
      : `corepack yarn install${locked ? " --frozen-lockfile" : ""} --prefer-offline --non-interactive`;
    return { commands: [command], shims };
  }
  if (has("package-lock.json") || has("npm-shrinkwrap.json")) return { commands: ["npm ci --prefer-offline"], shims };
  return { commands: ["npm install --prefer-offline"], shims };
}

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

function pythonSetup(
  facts: ProjectFacts,
  cloneDir: string,
): { commands: string[]; venv: string; hooks: boolean } | undefined {
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
  const pip = PIP;
  // An environment made for the hooks' checkers alone keeps what the tests found before it (the machine's pytest
  // and packages), as they ran without one, and installs nothing else that could fail.
  if (hooksOnly)
    return {
      commands: [`python3 -m venv --system-site-packages ${VENV_DIR}`, hooksCommand(hookTools)],
      venv,
      hooks: true,
    };
  const commands = [`python3 -m venv ${VENV_DIR}`];
  for (const file of requirements) commands.push(`${pip} -r ${shellQuote(file)}`);
  if (packaged) {
    const extras = [...new Set([...pythonExtras(facts), ...tox.extras])];
    commands.push(`${pip} -e ${shellQuote(extras.length > 0 ? `.[${extras.join(",")}]` : ".")}`);
  }
  const rest = [...others, ...pytest];
  if (rest.length > 0) commands.push(`${pip} ${rest.map((arg) => arg.map(shellQuote).join(" ")).join(" ")}`);
  if (hookTools.length > 0) commands.push(hooksCommand(hookTools));
  return { commands, venv, hooks: hookTools.length > 0 };
}

/**
 * The set-up commands and run environment detected from the project's files. Several ecosystems in one repository
 * (a Python service with a Node front end) get each one's commands, in a fixed order.
 */
export function detectEnvironment(
  facts: ProjectFacts,
  cloneDir: string,
): { readonly commands: readonly string[]; readonly environment: RunEnvironment } {
  const commands: string[] = [];
  const shims: Record<string, string> = {};
  const path: string[] = [];
  const env: Record<string, string> = {};
  const node = nodeSetup(facts, cloneDir);
  if (node !== undefined) {
    commands.push(...node.commands);
    Object.assign(shims, node.shims);
  }
  const python = pythonSetup(facts, cloneDir);
  if (python !== undefined) {
    commands.push(...python.commands);
    path.push(`${python.venv}/bin`);
    env.VIRTUAL_ENV = python.venv;
    // The hooks' checks whose patterns leave files out run through it (hook-files.ts).
    if (python.hooks) shims[HOOK_FILES_SHIM] = HOOK_FILES_COMMAND;
  }
  if (facts.paths.includes("go.mod")) commands.push("go mod download");
  if (facts.paths.includes("Cargo.toml")) commands.push("cargo fetch");
  return { commands, environment: { shims, path, env } };
}

/**
 * The plan: the request's commands (`--setup`, or `false` for `--no-setup`), else the repo config's, else the
 * detected ones; undefined when there is nothing to do.
 */
export function chooseSetup(
  requested: readonly string[] | false | undefined,
  configured: readonly string[] | undefined,
  detected: readonly string[],
): SetupPlan | undefined {
  if (requested === false) return undefined;
  const clean = (list: readonly string[]): string[] => list.map((c) => c.trim()).filter((c) => c !== "");
  if (requested !== undefined && clean(requested).length > 0) return { commands: clean(requested), source: "request" };
  if (configured !== undefined) {
    const commands = clean(configured);
    return commands.length > 0 ? { commands, source: "repo-config" } : undefined;
  }
  return detected.length > 0 ? { commands: [...detected], source: "detected" } : undefined;
}

/** Where each package manager keeps its downloads, under the repository's cache as the command sees it. */
export function cacheEnv(root: string): Record<string, string> {
  return {
    PATCHSMITH_CACHE: root,
    npm_config_cache: `${root}/npm`,
    YARN_CACHE_FOLDER: `${root}/yarn`,
    COREPACK_HOME: `${root}/corepack`,
    PIP_CACHE_DIR: `${root}/pip`,
    GOMODCACHE: `${root}/go-mod`,
    CARGO_HOME: `${root}/cargo`,
  };
}

/**
 * The caches as the tests see them: read-only (a test cannot poison what later jobs install), with npm sent to a
 * cache of its own in the run's throwaway home. npm writes to its cache as it works (`npm pack` packs through it,
 * `npm exec` installs into it) and fails on a read-only one with EROFS (exit code 226); offline, the shared cache
 * holds nothing a test needs, since what the tests run is installed in the clone.
 */
export function testCacheEnv(root: string): Record<string, string> {
  const { npm_config_cache: _npm, ...others } = cacheEnv(root);
  return others;
}
