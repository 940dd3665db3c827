/**
 * The process's HTTP side on `node:http`: `/healthz` (alive, unless a route answers it), GET routes (metrics,
 * readiness), and for `serve` the webhook's POST path; 404 for the rest. Full control of host, port, limits and shutdown.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A GET endpoint: it answers with a status, a content type and a body. */
export type GetRoute = () => Promise<{ readonly status: number; readonly type: string; readonly body: string }>;

/** The process is alive: what `/healthz` and `/ping` answer unless a route of the caller's says otherwise. */
export const alive: GetRoute = () => Promise.resolve({ status: 200, type: "text/plain", body: "ok\n" });

const LIVENESS: Readonly<Record<string, GetRoute>> = { "/healthz": alive, "/ping": alive };

export interface Endpoints {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export async function startEndpoints(options: {
  readonly host: string;
  readonly port: number;
  readonly routes: Readonly<Record<string, GetRoute>>;
  readonly post?: {
    readonly path: string;
    readonly handle: (request: IncomingMessage, response: ServerResponse) => void;
  };
}): Promise<Endpoints> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    const route = request.method === "GET" && path !== undefined ? (options.routes[path] ?? LIVENESS[path]) : undefined;
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
    if (request.method === "POST" && options.post !== undefined && path === options.post.path) {
      options.post.handle(request, response);
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
