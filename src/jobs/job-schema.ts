/**
 * The job record a webhook handler leaves for the worker: small, serialisable, versioned, validated on both sides
 * (a durable queue may hand a worker a record written by an older or newer release).
 */
import { z } from "zod";
import { targetSchema } from "../github/comment-target.js";

const repoSchema = z.object({ owner: z.string().min(1), name: z.string().min(1) });

const requesterSchema = z.object({ login: z.string().min(1), id: z.number().int() });

const commandSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("fix"), instructions: z.string(), suggest: z.boolean() }),
  z.object({ kind: z.literal("undo") }),
]);

export const jobSchema = z.object({
  version: z.literal(1),
  id: z.string().min(1),
  deliveryId: z.string(),
  installationId: z.number().int(),
  repo: repoSchema,
  target: targetSchema,
  command: commandSchema,
  requester: requesterSchema,
  comment: z.object({ id: z.number().int(), htmlUrl: z.string(), kind: z.enum(["issue-comment", "review-comment"]) }),
  /** The PR head SHA when the command arrived: the job stops if it moved before the job starts. */
  headSha: z.string().nullable(),
  /** The comment the worker edits as the job moves; null for jobs that answer with a single comment. */
  progressCommentId: z.number().int().nullable(),
  enqueuedAt: z.number(),
});

export type Job = z.infer<typeof jobSchema>;
export type JobTarget = Job["target"];
export type JobCommand = Job["command"];

export type JobParse = { readonly ok: true; readonly job: Job } | { readonly ok: false; readonly message: string };

/** Validates a record read from a queue; the message names the offending fields. */
export function parseJob(value: unknown): JobParse {
  const parsed = jobSchema.safeParse(value);
  if (parsed.success) return { ok: true, job: parsed.data };
  return { ok: false, message: z.prettifyError(parsed.error) };
}

/** One job at a time per issue or pull request. */
export function jobGroup(repo: { readonly owner: string; readonly name: string }, number: number): string {
  return `${repo.owner}/${repo.name}#${number}`;
}
