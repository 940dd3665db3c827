/**
 * The record a webhook leaves before it answers: the comment event as it arrived, written durably before the 2xx.
 * Everything that needs GitHub (the permission check, 👀, the "queued" comment) happens after, in the intake worker
 * (jobs/intake.ts), which turns the record into a job or an answer. Versioned and validated on read like a job record.
 */
import { z } from "zod";
import type { CommentEvent } from "./comment-event.js";
import { targetSchema } from "./comment-target.js";

const commentEventSchema = z.object({
  action: z.enum(["created", "edited"]),
  installationId: z.number().int(),
  repo: z.object({ owner: z.string().min(1), name: z.string().min(1) }),
  sender: z.object({ login: z.string().min(1), id: z.number().int(), type: z.string() }),
  comment: z.object({
    id: z.number().int(),
    body: z.string(),
    previousBody: z.string().optional(),
    htmlUrl: z.string(),
    kind: z.enum(["issue-comment", "review-comment"]),
  }),
  target: targetSchema,
  headSha: z.string().nullable(),
});

export const intakeSchema = z.object({
  version: z.literal(1),
  deliveryId: z.string().min(1),
  /** When the webhook arrived (ms since the epoch): the queued comment is looked for from then on after a crash. */
  receivedAt: z.number(),
  event: commentEventSchema,
});

export type IntakeRecord = z.infer<typeof intakeSchema>;

/** A parsed comment event as the intake stores it (fails to compile if the schema and the parser drift apart). */
export const asStoredEvent: (event: CommentEvent) => IntakeRecord["event"] = (event) => event;

export function parseIntake(value: unknown): IntakeRecord | undefined {
  const parsed = intakeSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Intake runs one record at a time per issue or pull request, in arrival order: the per-thread cap is exact. */
export function intakeGroup(repo: { readonly owner: string; readonly name: string }, number: number): string {
  return `intake:${repo.owner}/${repo.name}#${String(number)}`;
}
