/**
 * The webhook endpoint: anyone on the internet can reach it, so it reads as little as it can before it knows the
 * request is GitHub's. A request without a well-formed `X-Hub-Signature-256` is refused before its body is read; a
 * body over 25 MB (GitHub's own cap) is refused with 413 while it streams, never held; the signature is checked on
 * the raw bytes before any parse; a refusal is logged as one line without the payload. A signed delivery is handed to
 * `accept`, which must store it durably before this answers 200 (a failure answers 500, so GitHub shows the
 * delivery as failed and it can be redelivered).
 *
 * Hand-written around @octokit/webhooks-methods' verify(): @octokit/webhooks' own middleware (which probot uses)
 * reads the whole body before it checks anything.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { verify } from "@octokit/webhooks-methods";
import { formatBytes } from "../core/bytes.js";
import type { Logger } from "../ports/logger.js";

/** GitHub caps payloads at 25 MB: anything larger is not from GitHub. */
export const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;

export interface Delivery {
  /** `X-GitHub-Delivery`. */
  readonly id: string;
  /** `X-GitHub-Event`. */
  readonly name: string;
  readonly payload: unknown;
}

export interface IngressOptions {
  readonly secret: string;
  readonly logger: Logger;
  /** Stores the delivery (or decides to ignore it); resolves only once it is durable. */
  readonly accept: (delivery: Delivery) => Promise<void>;
  readonly maxBytes?: number;
  /** Told how long each answer took from the request's arrival (metrics). */
  readonly onAnswer?: (status: number, seconds: number) => void;
}

const SIGNATURE = /^sha256=[0-9a-f]{64}$/;

type Body =
  { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false; readonly why: "too-large" | "aborted" };

/** Reads the body up to `max` bytes; past that it stops reading (the caller answers 413 and drops the connection). */
function readBounded(request: IncomingMessage, max: number): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (body: Body): void => {
      if (settled) return;
      settled = true;
      resolve(body);
    };
    request.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > max) {
        chunks.length = 0;
        request.pause();
        settle({ ok: false, why: "too-large" });
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => {
      settle({ ok: true, bytes: Buffer.concat(chunks, size) });
    });
    request.on("error", () => {
      settle({ ok: false, why: "aborted" });
    });
    request.on("close", () => {
      settle({ ok: false, why: "aborted" });
    });
  });
}

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export function createWebhookIngress(options: IngressOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const max = options.maxBytes ?? MAX_WEBHOOK_BYTES;
  return (request, response) => {
    const arrived = performance.now();
    response.once("finish", () => {
      options.onAnswer?.(response.statusCode, (performance.now() - arrived) / 1000);
    });
    const id = header(request, "x-github-delivery") ?? "";
    const name = header(request, "x-github-event") ?? "";
    const signature = header(request, "x-hub-signature-256") ?? "";
    const declared = Number(header(request, "content-length") ?? "NaN");
    const refuse = (status: number, reason: string, bytes?: number): void => {
      options.logger.warn("webhook refused", {
        status,
        reason,
        delivery: id.slice(0, 100),
        event: name.slice(0, 100),
        ...(bytes === undefined ? {} : { bytes }),
      });
      // The rest of a refused body is not read: the connection goes with the answer.
      response.shouldKeepAlive = false;
      response.writeHead(status, { "content-type": "text/plain", connection: "close" });
      response.end(`${reason}\n`, () => {
        request.destroy();
      });
    };

    if (!SIGNATURE.test(signature)) {
      refuse(401, "missing or malformed X-Hub-Signature-256");
      return;
    }
    if (id === "" || name === "") {
      refuse(400, "missing X-GitHub-Delivery or X-GitHub-Event");
      return;
    }
    const tooLarge = `payload over ${formatBytes(max)}`;
    if (Number.isFinite(declared) && declared > max) {
      refuse(413, tooLarge, declared);
      return;
    }

    void (async () => {
      const body = await readBounded(request, max);
      if (!body.ok) {
        if (body.why === "too-large") refuse(413, tooLarge);
        return;
      }
      const text = body.bytes.toString("utf8");
      if (!(await verify(options.secret, text, signature))) {
        refuse(401, "signature does not match", body.bytes.length);
        return;
      }
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch {
        refuse(400, "signed, but not JSON", body.bytes.length);
        return;
      }
      try {
        await options.accept({ id, name, payload });
      } catch (error) {
        options.logger.error("could not store a webhook delivery; GitHub will show it as failed (redeliver it)", {
          delivery: id,
          event: name,
          error: error instanceof Error ? error.message : String(error),
        });
        response.writeHead(500, { "content-type": "text/plain" }).end("could not store the delivery\n");
        return;
      }
      response.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
    })();
  };
}
