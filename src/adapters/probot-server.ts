/**
 * Runs the app on probot 14 with our own `node:http` server (probot's middleware for the webhook path, a health
 * check, 404 for the rest): full control of host, port and shutdown. probot verifies `X-Hub-Signature-256` and
 * rejects unsigned or wrongly signed deliveries before any handler runs.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Probot, ProbotOctokit, createNodeMiddleware, type ApplicationFunction } from "probot";
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
  readonly logLevel?: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | undefined;
  readonly logFormat?: "json" | "pretty" | undefined;
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

export async function startProbotServer(
  options: ProbotServerOptions,
  createApp: (auth: RunningServer["auth"], tokenClient: RunningServer["tokenClient"]) => ApplicationFunction,
): Promise<RunningServer> {
  const probot = new Probot({
    appId: options.appId,
    privateKey: options.privateKey,
    secret: options.webhookSecret,
    Octokit: octokitClass(options.throttle),
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
    ...(options.logFormat === undefined ? {} : { logFormat: options.logFormat }),
  });
  const auth = (installationId?: number): Promise<Octokit> => probot.auth(installationId);
  const OctokitClass = octokitClass(options.throttle);
  const tokenClient = (token: string): Octokit =>
    new OctokitClass({
      auth: { token },
      log: probot.log.child({ name: "github" }),
      ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    });
  const middleware = await createNodeMiddleware(createApp(auth, tokenClient), {
    probot,
    webhooksPath: options.webhookPath,
  });

  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (request.method === "GET" && (path === "/healthz" || path === "/ping")) {
      response.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
      return;
    }
    void middleware(request, response, () => {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    });
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
