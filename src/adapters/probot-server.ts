/**
 * The app's HTTP side on our own `node:http` server (the webhook path, a health check, 404 for the rest): full
 * control of host, port, limits and shutdown. probot provides the GitHub App authentication (app JWTs, installation
 * tokens, Octokit with throttling and retries); the webhook endpoint is ours (github/webhook-ingress.ts), because
 * probot's middleware reads a whole body before checking its signature.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Probot, ProbotOctokit, type Logger as PinoLogger } from "probot";
import type { Octokit } from "./octokit-gateway.js";

export interface ProbotServerOptions {
  readonly appId: string;
  readonly privateKey: string;
  readonly webhookSecret: string;
  /** The REST API base, e.g. `https://ghe.example.com/api/v3`; undefined for github.com. */
  readonly baseUrl?: string | undefined;
  readonly host: string;
  readonly port: number;
  readonly webhookPath: string;
  /** Octokit's throttling and retries (on by default; tests and rate-limit-free GHES may turn them off). */
  readonly throttle: boolean;
  /** The one log of the process (app-logger.ts): probot writes its own lines to it too. */
  readonly log: PinoLogger;
  /** Told of every GitHub API answer (metrics): method, status, and the rate limit left when GitHub says. */
  readonly onRequest?: ((method: string, status: number, rateLimitRemaining: number | undefined) => void) | undefined;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /** The app-authenticated client (no id) or an installation's client. */
  readonly auth: (installationId?: number) => Promise<Octokit>;
  /** A client authenticated with one installation token, on the app's API base URL (to revoke that token). */
  readonly tokenClient: (token: string) => Octokit;
  close(): Promise<void>;
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
export function createProbotAuth(options: Omit<ProbotServerOptions, "host" | "port" | "webhookPath">): ProbotAuth {
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

/** A GET endpoint beside the webhook (metrics, readiness): it answers with a status, a content type and a body. */
export type GetRoute = () => Promise<{ readonly status: number; readonly type: string; readonly body: string }>;

export async function startProbotServer(
  options: ProbotServerOptions,
  webhook: (request: IncomingMessage, response: ServerResponse) => void,
  routes: Readonly<Record<string, GetRoute>> = {},
): Promise<RunningServer> {
  const { auth, tokenClient } = createProbotAuth(options);

  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (request.method === "GET" && (path === "/healthz" || path === "/ping")) {
      response.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
      return;
    }
    const route = request.method === "GET" && path !== undefined ? routes[path] : undefined;
    if (route !== undefined) {
      route().then(
        (answer) => {
          response.writeHead(answer.status, { "content-type": answer.type }).end(answer.body);
        },
        (error: unknown) => {
          const why = error instanceof Error ? error.message : String(error);
          response.writeHead(500, { "content-type": "text/plain" }).end(`${why}\n`);
        },
      );
      return;
    }
    if (request.method === "POST" && path === options.webhookPath) {
      webhook(request, response);
      return;
    }
    response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    auth,
    tokenClient,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeIdleConnections();
      }),
  };
}
