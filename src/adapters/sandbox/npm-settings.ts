/**
 * The registry the host's npm installs from (its `registry` and `@scope:registry` settings), passed to set-up as
 * variables: the sandbox's home is a new one, so the service user's `~/.npmrc` is not read there, and a host set up
 * for a company mirror would otherwise send set-up to registry.npmjs.org. Yarn Berry and corepack read their own
 * variables, which get the same registry. Tokens (`//host/:_authToken`) never pass, nor a URL with credentials:
 * set-up runs the repository's install scripts. A committed `.npmrc` in the repository is read as it is.
 */
import { readFile } from "node:fs/promises";
import { carriesUrlCredentials } from "../../core/redact.js";
import { join } from "node:path";

export interface NpmSettings {
  readonly env: Readonly<Record<string, string>>;
  /** Settings left out because they carry credentials. */
  readonly withheld: readonly string[];
}

/** The registry settings of an npmrc text: `registry` and `@scope:registry`, quotes taken off (pure). */
export function npmrcRegistries(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*((?:@[\w.-]+:)?registry)\s*=\s*(.*?)\s*$/.exec(line);
    if (match === null) continue;
    found.set(match[1]!, match[2]!.replace(/^(["'])(.*)\1$/, "$2"));
  }
  return found;
}

/** The settings from the user's npmrc text and the host's variables, the variable winning (pure). */
export function npmSettings(
  userrc: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): NpmSettings {
  const registries = npmrcRegistries(userrc ?? "");
  const fromEnv = env.npm_config_registry ?? env.NPM_CONFIG_REGISTRY;
  if (fromEnv !== undefined && fromEnv !== "") registries.set("registry", fromEnv);
  const out: Record<string, string> = {};
  const withheld: string[] = [];
  for (const [key, value] of registries) {
    if (value === "" || value.includes("${")) continue;
    if (carriesUrlCredentials(value)) {
      withheld.push(key);
      continue;
    }
    out[`npm_config_${key}`] = value;
    if (key === "registry") {
      out.YARN_NPM_REGISTRY_SERVER = value;
      out.COREPACK_NPM_REGISTRY = value.replace(/\/+$/, "");
    }
  }
  return { env: out, withheld };
}

/** The host's npm registry settings: the user config npm reads (`npm_config_userconfig`, else `~/.npmrc`). */
export async function readNpmSettings(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): Promise<NpmSettings> {
  const path = env.npm_config_userconfig ?? env.NPM_CONFIG_USERCONFIG ?? join(home, ".npmrc");
  const text = await readFile(path, "utf8").catch(() => undefined);
  return npmSettings(text, env);
}
