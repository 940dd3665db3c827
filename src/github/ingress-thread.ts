/**
 * The main thread's side of the webhook thread (ingress-thread-main.ts), for `serve` on the embedded store: starts
 * it after storing what a previous run left in the delivery journal, stores each command the thread has journaled
 * and answered in the inbox queue (then lets the thread release it from the journal), answers the GET routes it
 * forwards, and logs and counts for it.
 *
 * Why a thread: on one event loop with the jobs, an answer waited for whatever the loop was doing (at 100 deliveries
 * a second with jobs running, the loop was busy 80-90 % of the time and answers took up to a second; see
 * bench/answers.ts). The Redis store keeps the answer on the main thread: there `serve --workers 0` runs no jobs.
 */
import { Worker } from "node:worker_threads";
import { readJournal, removeSegments } from "../adapters/delivery-journal.js";
import type { Endpoints, GetRoute } from "../adapters/http-endpoints.js";
import { parseIntake, type IntakeRecord } from "./intake-record.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Logger } from "../ports/logger.js";
import type { Acceptance, StorableCommand } from "./accept-delivery.js";
import type { FromIngressThread, IngressThreadData, ToIngressThread } from "./ingress-messages.js";

export interface IngressThreadOptions {
  readonly host: string;
  readonly port: number;
  readonly webhookPath: string;
  readonly secret: string;
  readonly journalDir: string;
  readonly routes: Readonly<Record<string, GetRoute>>;
  readonly inbox: JobQueue<IntakeRecord>;
  readonly logger: Logger;
  readonly onAnswer: (status: number, seconds: number) => void;
  /** The thread died: no webhook can be taken any more. */
  readonly onCrash: (error: Error) => void;
}

/** A journal record read back: what the thread wrote, checked again (a disk can return anything). */
function storableFrom(payload: Buffer): StorableCommand | undefined {
  try {
    const value = JSON.parse(payload.toString("utf8")) as Partial<Record<keyof StorableCommand, unknown>>;
    const record = parseIntake(value.record);
    if (record === undefined || typeof value.id !== "string" || typeof value.group !== "string") return undefined;
    return { record, id: value.id, group: value.group };
  } catch {
    return undefined;
  }
}

/** Stores in the inbox what a previous run journaled (and answered) but may not have stored, then forgets it. */
export async function replayJournal(dir: string, inbox: JobQueue<IntakeRecord>, logger: Logger): Promise<number> {
  const { payloads, files, torn } = await readJournal(dir);
  for (const file of torn) {
    logger.warn("the delivery journal ends in a cut-short write (a delivery that was never answered)", { file });
  }
  let stored = 0;
  await Promise.all(
    payloads.map(async (payload) => {
      const command = storableFrom(payload);
      if (command === undefined) {
        logger.error("a delivery journal record could not be read back; it is skipped", { bytes: payload.length });
        return;
      }
      if (await inbox.add(command.record, { id: command.id, group: command.group })) stored += 1;
    }),
  );
  await removeSegments(files);
  return stored;
}

export async function startIngressThread(options: IngressThreadOptions): Promise<Endpoints> {
  const { logger } = options;
  const replayed = await replayJournal(options.journalDir, options.inbox, logger);
  if (replayed > 0) logger.info("stored commands answered before the last stop", { commands: replayed });

  const data: IngressThreadData = {
    host: options.host,
    port: options.port,
    webhookPath: options.webhookPath,
    secret: options.secret,
    journalDir: options.journalDir,
    routes: Object.keys(options.routes),
  };
  // Built, the entry is a .js file beside this one. Run from the sources (`tsx src/cli.ts serve`), it is the .ts
  // file, which a thread can only load through tsx's API (a loader given to the thread does not reach its entry).
  const entry = new URL("./ingress-thread-main.js", import.meta.url);
  const worker = import.meta.url.endsWith(".ts")
    ? new Worker(
        `import("tsx/esm/api").then(({ tsImport }) => tsImport(${JSON.stringify(entry.href.replace(/\.js$/, ".ts"))}, ${JSON.stringify(import.meta.url)}));`,
        { eval: true, workerData: data },
      )
    : new Worker(entry, { workerData: data });
  const tell = (message: ToIngressThread): void => {
    worker.postMessage(message);
  };
  let closed: (() => void) | undefined;
  let listening: ((answer: { url: string; port: number } | Error) => void) | undefined;
  const started = new Promise<{ url: string; port: number } | Error>((resolve) => {
    listening = resolve;
  });

  worker.on("message", (message: FromIngressThread) => {
    switch (message.type) {
      case "listening":
        listening?.({ url: message.url, port: message.port });
        break;
      case "failed":
        listening?.(new Error(`the webhook thread could not start: ${message.message}`));
        break;
      case "log":
        logger[message.level](message.message, message.fields);
        break;
      case "answered":
        options.onAnswer(message.status, message.seconds);
        break;
      case "command": {
        const { command, segment } = message;
        // Adds are chained per thread in call order (file-queue.ts), so commands keep the order they arrived in.
        options.inbox.add(command.record, { id: command.id, group: command.group }).then(
          (added) => {
            const result: Acceptance = added ? "stored" : "duplicate-delivery";
            logger.debug("webhook accepted", { delivery: command.record.deliveryId, event: message.event, result });
            tell({ type: "stored", segment });
          },
          (error: unknown) => {
            logger.error("could not store an answered command; it stays in the journal for the next start", {
              delivery: command.record.deliveryId,
              error: error instanceof Error ? error.message : String(error),
            });
          },
        );
        break;
      }
      case "route":
        void (async () => {
          const route = options.routes[message.path];
          const answer = await route?.().catch((error: unknown) => ({
            status: 500,
            type: "text/plain",
            body: `${error instanceof Error ? error.message : String(error)}\n`,
          }));
          tell({
            type: "route-answer",
            ask: message.ask,
            status: answer?.status ?? 404,
            contentType: answer?.type ?? "text/plain",
            body: answer?.body ?? "not found\n",
          });
        })();
        break;
      case "closed":
        closed?.();
        break;
    }
  });
  worker.on("error", (error) => {
    listening?.(error);
    options.onCrash(error);
  });

  const start = await started;
  if (start instanceof Error) {
    await worker.terminate();
    throw start;
  }
  return {
    url: start.url,
    port: start.port,
    async close() {
      await new Promise<void>((resolve) => {
        closed = resolve;
        worker.once("exit", () => {
          resolve();
        });
        tell({ type: "close" });
      });
      await worker.terminate();
    },
  };
}
