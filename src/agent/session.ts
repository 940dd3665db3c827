/**
 * One fix run's conversation with the model: every call checks the token and time budgets first, is cut off when
 * the wall-time budget runs out while it waits, records its usage (estimated when the endpoint reports none), and
 * turns adapter failures into values the loop can report.
 */
import { ModelError, type ChatMessage } from "../ports/model-client.js";
import {
  addUsage,
  checkSpend,
  NO_USAGE,
  remainingMs,
  wallTimeStop,
  type BudgetState,
  type BudgetStop,
  type Limits,
} from "./budget.js";
import type { FixDeps } from "./deps.js";
import { usageOfCall } from "./estimate-usage.js";
import type { Usage } from "./types.js";

export type AskResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly stop: BudgetStop }
  | { readonly ok: false; readonly stop: { readonly reason: "model-error"; readonly message: string } };

/** Completion cap per call: enough for a few files' edits; the token budget still bounds the whole run. */
const MAX_COMPLETION_TOKENS = 8_192;

/** setTimeout fires at once for delays above 2^31-1 ms (about 24.8 days): such budgets need no timer at all. */
const MAX_TIMER_MS = 2_147_483_647;

interface Deadline {
  readonly signal: AbortSignal;
  /** Settles when the deadline passes (never, when it is too far away to matter). */
  readonly expired: Promise<"expired">;
  cancel(): void;
}

/**
 * A real timer, not the Clock port: the model call waits on real sockets, so only real time can cut it short. The
 * adapter gets the signal to cancel its request; the race below does not rely on it honouring the signal.
 */
function startDeadline(ms: number): Deadline {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"expired">((resolve) => {
    if (ms > MAX_TIMER_MS) return;
    timer = setTimeout(() => {
      resolve("expired");
      controller.abort(new Error("the wall-time budget ran out"));
    }, ms);
  });
  return {
    signal: controller.signal,
    expired,
    cancel: () => {
      clearTimeout(timer);
    },
  };
}

export class Session {
  private readonly messages: ChatMessage[];
  private usageTotal: Usage = NO_USAGE;
  attemptsUsed = 0;

  constructor(
    private readonly deps: FixDeps,
    readonly model: string,
    readonly limits: Limits,
    readonly startedAt: number,
    system: string,
  ) {
    this.messages = [{ role: "system", content: system }];
  }

  get usage(): Usage {
    return this.usageTotal;
  }

  state(): BudgetState {
    return { attemptsUsed: this.attemptsUsed, usage: this.usageTotal, startedAt: this.startedAt };
  }

  now(): number {
    return this.deps.clock.now();
  }

  /** Sends `prompt` after the conversation so far; the reply joins the conversation. */
  async ask(prompt: string): Promise<AskResult> {
    const now = this.now();
    const stop = checkSpend(this.limits, this.state(), now);
    if (stop) return { ok: false, stop };
    const messages: ChatMessage[] = [...this.messages, { role: "user", content: prompt }];
    const left = this.limits.tokenBudget - this.usageTotal.totalTokens;
    const deadline = startDeadline(remainingMs(this.limits, this.state(), now));
    try {
      const call = this.deps.model.complete({
        model: this.model,
        messages,
        maxTokens: Math.max(256, Math.min(MAX_COMPLETION_TOKENS, left)),
        signal: deadline.signal,
      });
      const response = await Promise.race([call, deadline.expired]);
      if (response === "expired") return this.deadlineStop();
      const usage = usageOfCall(messages, response);
      this.usageTotal = addUsage(this.usageTotal, usage);
      this.messages.push({ role: "user", content: prompt }, { role: "assistant", content: response.text });
      this.deps.logger.debug("model reply", {
        model: this.model,
        tokens: usage.totalTokens,
        ...(usage.estimatedCalls === undefined ? {} : { estimated: true }),
      });
      return { ok: true, text: response.text };
    } catch (error) {
      // The adapter may reject on the abort before the race sees the deadline: that is still the time budget.
      if (deadline.signal.aborted) return this.deadlineStop();
      // Any other adapter failure ends the run as `failed`: the adapter already retried what was worth retrying.
      const status = error instanceof ModelError && error.status !== undefined ? ` (HTTP ${error.status})` : "";
      const message = `The model call failed${status}: ${error instanceof Error ? error.message : String(error)}`;
      this.deps.logger.warn("model call failed", { model: this.model, message });
      return { ok: false, stop: { reason: "model-error", message } };
    } finally {
      deadline.cancel();
    }
  }

  private deadlineStop(): AskResult {
    // The timer is real time; an injected clock may not have moved, so the elapsed time is at least the budget.
    const elapsed = Math.max(this.now() - this.startedAt, this.limits.wallTimeMs);
    const spent = wallTimeStop(this.limits, elapsed);
    const message = `${spent.message} The model had not answered yet; its call was cancelled.`;
    this.deps.logger.warn("model call cut off by the wall-time budget", { model: this.model });
    return { ok: false, stop: { reason: "wall-time", message } };
  }
}
