/**
 * The webhook thread of a `serve` on the embedded store: it owns the HTTP port, checks each delivery, writes a
 * command to the delivery journal and answers GitHub, all on its own event loop, so an answer never waits for the
 * jobs, the intake or their disk writes on the main thread. The main thread stores each journaled command in the
 * inbox queue and answers the forwarded GET routes (ingress-thread.ts).
 */
import { mkdirSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { openJournalWriter } from "../adapters/delivery-journal.js";
import { startEndpoints, type GetRoute } from "../adapters/http-endpoints.js";
import type { Logger } from "../ports/logger.js";
import { commandOf } from "./accept-delivery.js";
import type { FromIngressThread, IngressThreadData, ToIngressThread } from "./ingress-messages.js";
import { createWebhookIngress } from "./webhook-ingress.js";

const data = workerData as IngressThreadData;
const port = parentPort;
if (port === null) throw new Error("ingress-thread-main.ts runs as a worker thread (see ingress-thread.ts)");
const say = (message: FromIngressThread): void => {
  port.postMessage(message);
};

const logAt =
  (level: "debug" | "info" | "warn" | "error") =>
  (message: string, fields?: Record<string, unknown>): void => {
    say({ type: "log", level, message, ...(fields === undefined ? {} : { fields }) });
  };
const logger: Logger = { debug: logAt("debug"), info: logAt("info"), warn: logAt("warn"), error: logAt("error") };

try {
  mkdirSync(data.journalDir, { recursive: true, mode: 0o700 });
  const journal = openJournalWriter(data.journalDir);
  const ingress = createWebhookIngress({
    secret: data.secret,
    logger,
    onAnswer: (status, seconds) => {
      say({ type: "answered", status, seconds });
    },
    accept: async (delivery) => {
      const command = commandOf(delivery, logger, Date.now);
      if (typeof command === "string") {
        logger.debug("webhook accepted", { delivery: delivery.id, event: delivery.name, result: command });
        return;
      }
      const segment = await journal.append(Buffer.from(JSON.stringify(command)));
      say({ type: "command", segment, event: delivery.name, command });
    },
  });

  let nextAsk = 0;
  const asks = new Map<number, (answer: Awaited<ReturnType<GetRoute>>) => void>();
  const forward =
    (path: string): GetRoute =>
    () =>
      new Promise((resolve) => {
        const ask = nextAsk++;
        asks.set(ask, resolve);
        say({ type: "route", ask, path });
      });
  const server = await startEndpoints({
    host: data.host,
    port: data.port,
    routes: Object.fromEntries(data.routes.map((path) => [path, forward(path)])),
    post: { path: data.webhookPath, handle: ingress },
  });

  port.on("message", (message: ToIngressThread) => {
    if (message.type === "stored") journal.release(message.segment);
    else if (message.type === "route-answer") {
      asks.get(message.ask)?.({ status: message.status, type: message.contentType, body: message.body });
      asks.delete(message.ask);
    } else {
      void server.close().finally(() => {
        journal.close();
        say({ type: "closed" });
        port.close();
      });
    }
  });
  say({ type: "listening", url: server.url, port: server.port });
} catch (error) {
  say({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  port.close();
}
