/**
 * The Python checkers a project's GitHub workflows run on every push (pure): a `run:` line that is one call of
 * flake8, black, isort, Ruff or mypy (`flake8 . --count --select=E9,F63,F7,F82 --show-source --statistics`, as
 * GitHub's Python starter workflow has it; `python -m mypy src`; `poetry run black --check .`), taken as CI runs it.
 * The checkers are on PATH in the sandbox (set-up's virtual environment, or the machine's), so a runner prefix
 * (`poetry run`, `uv run`, `pipenv run`, `python -m`) is dropped. Left out: lines with anything the shell or GitHub
 * would expand or chain (`${{ }}`, `$VAR`, `|`, `&&`, `;`, redirections), and calls that rewrite files or pass
 * whatever they find (`black .`, `--fix`, `--exit-zero`).
 */
import { parse as parseYaml } from "yaml";
import type { MirroredHookId } from "./pre-commit-hooks.js";
import type { AddedCheck } from "./test-command.js";

const RUNNER_PREFIX = /^(?:(?:poetry|uv|pipenv|hatch|pdm)\s+run\s+)?(?:python3?(?:\.\d+)?\s+-m\s+)?/;
const CHECKER = /^(flake8|black|isort|ruff|mypy)(?=\s|$)(.*)$/;
/** What the shell or GitHub would expand, chain or redirect: such a line is not one checker's call. */
const SHELL = /[|&;<>`$()]/;
/** Options that make a checker rewrite files, or succeed whatever it finds. */
const NOT_A_CHECK = /(?:^|\s)--(?:fix|unsafe-fixes|exit-zero|exit-non-zero-on-fix|in-place)(?:[=\s]|$)/;

/** Ruff's commands other than its check and formatter. */
const RUFF_OTHER_COMMANDS = new Set(["rule", "config", "linter", "clean", "version", "help", "server", "analyze"]);

const join = (...words: string[]): string => words.filter((w) => w !== "").join(" ");

/** The run lines of every step of every job, continuation lines (`\` at the end) joined. */
function runLines(workflow: unknown): string[] {
  if (typeof workflow !== "object" || workflow === null) return [];
  const jobs = (workflow as { jobs?: unknown }).jobs;
  if (typeof jobs !== "object" || jobs === null) return [];
  const lines: string[] = [];
  for (const job of Object.values(jobs as Record<string, unknown>)) {
    const steps = (job as { steps?: unknown } | null)?.steps;
    if (!Array.isArray(steps)) continue;
    for (const step of steps as unknown[]) {
      const run = (step as { run?: unknown } | null)?.run;
      if (typeof run !== "string") continue;
      lines.push(...run.replace(/\\\r?\n/g, " ").split(/\r?\n/));
    }
  }
  return lines.map((line) => line.trim().replace(/\s+/g, " "));
}

/** The check one run line is, as it is run here, with the checker it calls; undefined for any other line. */
function checkOf(line: string): { readonly id: MirroredHookId; readonly check: AddedCheck } | undefined {
  if (SHELL.test(line) || NOT_A_CHECK.test(line)) return undefined;
  const match = CHECKER.exec(line.replace(RUNNER_PREFIX, ""));
  if (match === null) return undefined;
  const tool = match[1]!;
  const rest = match[2]!.trim();
  const words = rest.split(" ");
  switch (tool) {
    case "flake8":
      // Set-up's virtual environment lives in the clone; CI's does not.
      return { id: "flake8", check: { command: join("flake8", rest, "--extend-exclude .venv"), checks: "lint" } };
    case "black":
      return words.includes("--check")
        ? { id: "black", check: { command: `black ${rest}`, checks: "lint" } }
        : undefined;
    case "isort":
      return words.some((w) => w === "--check" || w === "--check-only" || w === "-c")
        ? { id: "isort", check: { command: `isort ${rest}`, checks: "lint" } }
        : undefined;
    case "ruff": {
      if (words[0] === "format")
        return words.includes("--check")
          ? { id: "ruff-format", check: { command: `ruff ${rest}`, checks: "lint" } }
          : undefined;
      if (RUFF_OTHER_COMMANDS.has(words[0] ?? "")) return undefined;
      // `ruff <path>` is the check of Ruff before 0.1, and an error in later releases.
      const args = words[0] === "check" ? words.slice(1) : words;
      return { id: "ruff", check: { command: join("ruff", "check", ...args), checks: "lint" } };
    }
    default:
      return { id: "mypy", check: { command: join("mypy", rest), checks: "types" } };
  }
}

/** The checks the workflows (`path` → YAML text) run, by checker, each line once, in the order found. */
export function workflowChecks(workflows: ReadonlyMap<string, string>): Map<MirroredHookId, AddedCheck[]> {
  const found = new Map<MirroredHookId, AddedCheck[]>();
  for (const text of workflows.values()) {
    let workflow: unknown;
    try {
      workflow = parseYaml(text);
    } catch {
      continue;
    }
    for (const line of runLines(workflow)) {
      const check = checkOf(line);
      if (check === undefined) continue;
      const list = found.get(check.id) ?? [];
      if (!list.some((c) => c.command === check.check.command)) list.push(check.check);
      found.set(check.id, list);
    }
  }
  return found;
}
