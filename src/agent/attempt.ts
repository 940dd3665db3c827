/**
 * One attempt's editing phase: ask, apply in partial mode, and if edits failed (or none came), exactly one retry
 * with the model-readable failures and the fresh content of the affected files; then the round is over.
 */
import type { FormatName } from "../core/edit.js";
import type { EditResult } from "../core/result.js";
import { holdsNoEdits } from "../apply/plan-reply.js";
import { applyReplyToTree, retryPromptFor, type ApplyRules, type EarlierContent } from "./apply-step.js";
import type { BudgetStop } from "./budget.js";
import { buildNoEditsPrompt } from "./build-prompt.js";
import type { WorkTree } from "./deps.js";
import type { Session } from "./session.js";
import type { Timings } from "./timings.js";
import type { EditOutcome } from "./types.js";

export type LoopStop = BudgetStop | { readonly reason: "model-error"; readonly message: string };

export interface EditPhase {
  readonly outcomes: readonly EditOutcome[];
  readonly retried: boolean;
  /** Paths changed by this attempt, in first-write order. */
  readonly written: readonly string[];
  /** What each written path held before this attempt (null: it did not exist). */
  readonly preimages: ReadonlyMap<string, string | null>;
  /** The engine's last write of each written path (null: deleted). */
  readonly contents: ReadonlyMap<string, string | null>;
  /** The executable bit the engine last set on a written path, where it set one. */
  readonly modes: ReadonlyMap<string, boolean>;
  readonly replies: readonly string[];
  /** The last round's failures (model-readable), for the report and the next prompt. */
  readonly failures: readonly EditResult[];
  /** The last reply held no edit at all (the next prompt teaches the format again). */
  readonly lastReplyEmpty: boolean;
  /** The model answered DONE where it was allowed to (acceptsDone), with no edit. */
  readonly declaredDone?: boolean;
  /** Set when the budget or the model stopped the phase. */
  readonly stop?: LoopStop;
}

export interface EditPhaseInput {
  readonly session: Session;
  readonly tree: WorkTree;
  readonly rules: ApplyRules;
  readonly prompt: string;
  readonly testsFailing: boolean;
  /** The dialect the model was taught (taught again after a reply without edits). */
  readonly format: FormatName;
  readonly timings: Timings;
  readonly onApplying?: () => void;
  /** The model may answer DONE instead of editing (the failures left all failed before the change). */
  readonly acceptsDone?: boolean;
  /**
   * What a path held before earlier attempts' edits still in the tree unaccepted: null when it did not exist,
   * undefined when no such edit touched it.
   */
  readonly earlier?: (path: string) => string | null | undefined;
}

/** A reply that holds no edit and says DONE on a line of its own. */
const DECLARES_DONE = /^\s*\**DONE\**\.?\s*$/im;

export async function runEditPhase(input: EditPhaseInput): Promise<EditPhase> {
  const outcomes: EditOutcome[] = [];
  const written: string[] = [];
  const preimages = new Map<string, string | null>();
  const contents = new Map<string, string | null>();
  const modes = new Map<string, boolean>();
  const replies: string[] = [];
  let failures: readonly EditResult[] = [];
  let lastReplyEmpty = false;
  let retried = false;
  // Before this attempt's own edits too: a retry may resend an edit its first round already made.
  const earlierContent: EarlierContent = (path) => {
    const before = input.earlier?.(path);
    const content = before === undefined ? preimages.get(path) : before;
    return typeof content === "string" ? content : undefined;
  };

  const round = async (
    prompt: string,
  ): Promise<{ results: readonly EditResult[]; empty: boolean } | { stop: LoopStop }> => {
    const asked = await input.timings.measure("model", () => input.session.ask(prompt));
    if (!asked.ok) return { stop: asked.stop };
    replies.push(asked.text);
    input.onApplying?.();
    const applied = await input.timings.measure("apply", () =>
      applyReplyToTree(asked.text, input.tree, input.rules, earlierContent),
    );
    lastReplyEmpty = holdsNoEdits(applied.results);
    if (!lastReplyEmpty) outcomes.push(...applied.outcomes);
    for (const path of applied.written) if (!written.includes(path)) written.push(path);
    for (const [path, before] of applied.preimages) if (!preimages.has(path)) preimages.set(path, before);
    for (const [path, content] of applied.contents) contents.set(path, content);
    for (const [path, executable] of applied.modes) modes.set(path, executable);
    failures = lastReplyEmpty ? [] : applied.results.filter((r) => !r.ok);
    return { results: applied.results, empty: lastReplyEmpty };
  };

  const done = (stop?: LoopStop): EditPhase => ({
    outcomes,
    retried,
    written,
    preimages,
    contents,
    modes,
    replies,
    failures,
    lastReplyEmpty,
    ...(stop ? { stop } : {}),
  });

  const first = await round(input.prompt);
  if ("stop" in first) return done(first.stop);
  if (first.empty && input.acceptsDone === true && DECLARES_DONE.test(replies[0] ?? "")) {
    return { ...done(), declaredDone: true };
  }
  if (!first.empty && failures.length === 0) return done();

  retried = true;
  const retryPrompt = first.empty
    ? buildNoEditsPrompt(input.testsFailing, input.format)
    : await retryPromptFor(input.tree, first.results, input.rules.guard);
  const second = await round(retryPrompt);
  return done("stop" in second ? second.stop : undefined);
}
