/**
 * A pre-commit hook's `files` and `exclude` patterns, applied as pre-commit applies them: Python regular expressions
 * searched in each path of the repository (its tracked files, and the new files a change makes, which CI sees
 * tracked), the top level's and the hook's both, then the checker run on the Python files left. The checkers' own
 * exclusion options take globs, or regexes matched otherwise, and replace what the project's configuration excludes;
 * so the list is made here, by a small Python program put on PATH as a shim (python3 is what runs the checks).
 * `patchsmith-hook-files --exclude '^docs/' -- black --check` runs `black --check` on the files left, in chunks
 * the command line can hold, and fails when any chunk fails; with no file left it passes.
 */
import { shellQuote, shellWord } from "./shell-quote.js";

export const HOOK_FILES_SHIM = "patchsmith-hook-files";

const SCRIPT = `
import os, re, subprocess, sys
args = sys.argv[1:]
cut = args.index("--")
options, command = args[:cut], args[cut + 1:]
wanted = [re.compile(options[i + 1]) for i in range(len(options)) if options[i] == "--files"]
unwanted = [re.compile(options[i + 1]) for i in range(len(options)) if options[i] == "--exclude"]
listed = subprocess.run(
    ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], check=True, stdout=subprocess.PIPE
).stdout.decode("utf-8", "surrogateescape").split("\\0")
files = sorted(
    f for f in set(listed)
    if f.endswith((".py", ".pyi")) and os.path.isfile(f)
    and all(p.search(f) for p in wanted) and not any(p.search(f) for p in unwanted)
)
status = 0
for start in range(0, len(files), 2000):
    status = max(status, subprocess.run(command + files[start:start + 2000]).returncode)
sys.exit(status)
`;

/** The shim's command line: the program above, given the shim's arguments. */
export const HOOK_FILES_COMMAND = `python3 -c ${shellQuote(SCRIPT.trim())}`;

/** A hook's patterns: every `files` must match a path and no `exclude` may, top level first. */
export interface HookFilters {
  readonly files: readonly string[];
  readonly exclude: readonly string[];
}

/** `command` run on the files `filters` leave, through the shim; `command` alone when there are none. */
export function onHookFiles(command: string, filters: HookFilters): string {
  if (filters.files.length === 0 && filters.exclude.length === 0) return command;
  const patterns = [
    ...filters.files.map((p) => `--files ${shellWord(p)}`),
    ...filters.exclude.map((p) => `--exclude ${shellWord(p)}`),
  ];
  return [HOOK_FILES_SHIM, ...patterns, "--", command].join(" ");
}
