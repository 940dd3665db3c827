/**
 * The process environment, parsed once with zod (DESIGN section 5). Everything is optional here; each use case
 * asks for what it needs (`modelSettings` for the model) and gets a readable error instead of a crash.
 */
import { z } from "zod";
import { parseEgressRules } from "../adapters/sandbox/egress-rules.js";
import { parseBytes } from "../core/bytes.js";
import { parseModelRoutes, type ModelRoute } from "./model-routes.js";

const optionalText = z
  .string()
  .transform((v) => v.trim())
  .pipe(z.string())
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v));

const wholeNumber = (min: number) =>
  z.string().regex(/^\d+$/, "must be a whole number").transform(Number).pipe(z.number().min(min)).optional();

/** A size such as "4G", of at least `min` (written as the message shows it). */
const size = (min: number, shown: string, example: string) =>
  z
    .string()
    .transform((text, ctx) => {
      const bytes = parseBytes(text);
      if (bytes === undefined || bytes < min) {
        ctx.addIssue({ code: "custom", message: `must be a size of at least ${shown}, e.g. "${example}"` });
        return z.NEVER;
      }
      return bytes;
    })
    .optional();

export const envSchema = z.object({
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  PATCHSMITH_MODEL: optionalText,
  /** Sandbox of set-up and tests: bubblewrap when it works ("auto"), always ("bwrap"), or never ("none"). */
  PATCHSMITH_TEST_SANDBOX: optionalText.pipe(z.enum(["auto", "bwrap", "none"]).optional()),
  /** Who sandboxed commands run as under a root service: an account name or uid:gid (never root). */
  PATCHSMITH_SANDBOX_USER: optionalText,
  /** Memory of a sandboxed run's whole process tree, e.g. "4G". */
  PATCHSMITH_SANDBOX_MEMORY: optionalText.pipe(size(64 * 1024 ** 2, "64M", "4G")),
  /** Processes and threads at once in a sandboxed run. */
  PATCHSMITH_SANDBOX_PROCESSES: optionalText.pipe(wholeNumber(16)),
  /** CPU seconds of a sandboxed run's whole process tree. */
  PATCHSMITH_SANDBOX_CPU_SECONDS: optionalText.pipe(wholeNumber(1)),
  /** Free space of the clone's volume a sandboxed run may take, e.g. "16G". */
  PATCHSMITH_SANDBOX_DISK: optionalText.pipe(size(1024 ** 2, "1M", "16G")),
  /** Extra folders shown read-only in the sandbox (colon-separated), e.g. a toolchain the PATH does not name. */
  PATCHSMITH_SANDBOX_READONLY: optionalText,
  /** "on" (default): set-up reaches the allow-listed registries; "off": only what the caches hold. */
  PATCHSMITH_SETUP_NETWORK: optionalText.pipe(z.enum(["on", "off"]).optional()),
  /** Hosts set-up may reach, added to the package registries ("host", "host:port", "*.domain", "*"). */
  PATCHSMITH_SETUP_HOSTS: optionalText.pipe(
    z
      .string()
      .transform((text, ctx) => {
        const parsed = parseEgressRules(text);
        if (parsed.errors.length > 0) {
          ctx.addIssue({ code: "custom", message: `cannot read ${parsed.errors.join(", ")}` });
          return z.NEVER;
        }
        return parsed.rules;
      })
      .optional(),
  ),
  /** Also read by `serve`, whose own variables (the App's, the port, Redis) are github/app-env.ts's alone. */
  PATCHSMITH_DATA_DIR: optionalText,
  /** The operator's model table (config/model-routes.ts): endpoints, names and prices per model. */
  PATCHSMITH_MODELS_FILE: optionalText,
});

export type Env = z.infer<typeof envSchema>;

export type EnvResult = { readonly ok: true; readonly env: Env } | { readonly ok: false; readonly message: string };

export function parseEnv(source: Readonly<Record<string, string | undefined>>): EnvResult {
  const parsed = envSchema.safeParse(source);
  if (parsed.success) return { ok: true, env: parsed.data };
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  return { ok: false, message: `invalid environment: ${problems.join("; ")}` };
}

export const DEFAULT_MODEL = "gpt-4.1";

export interface ModelSettings {
  readonly apiKey: string;
  readonly baseURL?: string;
  readonly model: string;
  /** Model names the operator routes to other endpoints, or prices (PATCHSMITH_MODELS_FILE). */
  readonly routes?: ReadonlyMap<string, ModelRoute>;
}

/**
 * The model's settings. A key is required for OpenAI itself; a local OpenAI-compatible server (OPENAI_BASE_URL)
 * often needs none, so a placeholder is sent (the SDK refuses an empty key).
 */
export function modelSettings(
  env: Env,
  vars: Readonly<Record<string, string | undefined>>,
  /** Reads PATCHSMITH_MODELS_FILE (the caller's I/O: this module stays pure). */
  read: (path: string) => string,
): { readonly ok: true; readonly settings: ModelSettings } | { readonly ok: false; readonly message: string } {
  if (env.OPENAI_API_KEY === undefined && env.OPENAI_BASE_URL === undefined) {
    return {
      ok: false,
      message: "OPENAI_API_KEY is not set (or set OPENAI_BASE_URL for a local OpenAI-compatible server)",
    };
  }
  let routes: ReadonlyMap<string, ModelRoute> | undefined;
  const file = env.PATCHSMITH_MODELS_FILE;
  if (file !== undefined) {
    let text: string;
    try {
      text = read(file);
    } catch (error) {
      return {
        ok: false,
        message: `cannot read PATCHSMITH_MODELS_FILE ${file}: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    const parsed = parseModelRoutes(text, file, vars);
    if (!parsed.ok) return parsed;
    routes = parsed.routes;
  }
  return {
    ok: true,
    settings: {
      apiKey: env.OPENAI_API_KEY ?? "not-needed",
      ...(env.OPENAI_BASE_URL !== undefined ? { baseURL: env.OPENAI_BASE_URL } : {}),
      model: env.PATCHSMITH_MODEL ?? DEFAULT_MODEL,
      ...(routes === undefined ? {} : { routes }),
    },
  };
}
