/**
 * `patchsmith fix`: the whole loop on a repository without GitHub (DESIGN section 4). Progress goes to stderr,
 * the report (Markdown, or JSON with --json) to stdout. Exit 0 on success, 1 otherwise, 2 for a usage error.
 */
import { FORMAT_NAMES, isFormatName } from "../core/edit.js";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { checkBranchName } from "../agent/branch.js";
import { parseIdentity } from "../agent/commit-message.js";
import { renderReportMarkdown, toJsonReport } from "../agent/render-report.js";
import { runFix } from "../agent/run-fix.js";
import type { FixRequest } from "../agent/types.js";
import { modelSettings, parseEnv } from "../config/env.js";
import { redactSecrets } from "../core/redact.js";
import { isRemoteUrl } from "../core/repo-location.js";
import { USAGE } from "./usage.js";

const OPTIONS = {
  repo: { type: "string" },
  branch: { type: "string" },
  into: { type: "string" },
  test: { type: "string" },
  setup: { type: "string", multiple: true },
  "no-setup": { type: "boolean" },
  model: { type: "string" },
  "edit-format": { type: "string" },
  "max-attempts": { type: "string" },
  "token-budget": { type: "string" },
  "test-minutes": { type: "string" },
  "co-author": { type: "string" },
  push: { type: "boolean" },
  keep: { type: "boolean" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Parsed =
  | { readonly ok: true; readonly request: FixRequest; readonly json: boolean }
  | { readonly ok: false; readonly message: string; readonly help?: boolean };

function positiveInt(value: string | undefined, flag: string): number | undefined | Error {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    return new Error(`${flag} must be a positive whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Pure: argv → a request, or a usage error. */
export function parseFixArgs(argv: readonly string[], cwd: string): Parsed {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help === true) return { ok: false, message: "", help: true };
  if (values.repo === undefined || values.repo.trim() === "")
    return { ok: false, message: "--repo PATH|URL is required" };
  const instruction = positionals.join(" ").trim();
  if (instruction === "")
    return { ok: false, message: 'the instruction is missing, e.g. patchsmith fix --repo . "fix the parser"' };
  for (const [flag, name] of [
    ["--branch", values.branch],
    ["--into", values.into],
  ] as const) {
    if (name === undefined) continue;
    const check = checkBranchName(name);
    if (!check.ok) return { ok: false, message: `${flag} ${JSON.stringify(name)} ${check.why}` };
  }
  if (values["co-author"] !== undefined && parseIdentity(values["co-author"]) === undefined) {
    return { ok: false, message: '--co-author must read "Name <email>"' };
  }
  if (values.setup !== undefined && values["no-setup"] === true) {
    return { ok: false, message: "--setup and --no-setup exclude each other" };
  }
  if (values.setup?.some((command) => command.trim() === "") === true) {
    return { ok: false, message: '--setup needs a command, e.g. --setup "npm ci"' };
  }
  const editFormat = values["edit-format"];
  if (editFormat !== undefined && !isFormatName(editFormat)) {
    return { ok: false, message: `--edit-format must be one of ${FORMAT_NAMES.join(", ")}` };
  }
  const maxAttempts = positiveInt(values["max-attempts"], "--max-attempts");
  if (maxAttempts instanceof Error) return { ok: false, message: maxAttempts.message };
  const tokenBudget = positiveInt(values["token-budget"], "--token-budget");
  if (tokenBudget instanceof Error) return { ok: false, message: tokenBudget.message };
  const testMinutes = values["test-minutes"];
  if (testMinutes !== undefined && !(/^\d+(?:\.\d+)?$/.test(testMinutes) && Number(testMinutes) > 0)) {
    return { ok: false, message: `--test-minutes must be a positive number, got ${JSON.stringify(testMinutes)}` };
  }
  const request: FixRequest = {
    repo: isRemoteUrl(values.repo) ? values.repo : resolve(cwd, values.repo),
    instruction,
    ...(values.branch !== undefined ? { branch: values.branch } : {}),
    ...(values.into !== undefined ? { into: values.into } : {}),
    ...(values.test !== undefined ? { testCommand: values.test } : {}),
    ...(values["no-setup"] === true
      ? { setup: false as const }
      : values.setup !== undefined
        ? { setup: values.setup }
        : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(editFormat !== undefined ? { editFormat } : {}),
    ...(maxAttempts !== undefined ? { maxAttempts } : {}),
    ...(tokenBudget !== undefined ? { tokenBudget } : {}),
    ...(testMinutes !== undefined ? { testTimeoutMs: Number(testMinutes) * 60_000 } : {}),
    ...(values["co-author"] !== undefined ? { coAuthor: values["co-author"] } : {}),
    ...(values.push === true ? { push: { lease: null } } : {}),
    ...(values.keep === true ? { keep: true } : {}),
    trailers: { "Patchsmith-Request": "patchsmith fix (command line)" },
  };
  return { ok: true, request, json: values.json === true };
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFixArgs(argv, process.cwd());
  if (!parsed.ok) {
    if (parsed.help === true) {
      process.stdout.write(USAGE);
      return 0;
    }
    process.stderr.write(`patchsmith fix: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  const env = parseEnv(process.env);
  if (!env.ok) {
    process.stderr.write(`patchsmith fix: ${env.message}\n`);
    return 2;
  }
  const model = modelSettings(env.env, process.env, (path) => readFileSync(path, "utf8"));
  if (!model.ok) {
    process.stderr.write(`patchsmith fix: ${model.message}\n`);
    return 2;
  }
  // Adapters load only once the arguments are known to be good.
  const { composeFixDeps } = await import("../compose.js");
  const deps = composeFixDeps(env.env, model.settings);
  const report = await runFix(deps, {
    ...parsed.request,
    onProgress: (stage, detail) =>
      process.stderr.write(`patchsmith: ${stage}${detail === undefined ? "" : ` (${detail})`}\n`),
  });
  // The loop redacts what it reports; this last pass covers anything a future field forgets.
  const text = parsed.json ? `${JSON.stringify(toJsonReport(report), null, 2)}\n` : renderReportMarkdown(report);
  process.stdout.write(redactSecrets(text, deps.secrets ?? []));
  return report.status === "success" ? 0 : 1;
}
