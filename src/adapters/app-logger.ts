/**
 * The App's one log: a pino logger built the way probot builds its own (@probot/pino's stream: pretty in a terminal,
 * JSON with LOG_FORMAT=json, levels as words with LOG_LEVEL_IN_STRING, errors to Sentry with SENTRY_DSN), handed to
 * probot so that its lines and ours are one stream with one level (LOG_LEVEL). Every message and field is redacted
 * of the known secrets first, by the same cleaning as the CLI's logger.
 */
import { getTransformStream } from "@probot/pino";
import { pino, type Logger as PinoLogger } from "pino";
import { cleanFields } from "./console-logger.js";
import { redactSecrets } from "../core/redact.js";
import type { Logger } from "../ports/logger.js";

export interface AppLoggerOptions {
  readonly level: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
  readonly format?: "json" | "pretty" | undefined;
  readonly levelInString?: boolean | undefined;
  readonly sentryDsn?: string | undefined;
  /** Read at each line: tokens minted later join it. */
  readonly secrets: () => readonly string[];
}

export interface AppLogger {
  /** For probot (its `log` option). */
  readonly pino: PinoLogger;
  readonly logger: Logger;
}

/** Our Logger over a pino logger: messages and fields redacted, `child` binds fields to every line. */
export function loggerOverPino(base: PinoLogger, secrets: () => readonly string[]): Logger {
  const write =
    (level: "debug" | "info" | "warn" | "error") =>
    (message: string, fields?: Record<string, unknown>): void => {
      if (!base.isLevelEnabled(level)) return;
      const known = secrets();
      base[level](cleanFields(fields ?? {}, known), redactSecrets(message, known));
    };
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    child: (bindings) => loggerOverPino(base.child(cleanFields(bindings, secrets())), secrets),
  };
}

export async function createAppLogger(options: AppLoggerOptions): Promise<AppLogger> {
  const transform = await getTransformStream({
    ...(options.format === undefined ? {} : { logFormat: options.format }),
    ...(options.levelInString === undefined ? {} : { logLevelInString: options.levelInString }),
    ...(options.sentryDsn === undefined ? {} : { sentryDsn: options.sentryDsn }),
  });
  // As probot does (its getLog): the stream writes to stdout. SonicBoom is a writable stream its types do not say.
  transform.pipe(pino.destination(1) as unknown as NodeJS.WritableStream);
  const base = pino({ level: options.level, name: "patchsmith", messageKey: "msg" }, transform);
  return { pino: base, logger: loggerOverPino(base, options.secrets) };
}
