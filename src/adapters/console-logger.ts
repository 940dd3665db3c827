/** The real Logger: one JSON object per line on stderr (stdout belongs to the CLI's output), secrets redacted. */
import type { Logger } from "../ports/logger.js";
import { redactSecrets } from "../core/redact.js";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface ConsoleLoggerOptions {
  /** Default: PATCHSMITH_LOG_LEVEL, else "info". */
  readonly level?: LogLevel;
  /** Known secret values to redact (token shapes are always redacted). */
  readonly secrets?: readonly string[];
  /** Fields added to every line (job id, repository). */
  readonly bindings?: Readonly<Record<string, unknown>>;
  /** Where lines go (default: process.stderr). */
  readonly write?: (line: string) => void;
  readonly now?: () => Date;
}

export function isLogLevel(value: string | undefined): value is LogLevel {
  return value !== undefined && Object.hasOwn(RANK, value);
}

/** PATCHSMITH_LOG_LEVEL, or "info" when unset or unknown. */
export function levelFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): LogLevel {
  const value = env.PATCHSMITH_LOG_LEVEL?.trim().toLowerCase();
  return isLogLevel(value) ? value : "info";
}

const MAX_DEPTH = 6;

/** Redacts every string inside a value; errors become plain objects (their fields are not enumerable). */
function clean(value: unknown, secrets: readonly string[], depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (seen.has(value)) return "[circular]";
  seen.add(value);
  let out: unknown;
  if (value instanceof Error) {
    out = clean({ name: value.name, message: value.message, stack: value.stack }, secrets, depth + 1, seen);
  } else if (Array.isArray(value)) {
    out = value.map((item) => clean(item, secrets, depth + 1, seen));
  } else if (value instanceof Map) {
    out = clean(Object.fromEntries(value), secrets, depth + 1, seen);
  } else {
    const fields: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) fields[key] = clean(item, secrets, depth + 1, seen);
    out = fields;
  }
  // Only ancestors count as cycles: the same object twice side by side is printed twice.
  seen.delete(value);
  return out;
}

/** Every string in the fields redacted of `secrets` and token shapes; errors as plain objects. */
export function cleanFields(fields: Record<string, unknown>, secrets: readonly string[]): Record<string, unknown> {
  return clean(fields, secrets, 0, new WeakSet()) as Record<string, unknown>;
}

export function createConsoleLogger(options: ConsoleLoggerOptions = {}): Logger {
  const threshold = RANK[options.level ?? levelFromEnv()];
  const secrets = options.secrets ?? [];
  const write =
    options.write ??
    ((line: string): void => {
      process.stderr.write(line);
    });
  const now = options.now ?? ((): Date => new Date());

  const log = (level: Exclude<LogLevel, "silent">, message: string, fields?: Record<string, unknown>): void => {
    if (RANK[level] < threshold) return;
    const record = clean(
      { ...options.bindings, ...fields, time: now().toISOString(), level, msg: message },
      secrets,
      0,
      new WeakSet(),
    );
    write(`${JSON.stringify(record)}\n`);
  };
  return {
    debug: (message, fields) => {
      log("debug", message, fields);
    },
    info: (message, fields) => {
      log("info", message, fields);
    },
    warn: (message, fields) => {
      log("warn", message, fields);
    },
    error: (message, fields) => {
      log("error", message, fields);
    },
    child: (bindings) => createConsoleLogger({ ...options, bindings: { ...options.bindings, ...bindings } }),
  };
}
