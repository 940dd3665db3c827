/**
 * The GitHub App's environment (DESIGN section 5; probot's variable names), validated with zod. Pure: the caller
 * passes the variables and, for PRIVATE_KEY_PATH, the file's text.
 */
import { z } from "zod";

const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;

const envSchema = z.object({
  APP_ID: z.string().regex(/^\d+$/, "must be the numeric App ID"),
  WEBHOOK_SECRET: z.string().min(1, "is required: unsigned deliveries must be refused"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("localhost"),
  WEBHOOK_PATH: z.string().startsWith("/").default("/api/github/webhooks"),
  GHE_HOST: z.string().min(1).optional(),
  GHE_PROTOCOL: z.enum(["http", "https"]).default("https"),
  PATCHSMITH_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  PATCHSMITH_THROTTLE: z.enum(["on", "off"]).default("on"),
  PATCHSMITH_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  PATCHSMITH_GLOBAL_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).optional(),
  PATCHSMITH_INSTALLATION_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).optional(),
  PATCHSMITH_WORKER_LOCK_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  PATCHSMITH_RECONCILE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  PATCHSMITH_WORKER_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  PATCHSMITH_STOP_GRACE_SECONDS: z.coerce.number().int().min(0).max(86_400).optional(),
  PATCHSMITH_DATA_DIR: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
  /** The CLI's name for the same setting; LOG_LEVEL wins. */
  PATCHSMITH_LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  LOG_LEVEL_IN_STRING: z.enum(["true", "false"]).optional(),
  SENTRY_DSN: z.string().min(1).optional(),
});

export interface AppEnv {
  readonly appId: string;
  readonly privateKey: string;
  readonly webhookSecret: string;
  readonly port: number;
  readonly host: string;
  readonly webhookPath: string;
  /** `${GHE_PROTOCOL}://${GHE_HOST}/api/v3`, or undefined for github.com. */
  readonly baseUrl: string | undefined;
  readonly concurrency: number;
  /** The shared queue (PATCHSMITH_REDIS_URL); undefined: the embedded store in `dataDir`. */
  readonly redisUrl: string | undefined;
  /** Jobs all workers together run at once (Redis only). */
  readonly globalConcurrency: number | undefined;
  /** Jobs of one installation (one organisation) run at once, in all processes together. */
  readonly installationConcurrency: number | undefined;
  /** How long a dead worker's job waits before another worker takes it over (Redis only). */
  readonly workerLockMs: number;
  /** Where `patchsmith worker` answers /healthz, /readyz and /metrics (undefined: nowhere). */
  readonly workerPort: number | undefined;
  /** How long a stopping process waits for its running jobs before it hands them back (undefined: as long as they take). */
  readonly stopGraceMs: number | undefined;
  /** How often missed webhook deliveries are asked for again (0: never). */
  readonly reconcileMs: number;
  /** Where the durable job queue lives: PATCHSMITH_DATA_DIR, else the user's state folder. */
  readonly dataDir: string;
  readonly throttle: boolean;
  /** LOG_LEVEL, else PATCHSMITH_LOG_LEVEL, else info: one level for probot's lines and patchsmith's. */
  readonly logLevel: (typeof LOG_LEVELS)[number];
  readonly logFormat: "json" | "pretty" | undefined;
  readonly logLevelInString: boolean;
  /** Errors logged also go to Sentry (probot's error reporting). */
  readonly sentryDsn: string | undefined;
}

export type AppEnvResult =
  { readonly ok: true; readonly env: AppEnv } | { readonly ok: false; readonly message: string };

/**
 * The XDG state folder (`$XDG_STATE_HOME/patchsmith`, else `~/.local/state/patchsmith`), or `.patchsmith-data` in
 * the working folder when there is no HOME: jobs must survive a restart, so there is always a place on disk.
 */
export function defaultDataDir(vars: Readonly<Record<string, string | undefined>>): string {
  const state = vars.XDG_STATE_HOME ?? (vars.HOME === undefined ? undefined : `${vars.HOME}/.local/state`);
  return state === undefined || state === "" ? ".patchsmith-data" : `${state}/patchsmith`;
}

/** True when the app has no credentials yet: `serve` then runs probot's registration (manifest) page instead. */
export function needsSetup(vars: Readonly<Record<string, string | undefined>>): boolean {
  const blank = (name: string): boolean => (vars[name] ?? "").trim() === "";
  return blank("APP_ID") || (blank("PRIVATE_KEY") && blank("PRIVATE_KEY_PATH"));
}

/** Accepts a PEM as is, with `\n` escapes (one-line env files), or base64-encoded (probot's conventions). */
export function normalizePrivateKey(raw: string): string | undefined {
  const text = raw.trim().replace(/^"|"$/g, "").replace(/\\n/g, "\n");
  if (text.includes("-----BEGIN")) return `${text.trim()}\n`;
  const decoded = Buffer.from(text, "base64").toString("utf8");
  return decoded.includes("-----BEGIN") ? `${decoded.trim()}\n` : undefined;
}

export function parseAppEnv(vars: Readonly<Record<string, string | undefined>>, privateKeyFile?: string): AppEnvResult {
  // Empty strings count as unset (docker --env-file and CI often write `NAME=`).
  const present = Object.fromEntries(Object.entries(vars).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
    return { ok: false, message: `invalid environment:\n  ${lines.join("\n  ")}` };
  }
  const env = parsed.data;
  const privateKey = normalizePrivateKey(privateKeyFile ?? vars.PRIVATE_KEY ?? "");
  if (privateKey === undefined) {
    return {
      ok: false,
      message: "invalid environment:\n  PRIVATE_KEY (or the PRIVATE_KEY_PATH file) is not a PEM private key",
    };
  }
  return {
    ok: true,
    env: {
      appId: env.APP_ID,
      privateKey,
      webhookSecret: env.WEBHOOK_SECRET,
      port: env.PORT,
      host: env.HOST,
      webhookPath: env.WEBHOOK_PATH,
      baseUrl: env.GHE_HOST === undefined ? undefined : `${env.GHE_PROTOCOL}://${env.GHE_HOST}/api/v3`,
      concurrency: env.PATCHSMITH_CONCURRENCY,
      redisUrl: env.PATCHSMITH_REDIS_URL,
      globalConcurrency: env.PATCHSMITH_GLOBAL_CONCURRENCY,
      installationConcurrency: env.PATCHSMITH_INSTALLATION_CONCURRENCY,
      workerLockMs: env.PATCHSMITH_WORKER_LOCK_SECONDS * 1000,
      reconcileMs: env.PATCHSMITH_RECONCILE_SECONDS * 1000,
      workerPort: env.PATCHSMITH_WORKER_PORT,
      stopGraceMs:
        env.PATCHSMITH_STOP_GRACE_SECONDS === undefined ? undefined : env.PATCHSMITH_STOP_GRACE_SECONDS * 1000,
      dataDir: env.PATCHSMITH_DATA_DIR ?? defaultDataDir(vars),
      throttle: env.PATCHSMITH_THROTTLE === "on",
      logLevel: env.LOG_LEVEL ?? env.PATCHSMITH_LOG_LEVEL ?? "info",
      logFormat: env.LOG_FORMAT,
      logLevelInString: env.LOG_LEVEL_IN_STRING === "true",
      sentryDsn: env.SENTRY_DSN,
    },
  };
}
