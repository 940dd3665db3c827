/**
 * `.github/patchsmith.yml` for a run that trusts the clone (`patchsmith fix` on one's own repository): the same
 * settings the App reads from the default branch, read from the branch being fixed. What the request says (the
 * command line's flags) wins over the file, and the file over the defaults. The App never comes here: a PR head
 * is whoever opened the pull request's to write (its settings come from the default branch, run-fix-job.ts).
 */
import { REPO_CONFIG_PATH, parseRepoConfig } from "../config/repo-config.js";
import type { FixRequest } from "./types.js";

export type SettingsOutcome =
  | {
      readonly ok: true;
      readonly request: FixRequest;
      /** The file's test command (used when the request names none). */
      readonly testCommand?: string;
      readonly note?: string;
    }
  | { readonly ok: false; readonly reason: "invalid-config"; readonly message: string };

/** `request` with the settings of the config file's text (undefined: no file) filled in where it says nothing. */
export function withRepoSettings(request: FixRequest, configText: string | undefined): SettingsOutcome {
  if (configText === undefined) return { ok: true, request };
  const parsed = parseRepoConfig(configText);
  if (!parsed.ok) {
    return {
      ok: false,
      reason: "invalid-config",
      message: `${parsed.message}\nFix the file (or remove it) and run again; nothing was changed.`,
    };
  }
  const { config } = parsed;
  const merged: FixRequest = {
    ...request,
    ...(request.model === undefined && config.model !== undefined ? { model: config.model } : {}),
    ...(request.editFormat === undefined && config.editFormat !== undefined ? { editFormat: config.editFormat } : {}),
    maxAttempts: request.maxAttempts ?? config.maxAttempts,
    tokenBudget: request.tokenBudget ?? config.tokenBudget,
    wallTimeMs: request.wallTimeMs ?? config.wallTimeMs,
    ...(request.testTimeoutMs === undefined && config.testTimeoutMs !== undefined
      ? { testTimeoutMs: config.testTimeoutMs }
      : {}),
    forbiddenPaths: request.forbiddenPaths ?? config.forbiddenPaths,
    ...(request.configuredSetup === undefined && config.setupCommands !== undefined
      ? { configuredSetup: config.setupCommands }
      : {}),
    env: { ...config.env, ...(request.env ?? {}) },
  };
  return {
    ok: true,
    request: merged,
    ...(config.testCommand === undefined ? {} : { testCommand: config.testCommand }),
    note: `Settings from ${REPO_CONFIG_PATH} on the branch that was cloned (command-line flags win over them).`,
  };
}
