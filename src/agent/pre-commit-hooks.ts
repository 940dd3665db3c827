/**
 * The hooks of a `.pre-commit-config.yaml` patchsmith runs itself, as the project's CI (or pre-commit.ci) runs them
 * on every push (pure). pre-commit cannot run in the sandbox: it clones each hook's repository at test time, and
 * tests have no network. The Python checkers among the hooks are installed by set-up instead, at the version the
 * hook pins (`rev: 24.2.0`, `rev: v0.4.1`: the hook repositories of black, isort, flake8, Ruff and mypy tag their
 * releases with the tool's version), with the hook's `additional_dependencies` (flake8 plugins, mypy's stubs), and
 * run after the tests as checks (python-checks.ts). Local hooks and other languages' hooks are left to the project's
 * CI; so are the fixers (trailing whitespace, end of file), which rewrite files rather than check them.
 */
import { parse as parseYaml } from "yaml";
import type { HookFilters } from "./hook-files.js";

export const PRE_COMMIT_CONFIG = ".pre-commit-config.yaml";

/** The hook ids patchsmith mirrors, by the package that provides each. */
const PACKAGE_OF: Readonly<Record<string, string>> = {
  black: "black",
  isort: "isort",
  flake8: "flake8",
  ruff: "ruff",
  "ruff-check": "ruff",
  "ruff-format": "ruff",
  mypy: "mypy",
};

export type MirroredHookId = "black" | "isort" | "flake8" | "ruff" | "ruff-format" | "mypy";

export interface PreCommitHooks {
  /**
   * The mirrored hooks the configuration lists (`ruff-check` read as `ruff`), each with the arguments it gives the
   * tool, those that make it rewrite files left out.
   */
  readonly args: ReadonlyMap<MirroredHookId, readonly string[]>;
  /** The `files` and `exclude` patterns of each, the top level's first (hook-files.ts). */
  readonly filters: ReadonlyMap<MirroredHookId, HookFilters>;
  /** pip requirements for them: each tool pinned where its rev is a version, then the additional dependencies. */
  readonly requirements: readonly string[];
}

const NONE: PreCommitHooks = { args: new Map(), filters: new Map(), requirements: [] };

/** A `files` or `exclude` pattern that selects something (pre-commit's defaults are `''` and `^$`). */
function patternOf(value: unknown): string[] {
  return typeof value === "string" && value !== "" && value !== "^$" ? [value] : [];
}

/** Arguments that make a checker fix what it finds instead of failing on it. */
const FIXING = /^--(?:fix|unsafe-fixes|exit-non-zero-on-fix|show-fixes|fix-only)(?:=|$)/;

/** The arguments the hook repositories give their tool when a hook gives none. */
const DEFAULT_ARGS: Partial<Record<MirroredHookId, readonly string[]>> = {
  mypy: ["--ignore-missing-imports"],
  // So that isort's configured skips hold for the files pre-commit names.
  isort: ["--filter-files"],
};

/** The arguments a hook gives its tool: its `args`, or the hook repository's default. */
function argsOf(id: MirroredHookId, hook: Record<string, unknown>): string[] {
  const given = hook["args"];
  if (!Array.isArray(given)) return [...(DEFAULT_ARGS[id] ?? [])];
  return given.map((arg) => (typeof arg === "string" ? arg : String(arg))).filter((arg) => !FIXING.test(arg));
}

/** A rev that is a release's version (`24.2.0`, `v0.4.1`, `23.1a1`) as pip's; undefined for a commit or branch. */
function versionOf(rev: unknown): string | undefined {
  const text = typeof rev === "number" ? String(rev) : typeof rev === "string" ? rev.trim() : "";
  const match = /^v?(\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?)$/.exec(text);
  return match?.[1];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The hooks of `text` (a .pre-commit-config.yaml) patchsmith mirrors; none when it is absent or unreadable. */
export function preCommitHooks(text: string | undefined): PreCommitHooks {
  if (text === undefined) return NONE;
  let config: unknown;
  try {
    config = parseYaml(text);
  } catch {
    return NONE;
  }
  if (!isRecord(config) || !Array.isArray(config["repos"])) return NONE;
  // `pre-commit autoupdate --freeze` pins a commit and says which release it is in a comment, which YAML drops.
  const frozen = new Map<string, string>();
  for (const match of text.matchAll(/^\s*(?:-\s+)?rev:\s*['"]?([^\s'"#]+)['"]?\s*#\s*frozen:\s*(\S+)\s*$/gm))
    frozen.set(match[1]!, match[2]!);
  const args = new Map<MirroredHookId, readonly string[]>();
  const filters = new Map<MirroredHookId, HookFilters>();
  const top = { files: patternOf(config["files"]), exclude: patternOf(config["exclude"]) };
  const pinned = new Map<string, string>();
  const additional: string[] = [];
  for (const repo of config["repos"] as unknown[]) {
    if (!isRecord(repo) || !Array.isArray(repo["hooks"])) continue;
    // `local` and `meta` hooks run what the project names, not a released tool.
    if (repo["repo"] === "local" || repo["repo"] === "meta") continue;
    const version = versionOf(repo["rev"]) ?? versionOf(frozen.get(String(repo["rev"])));
    for (const hook of repo["hooks"] as unknown[]) {
      if (!isRecord(hook) || typeof hook["id"] !== "string") continue;
      const pkg = PACKAGE_OF[hook["id"]];
      if (pkg === undefined) continue;
      const id = hook["id"] === "ruff-check" ? "ruff" : (hook["id"] as MirroredHookId);
      if (!args.has(id)) {
        args.set(id, argsOf(id, hook));
        filters.set(id, {
          files: [...top.files, ...patternOf(hook["files"])],
          exclude: [...top.exclude, ...patternOf(hook["exclude"])],
        });
      }
      const requirement = version === undefined ? pkg : `${pkg}==${version}`;
      if (!pinned.has(pkg) || version !== undefined) pinned.set(pkg, requirement);
      const extra = hook["additional_dependencies"];
      if (Array.isArray(extra)) {
        for (const dep of extra) if (typeof dep === "string" && dep.trim() !== "") additional.push(dep.trim());
      }
    }
  }
  return { args, filters, requirements: [...new Set([...pinned.values(), ...additional])] };
}
