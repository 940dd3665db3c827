/** Structured logging; adapters redact secrets before anything is written. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger that adds `bindings` to every line (a job's id, repository and delivery). */
  child?(bindings: Record<string, unknown>): Logger;
}
