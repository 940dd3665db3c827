/**
 * Asks GitHub to send again the webhook deliveries the app missed (missed-deliveries.ts decides which), at start and
 * then periodically: a command written while the app was down or unreachable is not lost. The dedupe by delivery id
 * makes a redelivery of something that was in fact stored harmless.
 */
import type { Octokit } from "../adapters/octokit-gateway.js";
import type { Logger } from "../ports/logger.js";
import { describeApiError, httpStatusOf } from "./api-error.js";
import { REDELIVERY_WINDOW_MS, attemptsToRedeliver, type DeliveryAttempt } from "./missed-deliveries.js";

interface ListedAttempt {
  readonly id: number;
  readonly guid: string;
  readonly delivered_at: string;
  readonly redelivery: boolean;
  readonly status_code: number;
  readonly event: string;
}

/** Lists the attempts of the redelivery window (newest first, page by page) and asks for the missed ones again. */
export async function reconcileDeliveries(
  app: () => Promise<Octokit>,
  logger: Logger,
  now: () => number = Date.now,
): Promise<number> {
  const octokit = await app();
  const attempts: DeliveryAttempt[] = [];
  const oldest = now() - REDELIVERY_WINDOW_MS;
  for await (const page of octokit.paginate.iterator("GET /app/hook/deliveries", { per_page: 100 })) {
    const listed = page.data as unknown as readonly ListedAttempt[];
    for (const attempt of listed) {
      attempts.push({
        id: attempt.id,
        guid: attempt.guid,
        deliveredAt: attempt.delivered_at,
        redelivery: attempt.redelivery,
        statusCode: attempt.status_code,
        event: attempt.event,
      });
    }
    const last = listed[listed.length - 1];
    if (last === undefined || Date.parse(last.delivered_at) < oldest) break;
  }
  const ids = attemptsToRedeliver(attempts, now());
  let asked = 0;
  for (const id of ids) {
    try {
      await octokit.request("POST /app/hook/deliveries/{delivery_id}/attempts", { delivery_id: id });
      asked += 1;
    } catch (error) {
      logger.warn("could not ask GitHub to redeliver a missed delivery", {
        attempt: id,
        status: httpStatusOf(error),
        error: describeApiError(error),
      });
    }
  }
  if (asked > 0) logger.info("asked GitHub to redeliver missed deliveries", { count: asked });
  return asked;
}

/** Reconciles now and then every `everyMs`; failures are logged (the next round tries again). */
export function scheduleReconciliation(app: () => Promise<Octokit>, logger: Logger, everyMs: number): { stop(): void } {
  const round = (): void => {
    reconcileDeliveries(app, logger).catch((error: unknown) => {
      logger.warn("could not list the app's webhook deliveries", {
        status: httpStatusOf(error),
        error: describeApiError(error),
      });
    });
  };
  round();
  const timer = setInterval(round, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}
