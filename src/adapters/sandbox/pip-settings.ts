/**
 * Where the host's pip gets packages from (its index, extra indexes, find-links folders, trusted hosts,
 * constraints), passed to set-up as `PIP_*` variables with the local folders they name. pip in the sandbox reads no
 * configuration file of the host (its `/etc` is a short list, the home is a new one), so a host set up to install
 * from a company mirror or from wheels on its disk would otherwise send set-up to pypi.org, which such hosts often
 * cannot reach.
 *
 * The settings are read as pip reads them: the global files (`$XDG_CONFIG_DIRS/pip/pip.conf`, `/etc/pip.conf`),
 * the user's (`~/.pip/pip.conf`, `~/.config/pip/pip.conf`) unless `PIP_CONFIG_FILE` names a file, that file, then
 * the `PIP_*` variables; in each file the `[install]` section over `[global]`. A URL carrying credentials is left
 * out: set-up runs the repository's install scripts, which could read them.
 */
import { readFile } from "node:fs/promises";
import { carriesUrlCredentials } from "../../core/redact.js";
import { dirname, join } from "node:path";

/** pip's options about where packages come from, by the names its files and variables use. */
const KEYS = [
  "index-url",
  "extra-index-url",
  "find-links",
  "trusted-host",
  "constraint",
  "no-index",
  "prefer-binary",
  "only-binary",
  "no-binary",
] as const;

type Key = (typeof KEYS)[number];

/** Options whose values are URLs or paths that may point at the host's disk. */
const LOCATIONS: ReadonlySet<Key> = new Set(["index-url", "extra-index-url", "find-links", "constraint"]);

const variableOf = (key: Key): string => `PIP_${key.toUpperCase().replaceAll("-", "_")}`;

/**
 * The sections of a configparser file (what pip reads), keys lower-cased with `_` as `-`. Hand-written: the `ini`
 * package reads no continuation lines, and pip users list extra indexes on indented lines below the key.
 */
export function parsePipConfig(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | undefined;
  let last: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*[#;]/.test(raw) || raw.trim() === "") continue;
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header !== null) {
      section = new Map();
      sections.set(header[1]!.trim().toLowerCase(), section);
      last = undefined;
      continue;
    }
    if (/^\s/.test(raw) && section !== undefined && last !== undefined) {
      section.set(last, `${section.get(last)!}\n${raw.trim()}`);
      continue;
    }
    const pair = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(raw);
    if (pair === null || section === undefined) continue;
    last = pair[1]!.trim().toLowerCase().replaceAll("_", "-");
    section.set(last, pair[2]!.trim());
  }
  return sections;
}

/** The host folder or file a value points at, if it is local: an absolute path or a file: URL. */
function localPath(value: string): string | undefined {
  if (value.startsWith("/")) return value;
  if (!/^file:/i.test(value)) return undefined;
  try {
    return decodeURIComponent(new URL(value).pathname);
  } catch {
    return undefined;
  }
}

export interface PipSettings {
  /** `PIP_*` variables for set-up and tests. */
  readonly env: Readonly<Record<string, string>>;
  /** Host paths they name, to be shown read-only: an index's folder (the parent of a `simple` folder: its pages link to files beside it), find-links folders, constraint files. */
  readonly paths: readonly string[];
  /** Values left out because a URL in them carries credentials, by option. */
  readonly withheld: readonly string[];
}

/** The settings from the files' texts (in pip's load order) and the host's variables (pure). */
export function pipSettings(files: readonly string[], env: Readonly<Record<string, string | undefined>>): PipSettings {
  const values = new Map<Key, string>();
  for (const text of files) {
    const sections = parsePipConfig(text);
    for (const name of ["global", "install"]) {
      for (const [key, value] of sections.get(name) ?? []) {
        if ((KEYS as readonly string[]).includes(key)) values.set(key as Key, value);
      }
    }
  }
  for (const key of KEYS) {
    const value = env[variableOf(key)];
    if (value !== undefined && value !== "") values.set(key, value);
  }
  const out: Record<string, string> = {};
  const paths = new Set<string>();
  const withheld: string[] = [];
  for (const [key, value] of values) {
    // A relative path means the host's working folder, which the sandbox does not have: it is dropped.
    const items = value
      .split(/\s+/)
      .filter((item) => item !== "" && (!LOCATIONS.has(key) || /^(?:[a-z][a-z0-9+.-]*:|\/)/i.test(item)));
    const kept = items.filter((item) => !carriesUrlCredentials(item));
    if (kept.length < items.length) withheld.push(key);
    if (kept.length === 0) continue;
    out[variableOf(key)] = kept.join(" ");
    if (!LOCATIONS.has(key)) continue;
    for (const item of kept) {
      const path = localPath(item);
      if (path === undefined) continue;
      const trimmed = path.replace(/\/+$/, "") || "/";
      const isIndex = key === "index-url" || key === "extra-index-url";
      paths.add(isIndex && trimmed.endsWith("/simple") ? dirname(trimmed) : trimmed);
    }
  }
  return { env: out, paths: [...paths], withheld };
}

/** The configuration files pip would read on this host, by kind, in its load order within each (pure). */
export function pipConfigFiles(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): { readonly global: string[]; readonly user: string[]; readonly named?: string } {
  const named = env.PIP_CONFIG_FILE === undefined || env.PIP_CONFIG_FILE === "" ? undefined : env.PIP_CONFIG_FILE;
  const xdgDirs = (env.XDG_CONFIG_DIRS ?? "").split(":").filter((d) => d.startsWith("/"));
  const global = [
    ...(xdgDirs.length > 0 ? xdgDirs : ["/etc/xdg"]).map((d) => join(d, "pip", "pip.conf")),
    "/etc/pip.conf",
  ];
  const configHome = env.XDG_CONFIG_HOME?.startsWith("/") === true ? env.XDG_CONFIG_HOME : join(home, ".config");
  const user = [join(home, ".pip", "pip.conf"), join(configHome, "pip", "pip.conf")];
  return { global, user, ...(named === undefined ? {} : { named }) };
}

const readText = (path: string): Promise<string | undefined> => readFile(path, "utf8").catch(() => undefined);

/** The host's pip settings, read from its files and variables. */
export async function readPipSettings(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): Promise<PipSettings> {
  const files = pipConfigFiles(env, home);
  // PIP_CONFIG_FILE=/dev/null turns every file off; a file it names that exists replaces the user's.
  if (files.named === "/dev/null") return pipSettings([], env);
  const named = files.named === undefined ? undefined : await readText(files.named);
  const paths = [...files.global, ...(named === undefined ? files.user : [])];
  const texts: string[] = [];
  for (const path of paths) {
    const text = await readText(path);
    if (text !== undefined) texts.push(text);
  }
  return pipSettings(named === undefined ? texts : [...texts, named], env);
}
