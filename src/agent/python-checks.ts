/**
 * The checkers a Python project configures, which its CI runs beside the tests (pure): Ruff (`[tool.ruff]` in
 * pyproject.toml, a ruff.toml), flake8 (a .flake8 file, a `[flake8]` section in setup.cfg or tox.ini) and mypy (a
 * mypy.ini, a `[mypy]` section in setup.cfg, `[tool.mypy]` in pyproject.toml). Each runs after the tests as a check
 * patchsmith added, as a JavaScript project's lint and type check do (lint-script.ts, type-check-script.ts); one
 * that is not installed, or fails on the untouched code (mypy told no files to check, stubs the environment lacks),
 * fails before any change and is left out (unenforced-checks.ts).
 */
import type { AddedCheck, ProjectFacts } from "./test-command.js";

/** The configuration files they are read from, for the detection's list of files to read. */
export const PYTHON_CHECK_FILES = [".flake8", "ruff.toml", ".ruff.toml", "mypy.ini", ".mypy.ini"] as const;

/** Ruff's check, which leaves alone what .gitignore and its defaults exclude (the set-up's .venv among them). */
const RUFF: AddedCheck = { command: "ruff check", checks: "lint" };
/** flake8, told to leave out the virtual environment set-up makes in the clone, which it would read otherwise. */
const FLAKE8: AddedCheck = { command: "flake8 --extend-exclude .venv", checks: "lint" };
/** mypy on the files its configuration names. */
const MYPY: AddedCheck = { command: "mypy", checks: "types" };

/** The commands of the checkers the project configures: Ruff, flake8, then mypy. */
export function pythonChecks(facts: ProjectFacts): AddedCheck[] {
  const has = (path: string): boolean => facts.paths.includes(path);
  const section = (path: string, header: RegExp): boolean => header.test(facts.read(path) ?? "");
  const ruff = has("ruff.toml") || has(".ruff.toml") || section("pyproject.toml", /^\[tool\.ruff[\].]/m);
  const flake8 = has(".flake8") || section("setup.cfg", /^\[flake8\]/m) || section("tox.ini", /^\[flake8\]/m);
  const mypy =
    has("mypy.ini") ||
    has(".mypy.ini") ||
    section("setup.cfg", /^\[mypy\]/m) ||
    section("pyproject.toml", /^\[tool\.mypy\]/m);
  return [...(ruff ? [RUFF] : []), ...(flake8 ? [FLAKE8] : []), ...(mypy ? [MYPY] : [])];
}
