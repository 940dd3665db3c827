/** Where a command was written: an issue, a pull request, or a review comment with the lines it points at. */
import { z } from "zod";

export const targetSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("issue"), number: z.number().int().positive() }),
  z.object({ kind: z.literal("pull"), number: z.number().int().positive() }),
  z.object({
    kind: z.literal("review"),
    number: z.number().int().positive(),
    commentId: z.number().int(),
    path: z.string().min(1),
    line: z.number().int().positive(),
    startLine: z.number().int().positive().nullable(),
  }),
]);

export type CommentTarget = z.infer<typeof targetSchema>;
