/**
 * What a signed delivery becomes before the webhook answers: a comment event that holds a command, from someone who
 * is not a bot, is written to the intake queue (deduplicated by delivery id); anything else is acknowledged and
 * dropped. No GitHub call happens here: the answer waits only for the disk.
 */
import { asStoredEvent, intakeGroup, type IntakeRecord } from "./intake-record.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Logger } from "../ports/logger.js";
import { screenActor } from "./authorize.js";
import { toCommentEvent, type CommentEvent } from "./comment-event.js";
import { MARKER } from "./markdown.js";
import { selectCommand } from "./parse-command.js";
import type { Delivery } from "./webhook-ingress.js";

export type Acceptance = "stored" | "duplicate-delivery" | "not-a-comment" | "no-command" | "ignored";

/** A comment event worth the intake's time: a new command, not patchsmith's own text, not from a bot. */
export function holdsCommand(event: CommentEvent): boolean {
  if (event.comment.body.includes(MARKER)) return false;
  if (selectCommand(event.comment.body, event.comment.previousBody) === undefined) return false;
  return screenActor(event.sender, undefined).ok;
}

/** A command to store: the intake record, its dedupe id and its thread. */
export interface StorableCommand {
  readonly record: IntakeRecord;
  readonly id: string;
  readonly group: string;
}

/** What a delivery is worth storing as (pure apart from the warning it logs): a command, or why nothing. */
export function commandOf(
  delivery: Delivery,
  logger: Logger,
  now: () => number,
): StorableCommand | Exclude<Acceptance, "stored" | "duplicate-delivery"> {
  if (delivery.name !== "issue_comment" && delivery.name !== "pull_request_review_comment") return "not-a-comment";
  const parsed = toCommentEvent(delivery.name, delivery.payload);
  if (!parsed.ok) {
    if (parsed.reason !== "ignored-action") {
      logger.warn("ignoring a comment event", {
        delivery: delivery.id,
        reason: parsed.reason,
        problem: parsed.message,
      });
    }
    return "ignored";
  }
  if (!holdsCommand(parsed.event)) return "no-command";
  return {
    record: { version: 1, deliveryId: delivery.id, receivedAt: now(), event: asStoredEvent(parsed.event) },
    id: `delivery-${delivery.id}`,
    group: intakeGroup(parsed.event.repo, parsed.event.target.number),
  };
}

export async function acceptDelivery(
  delivery: Delivery,
  inbox: JobQueue<IntakeRecord>,
  logger: Logger,
  now: () => number,
): Promise<Acceptance> {
  const command = commandOf(delivery, logger, now);
  if (typeof command === "string") return command;
  return (await inbox.add(command.record, { id: command.id, group: command.group })) ? "stored" : "duplicate-delivery";
}
