/**
 * The checkers a Python project runs beside its tests (pure): those it configures, Ruff (`[tool.ruff]` in
 * pyproject.toml, a ruff.toml), flake8 (a .flake8 file, a `[flake8]` section in setup.cfg or tox.ini), black
 * (`[tool.black]`), isort (`[tool.isort]`, an .isort.cfg, an `[isort]` section) and mypy (a mypy.ini, a `[mypy]`
 * section in setup.cfg, `[tool.mypy]` in pyproject.toml); those its pre-commit hooks run (pre-commit-hooks.ts, with
 * the hooks' arguments and patterns), which replace the configured call; and those its GitHub workflows run
 * (workflow-checks.ts), which replace both: they are what CI enforces. Each runs after the tests as a check
 * patchsmith added, as a JavaScript project's lint and type check do (lint-script.ts, type-check-script.ts); one that
 * is not installed, or fails on the untouched code (mypy told no files to check, stubs the environment lacks), fails
 * before any change and is left out (unenforced-checks.ts).
 */
import { onHookFiles, type HookFilters } from "./hook-files.js";
import { PRE_COMMIT_CONFIG, preCommitHooks, type MirroredHookId } from "./pre-commit-hooks.js";
import { WORKFLOW_PATH } from "./ci-env.js";
import { shellWord } from "./shell-quote.js";
import { workflowChecks } from "./workflow-checks.js";
import type { AddedCheck, ProjectFacts } from "./test-command.js";

/** The configuration files they are read from, for the detection's list of files to read. */
export const PYTHON_CHECK_FILES = [
  ".isort.cfg",
  ".flake8",
  "ruff.toml",
  ".ruff.toml",
  "mypy.ini",
  ".mypy.ini",
  PRE_COMMIT_CONFIG,
] as const;

/**
 * Each checker's command before a hook's arguments, and what follows them. Ruff leaves alone what .gitignore and
 * its defaults exclude (the set-up's .venv among them), as do black, isort and mypy given the folder; flake8 is told
 * to. A configured mypy checks the files its configuration names; a hook's checks every file, as pre-commit passes
 * them all.
 */
const COMMANDS: Readonly<Record<MirroredHookId, { readonly command: string; readonly target?: string }>> = {
  ruff: { command: "ruff check" },
  "ruff-format": { command: "ruff format --check" },
  flake8: { command: "flake8 --extend-exclude .venv" },
  black: { command: "black --check", target: "." },
  isort: { command: "isort --check-only", target: "." },
  mypy: { command: "mypy", target: "." },
};

const ORDER: readonly MirroredHookId[] = ["ruff", "ruff-format", "flake8", "black", "isort", "mypy"];

/** The checkers the project's configuration files set up. */
function configuredCheckers(facts: ProjectFacts): ReadonlySet<MirroredHookId> {
  const has = (path: string): boolean => facts.paths.includes(path);
  const section = (path: string, header: RegExp): boolean => header.test(facts.read(path) ?? "");
  const configured: Readonly<Record<MirroredHookId, boolean>> = {
    ruff: has("ruff.toml") || has(".ruff.toml") || section("pyproject.toml", /^\[tool\.ruff[\].]/m),
    "ruff-format": false,
    flake8: has(".flake8") || section("setup.cfg", /^\[flake8\]/m) || section("tox.ini", /^\[flake8\]/m),
    black: section("pyproject.toml", /^\[tool\.black\]/m),
    isort:
      has(".isort.cfg") ||
      section("pyproject.toml", /^\[tool\.isort\]/m) ||
      section("setup.cfg", /^\[(?:tool:)?isort\]/m) ||
      section("tox.ini", /^\[(?:tool:)?isort\]/m),
    mypy:
      has("mypy.ini") ||
      has(".mypy.ini") ||
      section("setup.cfg", /^\[mypy\]/m) ||
      section("pyproject.toml", /^\[tool\.mypy\]/m),
  };
  return new Set(ORDER.filter((id) => configured[id]));
}

/** A configured checker's call: on the whole tree, mypy on the files its configuration names. */
function configuredCall(id: MirroredHookId): string {
  const { command, target } = COMMANDS[id];
  return target === undefined || id === "mypy" ? command : `${command} ${target}`;
}

/** A hook's call: its entry and arguments, on the files its patterns leave (hook-files.ts) or on the whole tree. */
function hookCall(id: MirroredHookId, args: readonly string[], filters: HookFilters | undefined): string {
  const { command, target } = COMMANDS[id];
  // Ruff's hooks pass --force-exclude, so that its configured exclusions hold for the files pre-commit names.
  const entry = id === "ruff" || id === "ruff-format" ? `${command} --force-exclude` : command;
  const given = [entry, ...args.map(shellWord)].join(" ");
  const filtered = filters === undefined ? given : onHookFiles(given, filters);
  return filtered !== given || target === undefined ? filtered : `${given} ${target}`;
}

/** The project's GitHub workflows, by path. */
function workflowTexts(facts: ProjectFacts): Map<string, string> {
  const workflows = new Map<string, string>();
  for (const path of facts.paths.filter((p) => WORKFLOW_PATH.test(p))) {
    const text = facts.read(path);
    if (text !== undefined) workflows.set(path, text);
  }
  return workflows;
}

/**
 * The commands of the checkers the project's workflows run, hooks or configures: Ruff, its formatter, flake8, black,
 * isort, mypy.
 */
export function pythonChecks(facts: ProjectFacts): AddedCheck[] {
  const configured = configuredCheckers(facts);
  const hooks = facts.paths.includes(PRE_COMMIT_CONFIG) ? preCommitHooks(facts.read(PRE_COMMIT_CONFIG)) : undefined;
  const inWorkflows = workflowChecks(workflowTexts(facts));
  return ORDER.flatMap((id): AddedCheck[] => {
    const ci = inWorkflows.get(id);
    if (ci !== undefined) return ci;
    const checks = id === "mypy" ? "types" : "lint";
    const args = hooks?.args.get(id);
    if (args !== undefined) return [{ command: hookCall(id, args, hooks?.filters.get(id)), checks }];
    return configured.has(id) ? [{ command: configuredCall(id), checks }] : [];
  });
}
