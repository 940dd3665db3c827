/**
 * A formatter's check that failed names files, not what is wrong with them: Prettier's `--check` prints
 * `[warn] src/utils.ts`, Black's `--check` `would reformat src/x.py`, Ruff's `format --check` `Would reformat:
 * src/x.py`, isort's `--check-only` `ERROR: src/x.py
 * Imports are incorrectly sorted and/or formatted.`. Read from a run's output (pure), with the command that shows
 * what the formatter would write instead, so the model can write it (a linter that names the line and the rule
 * says enough already).
 */
import { HOOK_FILES_SHIM } from "./hook-files.js";
import { shellQuote } from "./shell-quote.js";

export type Formatter = "prettier" | "black" | "ruff" | "isort";

/** The files a formatter's failed check named, as paths in the repository. */
export interface FormatterComplaint {
  readonly formatter: Formatter;
  readonly paths: readonly string[];
  /** The options the check was given (shell words), which the command showing the changes is given too. */
  readonly options?: string;
}

/**
 * The options of a check patchsmith runs for a pre-commit hook (python-checks.ts), as written between the check's
 * own words and its target, if any: `black --check --line-length=100 .`, `isort --check-only --profile black .`,
 * `ruff format --check --line-length=100`; through the shim that picks a hook's files (hook-files.ts) too.
 */
const CHECK_OPTIONS: Readonly<Partial<Record<Formatter, RegExp>>> = {
  black: /^black --check (?!\.$)(.+?)(?: \.)?$/,
  isort: /^isort --check-only (?!\.$)(.+?)(?: \.)?$/,
  ruff: /^ruff format --check (.+)$/,
};

/** A check's command as the checker is called: without the shim that picks a hook's files. */
const checkerCall = (command: string): string =>
  command.startsWith(`${HOOK_FILES_SHIM} `) ? command.slice(command.indexOf(" -- ") + 4) : command;

/** At most this many files are shown: the first ones say what the formatter wants. */
export const MAX_FORMATTED_FILES = 3;

const NAMED_BY: readonly { readonly formatter: Formatter; readonly line: RegExp }[] = [
  // Prettier 2 and 3; its closing line ("Code style issues found …") is a warning too.
  { formatter: "prettier", line: /^\[warn\] (?!Code style issues )(\S.*?)\s*$/ },
  { formatter: "black", line: /^would reformat (\S.*?)\s*$/ },
  { formatter: "ruff", line: /^Would reformat: (\S.*?)\s*$/ },
  { formatter: "isort", line: /^ERROR: (\S.*?) Imports are incorrectly sorted and\/or formatted\.\s*$/ },
];

/** `path` as a path in the clone at `root`, or undefined when it is not one. */
function inRepository(path: string, root: string | undefined): string | undefined {
  let relative = path;
  if (root !== undefined && root !== "" && path.startsWith(`${root}/`)) relative = path.slice(root.length + 1);
  if (relative.startsWith("/") || relative.split("/").some((part) => part === ".." || part === "")) return undefined;
  return relative;
}

/**
 * The files each formatter's check named in `output` (a clone at `root` made relative), first ones first; with the
 * check's options when `command` (what printed the output) is a check that was given some.
 */
export function formatterComplaints(output: string, root?: string, command?: string): FormatterComplaint[] {
  const named = new Map<Formatter, string[]>();
  for (const line of output.split(/\r?\n/)) {
    for (const { formatter, line: pattern } of NAMED_BY) {
      const path = pattern.exec(line)?.[1];
      const relative = path === undefined ? undefined : inRepository(path, root);
      if (relative === undefined) continue;
      const paths = named.get(formatter) ?? [];
      if (!paths.includes(relative) && paths.length < MAX_FORMATTED_FILES) paths.push(relative);
      named.set(formatter, paths);
    }
  }
  return [...named].map(([formatter, paths]) => {
    const options = command === undefined ? undefined : CHECK_OPTIONS[formatter]?.exec(checkerCall(command))?.[1];
    return { formatter, paths, ...(options === undefined ? {} : { options }) };
  });
}

/** Prettier as the project installed it: one installed elsewhere is not the one its check ran. */
export const PRETTIER_BIN = "node_modules/.bin/prettier";

/**
 * The command that prints what the formatter would write: a unified diff for Black, Ruff and isort; the formatted
 * file for Prettier (one file a run, which has no diff mode). Its warnings go to stderr, which is dropped so that they
 * do not mix with the file.
 */
export function showCommand(formatter: Formatter, paths: readonly string[], options?: string): string {
  const files = paths.map(shellQuote).join(" ");
  const given = options === undefined ? "" : `${options} `;
  switch (formatter) {
    case "prettier":
      return `${PRETTIER_BIN} --no-color -- ${files} 2>/dev/null`;
    case "black":
      return `black --diff --quiet --no-color ${given}-- ${files} 2>/dev/null`;
    case "ruff":
      return `ruff format --diff --no-cache ${given}-- ${files} 2>/dev/null`;
    case "isort":
      return `isort --diff --quiet ${given}-- ${files} 2>/dev/null`;
  }
}
