/**
 * `.github/patchsmith.yml`: per-repository settings, read from the default branch only (never from a PR head, which
 * anyone who can open a pull request controls). Unknown keys are errors, so a typo cannot silently widen access.
 */
import { FORMAT_NAMES, type FormatName } from "../core/edit.js";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { TriggerRule } from "../github/authorize.js";
import type { ConfigLayers, GitHubGateway, RepoRef } from "../ports/github-gateway.js";

export const REPO_CONFIG_PATH = ".github/patchsmith.yml";
export const WORKFLOWS_GLOB = ".github/workflows/**";
const MAX_CONFIG_BYTES = 64 * 1024;

const command = z.string().trim().min(1).max(2000);

const repoConfigSchema = z.strictObject({
  /** Commands that install what the tests need (run with network, before the first test run); false: none. */
  setup: z.union([command, z.array(command).max(20), z.literal(false)]).optional(),
  test: z.string().trim().min(1).optional(),
  /** Variables for set-up and tests (on top of a CI runner's: CI=true). */
  env: z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a variable name"),
      z.union([z.string(), z.number(), z.boolean()]),
    )
    .optional(),
  model: z.string().trim().min(1).optional(),
  /** The dialect the model is taught (replies in any dialect are still read). */
  "edit-format": z.enum(FORMAT_NAMES).optional(),
  budget: z
    .strictObject({
      attempts: z.number().int().min(1).max(10).optional(),
      tokens: z.number().int().min(1000).max(5_000_000).optional(),
      minutes: z.number().min(1).max(240).optional(),
      /** How long one run of the tests may take (default 5 minutes), within the whole run's `minutes`. */
      "test-minutes": z.number().min(0.5).max(240).optional(),
    })
    .optional(),
  paths: z
    .strictObject({
      forbidden: z.array(z.string().min(1)).max(200).optional(),
      "allow-workflows": z.boolean().optional(),
    })
    .optional(),
  triggers: z
    .strictObject({
      "min-permission": z.enum(["write", "maintain", "admin"]).optional(),
      users: z.array(z.string().min(1)).optional(),
    })
    .optional(),
});

export interface RepoConfig {
  /** Set-up commands; an empty list turns detection off. */
  readonly setupCommands?: readonly string[];
  readonly testCommand?: string;
  readonly env: Readonly<Record<string, string>>;
  readonly model?: string;
  readonly editFormat?: FormatName;
  readonly maxAttempts: number;
  readonly tokenBudget: number;
  readonly wallTimeMs: number;
  /** How long one run of the tests may take; unset, the default (agent/test-runs.ts). */
  readonly testTimeoutMs?: number;
  /** Globs the fix may not touch; `.github/workflows/**` unless `paths.allow-workflows` is true. */
  readonly forbiddenPaths: readonly string[];
  readonly trigger: TriggerRule;
  /** True when the file exists (the result comment says which settings applied). */
  readonly fromFile: boolean;
}

/** What a fix may never touch unless the repository says otherwise: the workflows and this config file. */
export const DEFAULT_FORBIDDEN: readonly string[] = [WORKFLOWS_GLOB, REPO_CONFIG_PATH];

export const DEFAULT_REPO_CONFIG: RepoConfig = {
  env: {},
  maxAttempts: 3,
  tokenBudget: 200_000,
  wallTimeMs: 20 * 60_000,
  forbiddenPaths: DEFAULT_FORBIDDEN,
  trigger: { minPermission: "write" },
  fromFile: false,
};

export type RepoConfigResult =
  | { readonly ok: true; readonly config: RepoConfig }
  | { readonly ok: false; readonly reason: "invalid-yaml" | "invalid-config" | "too-large"; readonly message: string };

type RepoConfigFile = z.infer<typeof repoConfigSchema>;

const invalid = (source: string, error: z.ZodError): RepoConfigResult => ({
  ok: false,
  reason: "invalid-config",
  message: `${source} has settings patchsmith cannot use:\n${z.prettifyError(error)}`,
});

/** Parses the file's text; undefined (no file) gives the defaults. */
export function parseRepoConfig(text: string | undefined): RepoConfigResult {
  if (text === undefined) return { ok: true, config: DEFAULT_REPO_CONFIG };
  if (Buffer.byteLength(text, "utf8") > MAX_CONFIG_BYTES) {
    return { ok: false, reason: "too-large", message: `${REPO_CONFIG_PATH} is larger than 64 KiB.` };
  }
  let data: unknown;
  try {
    data = parseYaml(text, { maxAliasCount: 10 }) ?? {};
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: "invalid-yaml", message: `${REPO_CONFIG_PATH} is not valid YAML: ${detail}` };
  }
  const parsed = repoConfigSchema.safeParse(data);
  if (!parsed.success) return invalid(REPO_CONFIG_PATH, parsed.error);
  return { ok: true, config: configFromFile(parsed.data) };
}

