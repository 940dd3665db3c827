/** What the webhook thread (ingress-thread-main.ts) and the main thread (ingress-thread.ts) say to each other. */
import type { StorableCommand } from "./accept-delivery.js";

export interface IngressThreadData {
  readonly host: string;
  readonly port: number;
  readonly webhookPath: string;
  readonly secret: string;
  readonly journalDir: string;
  /** GET paths the main thread answers (metrics, readiness, liveness); the thread forwards them. */
  readonly routes: readonly string[];
}

export type FromIngressThread =
  | { readonly type: "listening"; readonly url: string; readonly port: number }
  | { readonly type: "failed"; readonly message: string }
  | {
      readonly type: "log";
      readonly level: "debug" | "info" | "warn" | "error";
      readonly message: string;
      readonly fields?: Record<string, unknown>;
    }
  | { readonly type: "answered"; readonly status: number; readonly seconds: number }
  /** Durable in the journal's `segment`, and answered: the main thread stores it in the inbox queue. */
  | {
      readonly type: "command";
      readonly segment: number;
      readonly event: string;
      readonly command: StorableCommand;
    }
  | { readonly type: "route"; readonly ask: number; readonly path: string }
  | { readonly type: "closed" };

export type ToIngressThread =
  | { readonly type: "stored"; readonly segment: number }
  | {
      readonly type: "route-answer";
      readonly ask: number;
      readonly status: number;
      readonly contentType: string;
      readonly body: string;
    }
  | { readonly type: "close" };
