/**
 * `.github/patchsmith.yml`: per-repository settings, read from the default branch only (never from a PR head, which
 * anyone who can open a pull request controls). Unknown keys are errors, so a typo cannot silently widen access.
 */
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { TriggerRule } from "../github/authorize.js";
import type { GitHubGateway, RepoRef } from "../ports/github-gateway.js";

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
  budget: z
    .strictObject({
      attempts: z.number().int().min(1).max(10).optional(),
      tokens: z.number().int().min(1000).max(5_000_000).optional(),
      minutes: z.number().min(1).max(240).optional(),
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
  readonly maxAttempts: number;
  readonly tokenBudget: number;
  readonly wallTimeMs: number;
  /** Globs the fix may not touch; `.github/workflows/**` unless `paths.allow-workflows` is true. */
  readonly forbiddenPaths: readonly string[];
  readonly trigger: TriggerRule;
  /** True when the file exists (the result comment says which settings applied). */
  readonly fromFile: boolean;
}

export const DEFAULT_REPO_CONFIG: RepoConfig = {
  env: {},
  maxAttempts: 3,
  tokenBudget: 200_000,
  wallTimeMs: 20 * 60_000,
  forbiddenPaths: [WORKFLOWS_GLOB, REPO_CONFIG_PATH],
  trigger: { minPermission: "write" },
  fromFile: false,
};

export type RepoConfigResult =
  | { readonly ok: true; readonly config: RepoConfig }
  | { readonly ok: false; readonly reason: "invalid-yaml" | "invalid-config" | "too-large"; readonly message: string };

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
  if (!parsed.success) {
    return {
      ok: false,
      reason: "invalid-config",
      message: `${REPO_CONFIG_PATH} has settings patchsmith cannot use:\n${z.prettifyError(parsed.error)}`,
    };
  }
  const file = parsed.data;
  // The config file itself is never the model's to change: an injected instruction could widen who may trigger.
  const forbidden = [
    ...(file.paths?.["allow-workflows"] === true ? [] : [WORKFLOWS_GLOB]),
    REPO_CONFIG_PATH,
    ...(file.paths?.forbidden ?? []),
  ];
  const config: RepoConfig = {
    ...(file.setup === undefined
      ? {}
      : { setupCommands: file.setup === false ? [] : typeof file.setup === "string" ? [file.setup] : file.setup }),
    ...(file.test === undefined ? {} : { testCommand: file.test }),
    env: Object.fromEntries(Object.entries(file.env ?? {}).map(([name, value]) => [name, String(value)])),
    ...(file.model === undefined ? {} : { model: file.model }),
    maxAttempts: file.budget?.attempts ?? DEFAULT_REPO_CONFIG.maxAttempts,
    tokenBudget: file.budget?.tokens ?? DEFAULT_REPO_CONFIG.tokenBudget,
    wallTimeMs: file.budget?.minutes === undefined ? DEFAULT_REPO_CONFIG.wallTimeMs : file.budget.minutes * 60_000,
    forbiddenPaths: [...new Set(forbidden)],
    trigger: {
      minPermission: file.triggers?.["min-permission"] ?? "write",
      ...(file.triggers?.users === undefined ? {} : { users: file.triggers.users }),
    },
    fromFile: true,
  };
  return { ok: true, config };
}

/** Reads and parses the config from the default branch. */
export async function loadRepoConfig(
  gateway: GitHubGateway,
  repo: RepoRef,
  defaultBranch: string,
): Promise<RepoConfigResult> {
  return parseRepoConfig(await gateway.getFileContent(repo, REPO_CONFIG_PATH, defaultBranch));
}
