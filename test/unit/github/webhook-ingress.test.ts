/**
 * The webhook endpoint on a real HTTP server on 127.0.0.1: what it reads, what it refuses and how, and what it logs.
 */
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createWebhookIngress, type Delivery } from "../../../src/github/webhook-ingress.js";
import type { Logger } from "../../../src/ports/logger.js";
import { streamPost } from "../../fakes/stream-post.js";

const SECRET = "ingress-test-secret";
const sign = (body: string | Buffer): string => `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function start(options: { maxBytes?: number; accept?: (d: Delivery) => Promise<void> } = {}) {
  const lines: string[] = [];
  const log = (message: string, fields?: Record<string, unknown>) => lines.push(`${message} ${JSON.stringify(fields)}`);
  const logger: Logger = { debug: log, info: log, warn: log, error: log };
  const accepted: Delivery[] = [];
  let bodyBytesRead = 0;
  const ingress = createWebhookIngress({
    secret: SECRET,
    logger,
    accept: options.accept ?? ((d) => (accepted.push(d), Promise.resolve())),
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
  });
  const server = createServer((request, response) => {
    request.on("data", (chunk: Buffer) => (bodyBytesRead += chunk.length));
    ingress(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, lines, accepted, bytesRead: () => bodyBytesRead };
}

const send = (port: number, headers: Record<string, string>, chunks: readonly (string | Buffer)[]) =>
  streamPost(`http://127.0.0.1:${String(port)}/hook`, headers, chunks);

const headersFor = (body: string, extra: Record<string, string> = {}) => ({
  "content-type": "application/json",
  "x-github-delivery": "d-1",
  "x-github-event": "issue_comment",
  "x-hub-signature-256": sign(body),
  ...extra,
});

describe("webhook ingress", () => {
  it("hands a signed delivery over, parsed, and answers 200", async () => {
    const h = await start();
    const body = JSON.stringify({ action: "created", n: 1 });
    const sent = await send(h.port, headersFor(body, { "content-length": String(body.length) }), [body]);
    expect(sent.status).toBe(200);
    expect(h.accepted).toEqual([{ id: "d-1", name: "issue_comment", payload: { action: "created", n: 1 } }]);
  });

  it("refuses a request without a signature before reading its body, in one log line", async () => {
    const h = await start();
    const big = Buffer.alloc(1024 * 1024, 120);
    const sent = await send(
      h.port,
      { "x-github-delivery": "d-2", "x-github-event": "issue_comment" },
      Array.from({ length: 64 }, () => big),
    );
    expect(sent.status).toBe(401);
    expect(h.accepted).toEqual([]);
    expect(h.bytesRead()).toBeLessThan(8 * 1024 * 1024);
    expect(h.lines).toHaveLength(1);
    expect(h.lines[0]).toMatch(/^webhook refused .*"status":401.*missing or malformed/);
  });

  it("refuses a wrong signature after reading, logging one line without the payload", async () => {
    const h = await start();
    const body = JSON.stringify({ secret: "PAYLOAD-TEXT-".repeat(1000) });
    const sent = await send(h.port, { ...headersFor(body), "x-hub-signature-256": sign(`${body} `) }, [body]);
    expect(sent.status).toBe(401);
    expect(h.accepted).toEqual([]);
    expect(h.lines).toHaveLength(1);
    expect(h.lines[0]).toContain("signature does not match");
    expect(h.lines[0]).not.toContain("PAYLOAD-TEXT");
    expect(h.lines[0]!.length).toBeLessThan(300);
  });

  it("refuses a body declared too large without reading it, and one that grows too large while it streams", async () => {
    const h = await start({ maxBytes: 64 * 1024 });
    const declared = await send(h.port, headersFor("x", { "content-length": String(500 * 1024 * 1024) }), ["x"]);
    expect(declared.status).toBe(413);
    const chunk = Buffer.alloc(16 * 1024, 97);
    const streamed = await send(
      h.port,
      headersFor("x"),
      Array.from({ length: 4096 }, () => chunk),
    );
    // Answered 413 and closed; a client still sending may see the reset before it reads the answer (status 0).
    expect([413, 0]).toContain(streamed.status);
    // Reading stopped soon after the cap: a 64 MB body was never taken in.
    expect(h.bytesRead()).toBeLessThan(4 * 1024 * 1024);
    expect(h.accepted).toEqual([]);
    expect(h.lines.every((line) => line.includes("payload over 64 KiB"))).toBe(true);
  });

  it("answers 500 when the delivery cannot be stored, and 400 for a signed body that is not JSON", async () => {
    const failing = await start({ accept: () => Promise.reject(new Error("disk full")) });
    const body = "{}";
    expect((await send(failing.port, headersFor(body), [body])).status).toBe(500);
    expect(failing.lines.join("\n")).toContain("disk full");
    const h = await start();
    expect((await send(h.port, headersFor("not json"), ["not json"])).status).toBe(400);
  });
});
