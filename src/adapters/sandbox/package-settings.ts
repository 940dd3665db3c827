/**
 * Where the host's package managers get packages from, as set-up in the sandbox should see it: pip's settings
 * (pip-settings.ts) and npm's registry (npm-settings.ts) as variables, the host paths pip's name (shown read-only by
 * host-view.ts), the registries they name (admitted by the egress proxy as the public ones are: egress-rules.ts)
 * and the settings left out for their credentials (named where the sandbox is described at start-up).
 */
import { urlHosts, type EgressRule } from "./egress-rules.js";
import { readNpmSettings } from "./npm-settings.js";
import { readPipSettings } from "./pip-settings.js";

export interface PackageSettings {
  /** Variables that apply to set-up and tests, with or without a sandbox. */
  readonly env: Readonly<Record<string, string>>;
  /** Host folders and files the settings name. */
  readonly paths: readonly string[];
  readonly hosts: readonly EgressRule[];
  /** `pip's index-url`, `npm's registry`: settings left out because they carry credentials. */
  readonly withheld: readonly string[];
}

export const NO_PACKAGE_SETTINGS: PackageSettings = { env: {}, paths: [], hosts: [], withheld: [] };

export async function readPackageSettings(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): Promise<PackageSettings> {
  const pip = await readPipSettings(env, home);
  const npm = await readNpmSettings(env, home);
  const variables = { ...pip.env, ...npm.env };
  return {
    env: variables,
    paths: pip.paths,
    hosts: urlHosts(Object.values(variables)),
    withheld: [...pip.withheld.map((key) => `pip's ${key}`), ...npm.withheld.map((key) => `npm's ${key}`)],
  };
}
