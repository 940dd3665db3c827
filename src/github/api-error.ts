/**
 * GitHub API failures as one-line facts for logs and comments, and the rule for calls the app can do without
 * (reactions, check runs, the app's identity, token revocation): log and carry on, never abort a job or a webhook.
 * Another GitHub (Enterprise Server, a proxy, a test double) may lack an endpoint or answer it differently.
 */
import { redactSecrets } from "../core/redact.js";
import type { Logger } from "../ports/logger.js";

/** The HTTP status of an Octokit `RequestError` (or anything shaped like one), if there is one. */
export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null || !("status" in error)) return undefined;
  return typeof error.status === "number" ? error.status : undefined;
}

/** The URL of the request an Octokit `RequestError` is about, if it says. */
function requestUrlOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("request" in error)) return undefined;
  const request = error.request;
  if (typeof request !== "object" || request === null || !("url" in request)) return undefined;
  return typeof request.url === "string" ? request.url : undefined;
}

/**
 * Whether the failure is GitHub refusing the app an installation token (the token every installation call is made
 * with, minted on first use): a wrong key or app id, an uninstalled or suspended app. A configuration fault, not an
 * answer about the repository or the person: a 404 here must never read as "not a collaborator".
 */
export function isTokenMintFailure(error: unknown): boolean {
  return /\/app\/installations\/[^/]+\/access_tokens/.test(requestUrlOf(error) ?? "");
}

/** "HTTP 404: Not Found" or the error's message; redacted, on one line, capped (error texts can quote a body). */
export function describeApiError(error: unknown, secrets: readonly string[] = []): string {
  const message = error instanceof Error ? error.message : String(error);
  const status = httpStatusOf(error);
  const line = message.replace(/\s+/g, " ").trim().slice(0, 500);
  const text = status === undefined || line.includes(String(status)) ? line : `HTTP ${String(status)}: ${line}`;
  const what = isTokenMintFailure(error)
    ? `GitHub refused the app an installation token (check APP_ID, the private key, and that the app is still installed and not suspended): ${text}`
    : text;
  return redactSecrets(what === "" ? "unknown error" : what, secrets);
}

export interface BestEffortOptions {
  readonly logger: Logger;
  /** Values to redact from the logged error besides the usual token shapes (the job's tokens). */
  readonly secrets?: readonly string[];
  /** Fields that say which job or delivery this was. */
  readonly fields?: Record<string, unknown>;
}

/**
 * Runs a call the app can do without: on any failure (404 for a missing endpoint, 422, 5xx, a dropped connection)
 * it logs `could not <what>` with the redacted reason and returns the fallback.
 */
export async function bestEffort<T>(
  what: string,
  call: () => Promise<T>,
  fallback: T,
  options: BestEffortOptions,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    options.logger.warn(`could not ${what}; carrying on without it`, {
      ...options.fields,
      status: httpStatusOf(error),
      error: describeApiError(error, options.secrets),
    });
    return fallback;
  }
}

/** An essential call that failed, with what the app was doing when it did: the job's final comment says both. */
export class StepError extends Error {
  readonly status: number | undefined;
  constructor(what: string, cause: unknown) {
    super(`Could not ${what}: ${describeApiError(cause)}`, { cause });
    this.name = "StepError";
    this.status = httpStatusOf(cause);
  }
}

/** Runs an essential call; a failure becomes a `StepError` that names the step. */
export async function step<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof StepError) throw error;
    throw new StepError(what, error);
  }
}
