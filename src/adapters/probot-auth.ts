/**
 * What probot gives the App: its GitHub App authentication (app JWTs, installation tokens, Octokit with throttling,
 * retries and the config plugin), on the process's one log. The HTTP side is ours (http-endpoints.ts, and
 * github/webhook-ingress.ts for the webhook, because probot's middleware reads a whole body before checking its
 * signature).
 */
import { Probot, ProbotOctokit, type Logger as PinoLogger } from "probot";
import type { Octokit } from "./octokit-gateway.js";

export interface ProbotAuthOptions {
  readonly appId: string;
  readonly privateKey: string;
  readonly webhookSecret: string;
  /** The REST API base, e.g. `https://ghe.example.com/api/v3`; undefined for github.com. */
  readonly baseUrl?: string | undefined;
  /** Octokit's throttling and retries (on by default; tests and rate-limit-free GHES may turn them off). */
  readonly throttle: boolean;
  /** The one log of the process (app-logger.ts): probot writes its own lines to it too. */
  readonly log: PinoLogger;
  /** Told of every GitHub API answer (metrics): method, status, and the rate limit left when GitHub says. */
  readonly onRequest?: ((method: string, status: number, rateLimitRemaining: number | undefined) => void) | undefined;
}

/** ProbotOctokit with throttling and retries off: the function form is the one that takes effect in 14.3. */
function octokitClass(throttle: boolean): typeof ProbotOctokit {
  if (throttle) return ProbotOctokit;
  return ProbotOctokit.defaults((options: Record<string, unknown>) => ({
    ...options,
    throttle: { ...(options.throttle as object | undefined), enabled: false },
    retry: { enabled: false },
  }));
}

export interface ProbotAuth {
  /** The app-authenticated client (no id) or an installation's client. */
  readonly auth: (installationId?: number) => Promise<Octokit>;
  /** A client authenticated with one installation token, on the app's API base URL (to revoke that token). */
  readonly tokenClient: (token: string) => Octokit;
}

/** probot's GitHub App authentication alone: what a worker without a webhook endpoint needs. */
export function createProbotAuth(options: ProbotAuthOptions): ProbotAuth {
  const probot = new Probot({
    appId: options.appId,
    privateKey: options.privateKey,
    secret: options.webhookSecret,
    Octokit: octokitClass(options.throttle),
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    log: options.log,
  });
  const OctokitClass = octokitClass(options.throttle);
  const observed = (octokit: Octokit): Octokit => {
    const report = options.onRequest;
    if (report === undefined) return octokit;
    const remaining = (headers: Record<string, unknown> | undefined): number | undefined => {
      const value = Number(headers?.["x-ratelimit-remaining"]);
      return Number.isFinite(value) ? value : undefined;
    };
    octokit.hook.after("request", (response, request) => {
      report(request.method, response.status, remaining(response.headers));
    });
    octokit.hook.error("request", (error, request) => {
      const failure = error as { status?: number; response?: { headers?: Record<string, unknown> } };
      report(request.method, failure.status ?? 0, remaining(failure.response?.headers));
      throw error;
    });
    return octokit;
  };
  return {
    auth: async (installationId?: number): Promise<Octokit> => observed(await probot.auth(installationId)),
    tokenClient: (token: string): Octokit =>
      observed(
        new OctokitClass({
          auth: { token },
          log: probot.log.child({ name: "github" }),
          ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
        }),
      ),
  };
}
