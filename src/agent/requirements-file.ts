/**
 * A pip requirements file read as pip reads it, far enough to install its requirements one at a time: when pip
 * finds no distribution for one of them, it installs none of the file, and set-up over the machine's packages
 * (python-setup.ts) then tries each requirement alone so the others still arrive.
 */
import { posix } from "node:path";

/**
 * Whether set-up reads the file at `path` for its requirements: a requirements file at the top or in a
 * `requirements/` folder, which the files set-up installs include.
 */
export const isRequirementsFile = (path: string): boolean =>
  /^(?:[\w.-]*requirements[\w.-]*\.txt|requirements\/[\w.-]+\.(?:txt|in))$/.test(path);

/** A requirements file's requirements as pip arguments, one list each, and the options every one needs. */
export interface SplitRequirements {
  /** Each requirement's arguments: `['attrs>=21']`, `['-e', './plugin']`. */
  readonly requirements: readonly (readonly string[])[];
  /** Options that apply to the whole file (`-c constraints.txt`, `--extra-index-url …`), for each install. */
  readonly options: readonly string[];
}

/** Options that take a value, in their long and short spellings. */
const FILE_OPTIONS = new Set([
  "-c",
  "--constraint",
  "-i",
  "--index-url",
  "--extra-index-url",
  "-f",
  "--find-links",
  "--trusted-host",
  "--only-binary",
  "--no-binary",
]);
/** Options without a value that apply to the whole file. */
const FILE_FLAGS = new Set(["--pre", "--prefer-binary", "--no-index"]);
/** Options naming another file, read relative to the file that names it. */
const INCLUDES = new Set(["-r", "--requirement"]);
const FILE_PATHS = new Set(["-c", "--constraint"]);
const EDITABLE = new Set(["-e", "--editable"]);

/** A file holding more than this is not split: one pip start per requirement would cost more than it saves. */
const MAX_REQUIREMENTS = 60;

/**
 * The requirements of `path` (relative to the repository) and the files it includes, or undefined when it cannot
 * be split safely: a requirement pinned by hash (pip checks hashes only for a whole file), an option this reader
 * does not know, an included file it cannot read, or more than MAX_REQUIREMENTS.
 */
export function splitRequirements(
  path: string,
  read: (path: string) => string | undefined,
): SplitRequirements | undefined {
  const requirements: string[][] = [];
  const options: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string): boolean => {
    if (seen.has(file)) return true;
    seen.add(file);
    const text = read(file);
    if (text === undefined) return false;
    const folder = posix.dirname(file);
    // A relative path is the naming file's; an absolute one or a URL stands as it is.
    const relative = (value: string): string =>
      /^(?:\/|[a-z][a-z0-9+.-]*:)/i.test(value) ? value : posix.normalize(posix.join(folder, value));
    for (const line of logicalLines(text)) {
      const words = line.split(/\s+/);
      const first = words[0]!;
      if (!first.startsWith("-")) {
        // A requirement, alone on its line; per-requirement options (`--hash`, `--config-settings`) end the split.
        if (/\s--?[a-z]/i.test(line)) return false;
        requirements.push([line]);
        continue;
      }
      const [option, inlineValue] = splitOption(first);
      const value = inlineValue ?? words[1];
      if (INCLUDES.has(option) && value !== undefined) {
        if (!visit(relative(value))) return false;
      } else if (EDITABLE.has(option) && value !== undefined) {
        requirements.push(["-e", value]);
      } else if (FILE_OPTIONS.has(option) && value !== undefined) {
        options.push(option, FILE_PATHS.has(option) ? relative(value) : value);
      } else if (FILE_FLAGS.has(option) && inlineValue === undefined) {
        options.push(option);
      } else return false;
    }
    return true;
  };
  if (!visit(posix.normalize(path)) || requirements.length > MAX_REQUIREMENTS) return undefined;
  return { requirements, options };
}

/** `--opt=value` as its option and value; `-cfile` as `-c` and `file`. */
function splitOption(word: string): [string, string | undefined] {
  const equals = word.indexOf("=");
  if (word.startsWith("--")) return equals < 0 ? [word, undefined] : [word.slice(0, equals), word.slice(equals + 1)];
  return word.length > 2 ? [word.slice(0, 2), word.slice(2)] : [word, undefined];
}

/**
 * The file's lines as pip joins them (continuation backslashes joined, comments and blank lines dropped), their
 * whitespace runs made one space.
 */
function logicalLines(text: string): string[] {
  const joined = text.replace(/\\\r?\n/g, "");
  return joined
    .split(/\r?\n/)
    .map((line) =>
      line
        .replace(/(?:^|\s+)#.*$/, "")
        .trim()
        .replace(/\s+/g, " "),
    )
    .filter((line) => line !== "");
}
