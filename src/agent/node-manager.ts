/**
 * Which package manager a Node project uses, and how (pure): the one package.json's `packageManager` declares, else
 * the one its lockfile belongs to; whether Yarn is Berry, whether it commits its release, whether it installs with
 * Plug'n'Play. Set-up installs with it; test detection runs scripts the way it can.
 */
import type { ProjectFacts } from "./test-command.js";

export interface PackageJson {
  readonly packageManager?: unknown;
  readonly tap?: unknown;
  readonly dependencies?: unknown;
  readonly devDependencies?: unknown;
  readonly optionalDependencies?: unknown;
  readonly workspaces?: unknown;
}

export function readPackageJson(facts: ProjectFacts): PackageJson | undefined {
  const text = facts.read("package.json");
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

export type NodeManager =
  { readonly name: "npm" } | { readonly name: "pnpm" } | { readonly name: "yarn"; readonly berry: boolean };

/** `packageManager: "pnpm@9.1.0+sha512..."` → pnpm; a yarn version of 2 or more is Yarn Berry. */
function declaredManager(pkg: PackageJson): NodeManager | undefined {
  if (typeof pkg.packageManager !== "string") return undefined;
  const match = /^(npm|pnpm|yarn)@(\d+)/.exec(pkg.packageManager);
  if (match === null) return undefined;
  if (match[1] === "yarn") return { name: "yarn", berry: Number(match[2]) >= 2 };
  return { name: match[1] as "npm" | "pnpm" };
}

/** The declared manager, else the lockfile's (Yarn with a `.yarnrc.yml` is Berry); undefined for npm by default. */
export function nodeManager(pkg: PackageJson, facts: ProjectFacts): NodeManager | undefined {
  const has = (path: string): boolean => facts.paths.includes(path);
  return (
    declaredManager(pkg) ??
    (has("pnpm-lock.yaml")
      ? { name: "pnpm" }
      : has("yarn.lock")
        ? { name: "yarn", berry: has(".yarnrc.yml") }
        : undefined)
  );
}

/**
 * The Yarn release a Berry project commits and names in `.yarnrc.yml` (`yarnPath:`), when it is in the repository.
 * It is what the project runs whatever the version `packageManager` names: corepack would first download that
 * version from repo.yarnpkg.com only to hand over to it.
 */
export function committedYarn(facts: ProjectFacts): string | undefined {
  const match = /^yarnPath:\s*["']?([^"'\n#]+?)["']?\s*$/m.exec(facts.read(".yarnrc.yml") ?? "");
  const path = match?.[1]?.replace(/^\.\//, "");
  return path !== undefined && facts.paths.includes(path) ? path : undefined;
}

/**
 * Whether a Yarn Berry project installs with Plug'n'Play (Berry's default linker, unless `.yarnrc.yml` names
 * `node-modules` or `pnpm`): there is no `node_modules/.bin`, so only `yarn` itself can run its scripts.
 */
export function yarnPlugAndPlay(facts: ProjectFacts): boolean {
  const pkg = readPackageJson(facts);
  const manager = pkg === undefined ? undefined : nodeManager(pkg, facts);
  if (manager?.name !== "yarn" || !manager.berry) return false;
  const linker = /^nodeLinker:\s*["']?([\w-]+)/m.exec(facts.read(".yarnrc.yml") ?? "")?.[1];
  return linker === undefined || linker === "pnp";
}
