/**
 * The only way out of a set-up sandbox: an HTTP proxy on a unix socket in the run's folder (CONNECT for HTTPS,
 * absolute URLs for plain HTTP), admitting the hosts of the allow-list (egress-rules.ts). Names are resolved here,
 * once, and the connection goes to the address that was checked, so a name cannot be re-resolved to an internal
 * address afterwards. Hand-written on node:http: the proxy packages decide after their own resolution, with no hook
 * between the lookup and the connect where this check belongs.
 */
import { lookup } from "node:dns/promises";
import { chmod } from "node:fs/promises";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, isIP, type Socket } from "node:net";
import { decideEgress, isInternalAddress, type EgressRule } from "./egress-rules.js";

export interface EgressProxy {
  readonly socketPath: string;
  /** `host:port` the run asked for and the allow-list refused, in order, each once. */
  readonly refused: readonly string[];
  /** `host:port` the allow-list admits but that could not be reached (no such name, connection failed). */
  readonly unreachable: readonly string[];
  close(): Promise<void>;
}

type Target =
  | { readonly ok: true; readonly address: string }
  | { readonly ok: false; readonly why: string; readonly refused: boolean };

async function resolveTarget(rules: readonly EgressRule[], host: string, port: number): Promise<Target> {
  const decision = decideEgress(rules, host, port);
  if (!decision.allowed) {
    return { ok: false, why: "not in the set-up allow-list (PATCHSMITH_SETUP_HOSTS)", refused: true };
  }
  const bare = host.replace(/^\[|\]$/g, "");
  let address = bare;
  if (isIP(bare) === 0) {
    try {
      address = (await lookup(bare)).address;
    } catch {
      return { ok: false, why: "the name does not resolve", refused: false };
    }
  }
  if (!decision.exact && isInternalAddress(address)) {
    return {
      ok: false,
      why: `it resolves to the internal address ${address}, which only an exact allow-list entry admits`,
      refused: true,
    };
  }
  return { ok: true, address };
}

function splitHostPort(authority: string, defaultPort: number): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(authority);
  if (match?.[1] === undefined) return undefined;
  return { host: match[1], port: match[2] === undefined ? defaultPort : Number(match[2]) };
}

export async function startEgressProxy(socketPath: string, rules: readonly EgressRule[]): Promise<EgressProxy> {
  const refused: string[] = [];
  const unreachable: string[] = [];
  const sockets = new Set<Socket>();
  const note = (list: string[], where: string): void => {
    if (!list.includes(where)) list.push(where);
  };
  const fail = (target: { readonly refused: boolean }, where: string): void => {
    note(target.refused ? refused : unreachable, where);
  };

  const onRequest = (incoming: IncomingMessage, response: ServerResponse): void => {
    let url: URL;
    try {
      url = new URL(incoming.url ?? "");
    } catch {
      response.writeHead(400).end("patchsmith egress proxy: absolute http:// URLs only\n");
      return;
    }
    if (url.protocol !== "http:") {
      response.writeHead(400).end("patchsmith egress proxy: use CONNECT for https\n");
      return;
    }
    const port = url.port === "" ? 80 : Number(url.port);
    void resolveTarget(rules, url.hostname, port).then((target) => {
      if (!target.ok) {
        fail(target, `${url.hostname}:${String(port)}`);
        response.writeHead(403).end(`patchsmith: set-up may not reach ${url.host}: ${target.why}\n`);
        return;
      }
      const headers = { ...incoming.headers };
      delete headers["proxy-connection"];
      delete headers["proxy-authorization"];
      const upstream = httpRequest(
        { host: target.address, port, method: incoming.method, path: `${url.pathname}${url.search}`, headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on("error", (error) => {
        note(unreachable, `${url.hostname}:${String(port)}`);
        if (!response.headersSent) response.writeHead(502);
        response.end(`patchsmith egress proxy: ${error.message}\n`);
      });
      incoming.pipe(upstream);
    });
  };

  const onConnect = (incoming: IncomingMessage, client: Socket, head: Buffer): void => {
    const authority = splitHostPort(incoming.url ?? "", 443);
    client.on("error", () => client.destroy());
    if (authority === undefined) {
      client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      return;
    }
    void resolveTarget(rules, authority.host, authority.port).then((target) => {
      const where = `${authority.host}:${String(authority.port)}`;
      if (!target.ok) {
        fail(target, where);
        client.end(
          `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\npatchsmith: set-up may not reach ${where}: ${target.why}\n`,
        );
        return;
      }
      const upstream = connect({ host: target.address, port: authority.port }, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on("close", () => sockets.delete(upstream));
      upstream.on("error", () => {
        note(unreachable, where);
        client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
      });
    });
  };

  const server = createServer(onRequest);
  server.on("connect", onConnect);
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, resolve);
  });
  // The sandbox user (another uid under a root service) connects to it: the folder holding it is private.
  await chmod(socketPath, 0o666);
  return {
    socketPath,
    refused,
    unreachable,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/**
 * The program that runs inside the sandbox next to set-up: a TCP listener on the namespace's own loopback that
 * passes each connection to the proxy's socket, so package managers need nothing but HTTP(S)_PROXY.
 */
export const FORWARDER_SOURCE = `"use strict";
const net = require("node:net");
const fs = require("node:fs");
const [socketPath, port, ready] = process.argv.slice(2);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
});
server.listen(Number(port), "127.0.0.1", () => fs.writeFileSync(ready, ""));
`;

/** The port the forwarder listens on inside the sandbox's own network namespace. */
export const FORWARDER_PORT = 3128;