function configFromFile(file: RepoConfigFile): RepoConfig {
  // The config file itself is never the model's to change: an injected instruction could widen who may trigger.
  const forbidden = [
    ...(file.paths?.["allow-workflows"] === true ? [] : [WORKFLOWS_GLOB]),
    REPO_CONFIG_PATH,
    ...(file.paths?.forbidden ?? []),
  ];
  return {
    ...(file.setup === undefined
      ? {}
      : { setupCommands: file.setup === false ? [] : typeof file.setup === "string" ? [file.setup] : file.setup }),
    ...(file.test === undefined ? {} : { testCommand: file.test }),
    env: Object.fromEntries(Object.entries(file.env ?? {}).map(([name, value]) => [name, String(value)])),
    ...(file.model === undefined ? {} : { model: file.model }),
    ...(file["edit-format"] === undefined ? {} : { editFormat: file["edit-format"] }),
    maxAttempts: file.budget?.attempts ?? DEFAULT_REPO_CONFIG.maxAttempts,
    tokenBudget: file.budget?.tokens ?? DEFAULT_REPO_CONFIG.tokenBudget,
    wallTimeMs: file.budget?.minutes === undefined ? DEFAULT_REPO_CONFIG.wallTimeMs : file.budget.minutes * 60_000,
    ...(file.budget?.["test-minutes"] === undefined ? {} : { testTimeoutMs: file.budget["test-minutes"] * 60_000 }),
    forbiddenPaths: [...new Set(forbidden)],
    trigger: {
      minPermission: file.triggers?.["min-permission"] ?? "write",
      ...(file.triggers?.users === undefined ? {} : { users: file.triggers.users }),
    },
    fromFile: true,
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Objects merged key by key (the later wins); lists and values replaced. */
function deepMerge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) merged[key] = key in base ? deepMerge(base[key], value) : value;
  return merged;
}

const PERMISSION_RANK = { write: 1, maintain: 2, admin: 3 } as const;

/** The organisation's protections, which a repository may tighten but never loosen. */
function withFloor(config: RepoConfig, floor: RepoConfig): RepoConfig {
  const minPermission =
    PERMISSION_RANK[floor.trigger.minPermission] > PERMISSION_RANK[config.trigger.minPermission]
      ? floor.trigger.minPermission
      : config.trigger.minPermission;
  const orgUsers = floor.trigger.users;
  const users =
    orgUsers === undefined
      ? config.trigger.users
      : (config.trigger.users ?? orgUsers).filter((user) =>
          orgUsers.some((allowed) => allowed.toLowerCase() === user.toLowerCase()),
        );
  return {
    ...config,
    forbiddenPaths: [...new Set([...floor.forbiddenPaths, ...config.forbiddenPaths])],
    trigger: { minPermission, ...(users === undefined ? {} : { users }) },
  };
}

/**
 * The settings of a repository from its layers: the organisation's file gives the defaults, the repository's own
 * file (and what it extends) overrides them key by key, and the organisation's protected paths and trigger rules are
 * a floor the repository cannot lower. Every layer is validated on its own, so an error names its file.
 */
export function resolveRepoConfig(layers: ConfigLayers): RepoConfigResult {
  const validated: RepoConfigFile[] = [];
  for (const layer of [...layers.org, ...layers.repo]) {
    if (JSON.stringify(layer.data ?? {}).length > MAX_CONFIG_BYTES) {
      return { ok: false, reason: "too-large", message: `${layer.source} is larger than 64 KiB.` };
    }
    const parsed = repoConfigSchema.safeParse(layer.data ?? {});
    if (!parsed.success) return invalid(layer.source, parsed.error);
    validated.push(parsed.data);
  }
  if (validated.length === 0) return { ok: true, config: DEFAULT_REPO_CONFIG };
  const merged = validated.reduce<unknown>((base, file) => deepMerge(base, file), {});
  const config = configFromFile(repoConfigSchema.parse(merged));
  if (layers.org.length === 0) return { ok: true, config };
  const orgFile = layers.org.map((l) => l.data).reduce<unknown>((base, data) => deepMerge(base, data ?? {}), {});
  return { ok: true, config: withFloor(config, configFromFile(repoConfigSchema.parse(orgFile))) };
}

/** Reads the config from the default branch, with the organisation's defaults and floor. */
export async function loadRepoConfig(
  gateway: GitHubGateway,
  repo: RepoRef,
  defaultBranch: string,
): Promise<RepoConfigResult> {
  let layers: ConfigLayers;
  try {
    layers = await gateway.getConfigLayers(repo, REPO_CONFIG_PATH, defaultBranch);
  } catch (error) {
    // probot's config plugin throws on a file it cannot parse (or an `_extends` loop): the file's author can fix it.
    const message = error instanceof Error ? error.message : String(error);
    const plugin = "[@probot/octokit-plugin-config] ";
    if (!message.startsWith(plugin)) throw error;
    return { ok: false, reason: "invalid-yaml", message: message.slice(plugin.length) };
  }
  return resolveRepoConfig(layers);
}
