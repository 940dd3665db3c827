/**
 * What a repository needs before its tests can run (pure): the set-up commands (the request's, the repo config's,
 * or detected from its lockfiles and manifests) and the environment both set-up and tests run in — corepack shims
 * for the package manager it declares, the virtual environment set-up makes, the package managers' caches.
 */
import { committedYarn, nodeManager, readPackageJson, type PackageJson } from "./node-manager.js";
import { HOOK_FILES_COMMAND, HOOK_FILES_SHIM } from "./hook-files.js";
import { pythonSetup } from "./python-setup.js";
import { shellQuote } from "./shell-quote.js";
import type { ProjectFacts } from "./test-command.js";

export type SetupSource = "request" | "repo-config" | "detected";

export interface SetupPlan {
  readonly commands: readonly string[];
  readonly source: SetupSource;
  /** A detected Python set-up's stand-in, run when pip cannot get a package (python-setup.ts). */
  readonly pythonFallback?: PythonFallback;
}

/** Commands that take the place of `replaces` (the Python ones) from the first of them that pip fails. */
export interface PythonFallback {
  readonly replaces: readonly string[];
  readonly commands: readonly string[];
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

/**
 * The set-up commands and run environment detected from the project's files. Several ecosystems in one repository
 * (a Python service with a Node front end) get each one's commands, in a fixed order.
 */
export function detectEnvironment(
  facts: ProjectFacts,
  cloneDir: string,
): {
  readonly commands: readonly string[];
  readonly environment: RunEnvironment;
  readonly pythonFallback?: PythonFallback;
} {
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
  const pythonFallback =
    python?.fallback === undefined ? undefined : { replaces: python.commands, commands: python.fallback };
  return { commands, environment: { shims, path, env }, ...(pythonFallback === undefined ? {} : { pythonFallback }) };
}

/**
 * The plan: the request's commands (`--setup`, or `false` for `--no-setup`), else the repo config's, else the
 * detected ones; undefined when there is nothing to do.
 */
export function chooseSetup(
  requested: readonly string[] | false | undefined,
  configured: readonly string[] | undefined,
  detected: readonly string[],
  pythonFallback?: PythonFallback,
): SetupPlan | undefined {
  if (requested === false) return undefined;
  const clean = (list: readonly string[]): string[] => list.map((c) => c.trim()).filter((c) => c !== "");
  if (requested !== undefined && clean(requested).length > 0) return { commands: clean(requested), source: "request" };
  if (configured !== undefined) {
    const commands = clean(configured);
    return commands.length > 0 ? { commands, source: "repo-config" } : undefined;
  }
  if (detected.length === 0) return undefined;
  return { commands: [...detected], source: "detected", ...(pythonFallback === undefined ? {} : { pythonFallback }) };
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
