/**
 * Which webhook deliveries to ask GitHub to send again (pure). GitHub does not retry a delivery that failed (the
 * app was down, a proxy timed out); it lists every attempt, and redelivers one when asked. A delivery (its GUID) is
 * missed when none of its attempts was answered 2xx; it is asked for again when its last attempt failed in a way
 * that may pass now (no answer, or a 5xx), when GitHub still keeps it, and a bounded number of times. A 4xx is the
 * app refusing it on purpose (a bad signature, too large): sending it again would change nothing.
 */

/** One attempt, as GET /app/hook/deliveries lists it. */
export interface DeliveryAttempt {
  readonly id: number;
  readonly guid: string;
  /** ISO time. */
  readonly deliveredAt: string;
  readonly redelivery: boolean;
  /** 0 when nothing answered (a timeout, a refused connection). */
  readonly statusCode: number;
  readonly event: string;
}

/** GitHub redelivers only what it still keeps (three days); a margin keeps clear of the edge. */
export const REDELIVERY_WINDOW_MS = 71 * 60 * 60 * 1000;

/** Times one delivery is asked for again at most (its original attempt not counted). */
export const MAX_REDELIVERIES = 5;

/** The events the app acts on: redelivering anything else would only be acknowledged and dropped. */
const WANTED_EVENTS = new Set(["issue_comment", "pull_request_review_comment"]);

const isSuccess = (code: number): boolean => code >= 200 && code < 300;
const mayPassNow = (code: number): boolean => code === 0 || code >= 500 || code === 429;

/** The attempt ids to redeliver: the latest failed attempt of each missed delivery. */
export function attemptsToRedeliver(attempts: readonly DeliveryAttempt[], now: number): number[] {
  const byGuid = new Map<string, DeliveryAttempt[]>();
  for (const attempt of attempts) {
    if (!WANTED_EVENTS.has(attempt.event)) continue;
    const list = byGuid.get(attempt.guid) ?? [];
    list.push(attempt);
    byGuid.set(attempt.guid, list);
  }
  const chosen: number[] = [];
  for (const list of byGuid.values()) {
    if (list.some((attempt) => isSuccess(attempt.statusCode))) continue;
    const sorted = [...list].sort((a, b) => Date.parse(a.deliveredAt) - Date.parse(b.deliveredAt));
    const first = sorted[0]!;
    const last = sorted[sorted.length - 1]!;
    if (now - Date.parse(first.deliveredAt) > REDELIVERY_WINDOW_MS) continue;
    if (!mayPassNow(last.statusCode)) continue;
    if (sorted.filter((attempt) => attempt.redelivery).length >= MAX_REDELIVERIES) continue;
    chosen.push(last.id);
  }
  return chosen;
}
