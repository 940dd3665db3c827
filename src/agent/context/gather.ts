/**
 * What the model sees of the repository in its first prompt, within a budget. Two stages: `rankContext` (rank.ts)
 * runs while set-up and the baseline tests run; `selectContext` (select.ts) then fills the budget once the baseline
 * has named its failing tests.
 */
import type { FailureBlock } from "../failures/types.js";
import { rankContext } from "./rank.js";
import { selectContext } from "./select.js";
import type { ContextInput, GatheredContext } from "./types.js";

export type { ContextFile, ContextInput, ContextReason, GatheredContext } from "./types.js";

/** Both stages at once, for callers without a baseline to wait for (the bench, a suggestion). */
export async function gatherContext(
  input: ContextInput,
  failures: readonly FailureBlock[] = [],
): Promise<GatheredContext> {
  return selectContext(await rankContext(input), failures);
}
