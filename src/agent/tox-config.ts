/**
 * What tox.ini says its test environment installs (pure): the `deps` and `extras` of `[testenv]`. Many projects
 * name pytest and their test-only packages there and nowhere else (`deps = pytest`), so a set-up that ignored the
 * file ran the tests without them. tox's own syntax is read as far as a set-up needs it: values continued on
 * indented lines, comments, and factor conditions (`unit: pytest`, `py311,py312: x`, `!pypy: y`), of which the
 * lines for a test environment are kept. The `ini` parser on npm does not read continued values or conditions.
 * Detection reads the environments' `commands` too (which runner the project says it uses).
 */

/** Factors a test environment has: the names tox projects give it, and the Python factors any version matches. */
const TEST_FACTORS = new Set(["test", "tests", "testing", "unit", "unittest", "unittests", "pytest", "py", "py3"]);

export interface ToxTestEnv {
  /** pip arguments, one entry each: a requirement, or an option with its value (`-r requirements.txt`). */
  readonly deps: readonly (readonly string[])[];
  readonly extras: readonly string[];
}

const NONE: ToxTestEnv = { deps: [], extras: [] };

/** Each section's values by key, continuation lines joined to their key's value by newlines. */
function sections(text: string): Map<string, Map<string, string>> {
  const found = new Map<string, Map<string, string>>();
  let values: Map<string, string> | undefined;
  let key: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header !== null) {
      values = new Map();
      found.set(header[1]!.trim(), values);
      key = undefined;
      continue;
    }
    if (values === undefined || /^\s*[#;]/.test(raw) || raw.trim() === "") continue;
    if (/^\s/.test(raw)) {
      const value = key === undefined ? undefined : values.get(key);
      if (value !== undefined) values.set(key!, value === "" ? raw.trim() : `${value}\n${raw.trim()}`);
      continue;
    }
    const pair = /^([^=]+?)\s*=\s*(.*)$/.exec(raw);
    key = pair?.[1]?.trim();
    if (key !== undefined) values.set(key, pair![2]!.trim());
  }
  return found;
}

/**
 * Whether a factor condition holds for a test environment: one of its alternatives (`a,b`) has all its factors
 * (`a-b`) among the test factors, and none of its negated ones (`!docs`) among them. A Python version (`py311`)
 * is not known before set-up: lines for one are left out.
 */
function holdsForTests(condition: string): boolean {
  return condition.split(",").some((alternative) =>
    alternative
      .trim()
      .split("-")
      .every((factor) => (factor.startsWith("!") ? !TEST_FACTORS.has(factor.slice(1)) : TEST_FACTORS.has(factor))),
  );
}

/** The entries of a value that apply to a test environment, conditions taken off, comments and blanks dropped. */
function entries(value: string | undefined): string[] {
  const kept: string[] = [];
  for (const line of (value ?? "").replace(/\\\n/g, " ").split("\n")) {
    const text = line.replace(/(^|\s)#.*$/, "").trim();
    if (text === "") continue;
    const conditional = /^([!\w.,-]+):\s+(.*)$/.exec(text);
    if (conditional === null) kept.push(text);
    else if (holdsForTests(conditional[1]!)) kept.push(conditional[2]!.trim());
  }
  return kept;
}

/** A `deps` entry as pip arguments; undefined for what a set-up cannot pass on (substitutions, `-e`, other options). */
function depArguments(written: string): string[] | undefined {
  // Set-up runs where tox.ini is; other substitutions (`{[base]deps}`, `{env:X}`) only tox can expand.
  const entry = written.replace(/\{toxinidir\}\//g, "").replace(/\{toxinidir\}/g, ".");
  if (entry.includes("{")) return undefined;
  const file = /^(?:-r|--requirement)\s*=?\s*(\S+)$/.exec(entry) ?? /^(?:-c|--constraint)\s*=?\s*(\S+)$/.exec(entry);
  if (file !== null) return [entry.startsWith("-c") || entry.startsWith("--c") ? "-c" : "-r", file[1]!];
  if (entry.startsWith("-")) return undefined;
  return [entry];
}

/** `[testenv]`'s deps and extras, for a test environment; nothing when there is no tox.ini or no such section. */
export function toxTestEnv(toxIni: string | undefined): ToxTestEnv {
  const values = toxIni === undefined ? undefined : sections(toxIni).get("testenv");
  if (values === undefined) return NONE;
  const deps = entries(values.get("deps"))
    .map(depArguments)
    .filter((args): args is string[] => args !== undefined);
  const extras = entries(values.get("extras"))
    .flatMap((entry) => entry.split(","))
    .map((name) => name.trim())
    .filter((name) => /^[A-Za-z0-9_.-]+$/.test(name));
  return { deps, extras };
}

/** The commands of every test environment (`[testenv]`, `[testenv:name]`), one text. */
export function toxCommands(toxIni: string | undefined): string {
  if (toxIni === undefined) return "";
  return [...sections(toxIni)]
    .filter(([name]) => name === "testenv" || name.startsWith("testenv:"))
    .map(([, values]) => values.get("commands") ?? "")
    .join("\n");
}
