/**
 * Real git over smart HTTP for tests: `git http-backend` run as a CGI program for repositories under one root.
 * Passes the `Git-Protocol` header through (protocol v2: fetching by SHA fails without it) and sets REMOTE_USER
 * (http-backend refuses pushes from anonymous users). An optional check decides who may fetch and push.
 */
import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface GitHttpOptions {
  /** Folder holding the bare repositories (`<root>/<owner>/<name>.git`). */
  readonly projectRoot: string;
  /**
   * Who may access `repoPath` (e.g. "acme/widgets.git"): return the user name, or undefined to answer 401.
   * Default: everyone, as "anonymous-pusher".
   */
  readonly authorize?: (authorization: string | undefined, repoPath: string) => string | undefined;
}

/** The repository part of a path under the git prefix: "acme/widgets.git/info/refs" → "acme/widgets.git". */
function repoPathOf(pathInfo: string): string {
  const match = /^\/?([^/]+\/[^/]+\.git)(?:\/|$)/.exec(pathInfo);
  return match?.[1] ?? "";
}

/**
 * Serves one request. `pathInfo` is the path below the mount point, starting with "/owner/name.git/...".
 */
export function serveGit(
  options: GitHttpOptions,
  request: IncomingMessage,
  response: ServerResponse,
  pathInfo: string,
): void {
  const repoPath = repoPathOf(pathInfo);
  const user = options.authorize ? options.authorize(request.headers.authorization, repoPath) : "anonymous-pusher";
  if (repoPath === "" || user === undefined) {
    response.writeHead(401, { "www-authenticate": 'Basic realm="fake-git"', "content-type": "text/plain" });
    response.end("authentication required\n");
    return;
  }
  const url = new URL(request.url ?? "/", "http://localhost");
  const header = (name: string): string => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(", ") : (value ?? "");
  };
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GIT_PROJECT_ROOT: options.projectRoot,
    GIT_HTTP_EXPORT_ALL: "1",
    GIT_CONFIG_NOSYSTEM: "1",
    HOME: options.projectRoot,
    REQUEST_METHOD: request.method ?? "GET",
    PATH_INFO: pathInfo,
    QUERY_STRING: url.search.replace(/^\?/, ""),
    CONTENT_TYPE: header("content-type"),
    REMOTE_USER: user,
    REMOTE_ADDR: "127.0.0.1",
    GIT_PROTOCOL: header("git-protocol"),
    HTTP_CONTENT_ENCODING: header("content-encoding"),
  };
  const length = header("content-length");
  if (length !== "") env.CONTENT_LENGTH = length;
  const child = spawn("git", ["http-backend"], { env, stdio: ["pipe", "pipe", "pipe"] });
  request.pipe(child.stdin);
  child.stdin.on("error", () => undefined);

  let head = Buffer.alloc(0);
  let headersSent = false;
  const stderr: Buffer[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  child.stdout.on("data", (chunk: Buffer) => {
    if (headersSent) {
      response.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end === -1) return;
    const headers: Record<string, string> = {};
    let status = 200;
    for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon === -1) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === "status") status = Number.parseInt(value, 10) || 200;
      else headers[name] = value;
    }
    response.writeHead(status, headers);
    headersSent = true;
    const rest = head.subarray(end + 4);
    if (rest.length > 0) response.write(rest);
  });
  child.on("close", (code) => {
    if (!headersSent) {
      response.writeHead(500, { "content-type": "text/plain" });
      response.end(`git http-backend failed (${code ?? "signal"}): ${Buffer.concat(stderr).toString("utf8")}`);
      return;
    }
    response.end();
  });
}

export interface GitHttpServer {
  /** Base URL; a repository's clone URL is `${url}/owner/name.git`. */
  readonly url: string;
  close(): Promise<void>;
}

/** A standalone server for the repositories under `projectRoot`. */
export async function startGitHttpServer(options: GitHttpOptions): Promise<GitHttpServer> {
  const server: Server = createServer((request, response) => {
    serveGit(options, request, response, (request.url ?? "/").split("?")[0] ?? "/");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
