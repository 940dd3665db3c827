/**
 * What the workflow gives the Action (pure): its inputs, as the runner passes them (`INPUT_<NAME>` variables, the
 * name upper-cased, spaces as underscores), and the runner's own variables. The inputs become the variables the
 * CLI reads (config/env.ts), so the Action runs the fix loop with the same settings code as `patchsmith fix`.
 */
import { z } from "zod";
import { FORMAT_NAMES, type FormatName } from "../core/edit.js";

const text = z
  .string()
  .transform((v) => v.trim())
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v));
const whole = (min: number, max: number) =>
  text.pipe(
    z.string().regex(/^\d+$/, "must be a whole number").transform(Number).pipe(z.number().min(min).max(max)).optional(),
  );

const inputsSchema = z.object({
  "github-token": text.pipe(z.string({ error: "is required (github-token: ${{ github.token }})" })),
  "openai-api-key": text,
  "openai-base-url": text.pipe(z.url({ protocol: /^https?$/ }).optional()),
  model: text,
  "edit-format": text.pipe(z.enum(FORMAT_NAMES).optional()),
  "max-attempts": whole(1, 10),
  "token-budget": whole(1000, 5_000_000),
  minutes: whole(1, 240),
  "test-minutes": whole(1, 240),
  "test-command": text,
  /** One command per line; "false" turns set-up off. */
  setup: text,
  sandbox: text.pipe(z.enum(["auto", "bwrap", "none"]).optional()),
});

/** The inputs action.yml declares (a test holds the two lists together). */
export const INPUT_NAMES: readonly string[] = Object.keys(inputsSchema.shape);

const runnerSchema = z.object({
  GITHUB_EVENT_NAME: z.string().min(1),
  GITHUB_EVENT_PATH: z.string().min(1),
  GITHUB_API_URL: z.url().default("https://api.github.com"),
  GITHUB_WORKSPACE: text,
  GITHUB_OUTPUT: text,
  GITHUB_STEP_SUMMARY: text,
  RUNNER_TEMP: text,
});

export interface ActionSettings {
  readonly token: string;
  readonly eventName: string;
  readonly eventPath: string;
  /** The API (GITHUB_API_URL); clone and page URLs come from its answers, so GitHub Enterprise Server just works. */
  readonly apiUrl: string;
  /** The workflow's checkout, if it made one: its objects are borrowed by the throwaway clone. */
  readonly workspace?: string;
  readonly outputFile?: string;
  readonly summaryFile?: string;
  readonly tempRoot?: string;
  readonly editFormat?: FormatName;
  readonly maxAttempts?: number;
  readonly tokenBudget?: number;
  readonly wallTimeMs?: number;
  readonly testTimeoutMs?: number;
  readonly testCommand?: string;
  readonly setup?: readonly string[] | false;
  /** The CLI's variables for the model and the sandbox (OPENAI_API_KEY, PATCHSMITH_TEST_SANDBOX, ...). */
  readonly cliEnv: Readonly<Record<string, string>>;
}

export type SettingsResult =
  { readonly ok: true; readonly settings: ActionSettings } | { readonly ok: false; readonly message: string };

/** The value of input `name` as the runner passes it. */
export const inputVariable = (name: string): string => `INPUT_${name.replace(/ /g, "_").toUpperCase()}`;

function problems(error: z.ZodError, label: (path: string) => string): string {
  return error.issues.map((issue) => `${label(issue.path.join("."))}: ${issue.message}`).join("; ");
}

export function readSettings(vars: Readonly<Record<string, string | undefined>>): SettingsResult {
  const inputs = inputsSchema.safeParse(
    Object.fromEntries(INPUT_NAMES.map((name) => [name, vars[inputVariable(name)]])),
  );
  if (!inputs.success) return { ok: false, message: `invalid input: ${problems(inputs.error, (p) => `'${p}'`)}` };
  const runner = runnerSchema.safeParse(vars);
  if (!runner.success) {
    return { ok: false, message: `not run by GitHub Actions (${problems(runner.error, (p) => p)})` };
  }
  const i = inputs.data;
  const r = runner.data;
  const setupLines = i.setup
    ?.split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const cliEnv: Record<string, string> = {
    ...(i["openai-api-key"] === undefined ? {} : { OPENAI_API_KEY: i["openai-api-key"] }),
    ...(i["openai-base-url"] === undefined ? {} : { OPENAI_BASE_URL: i["openai-base-url"] }),
    ...(i.model === undefined ? {} : { PATCHSMITH_MODEL: i.model }),
    PATCHSMITH_TEST_SANDBOX: i.sandbox ?? "auto",
  };
  return {
    ok: true,
    settings: {
      token: i["github-token"],
      eventName: r.GITHUB_EVENT_NAME,
      eventPath: r.GITHUB_EVENT_PATH,
      apiUrl: r.GITHUB_API_URL.replace(/\/+$/, ""),
      ...(r.GITHUB_WORKSPACE === undefined ? {} : { workspace: r.GITHUB_WORKSPACE }),
      ...(r.GITHUB_OUTPUT === undefined ? {} : { outputFile: r.GITHUB_OUTPUT }),
      ...(r.GITHUB_STEP_SUMMARY === undefined ? {} : { summaryFile: r.GITHUB_STEP_SUMMARY }),
      ...(r.RUNNER_TEMP === undefined ? {} : { tempRoot: r.RUNNER_TEMP }),
      ...(i["edit-format"] === undefined ? {} : { editFormat: i["edit-format"] }),
      ...(i["max-attempts"] === undefined ? {} : { maxAttempts: i["max-attempts"] }),
      ...(i["token-budget"] === undefined ? {} : { tokenBudget: i["token-budget"] }),
      ...(i.minutes === undefined ? {} : { wallTimeMs: i.minutes * 60_000 }),
      ...(i["test-minutes"] === undefined ? {} : { testTimeoutMs: i["test-minutes"] * 60_000 }),
      ...(i["test-command"] === undefined ? {} : { testCommand: i["test-command"] }),
      ...(setupLines === undefined
        ? {}
        : { setup: setupLines.length === 1 && setupLines[0] === "false" ? false : setupLines }),
      cliEnv,
    },
  };
}
