/**
 * One fix run's conversation with the model: every call checks the token and time budgets first, records its
 * usage, and turns adapter failures into values the loop can report.
 */
import { ModelError, type ChatMessage } from "../ports/model-client.js";
import { addUsage, checkSpend, NO_USAGE, type BudgetState, type BudgetStop, type Limits } from "./budget.js";
import type { FixDeps } from "./deps.js";
import type { Usage } from "./types.js";

export type AskResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly stop: BudgetStop }
  | { readonly ok: false; readonly stop: { readonly reason: "model-error"; readonly message: string } };

/** Completion cap per call: enough for a few files' edits; the token budget still bounds the whole run. */
const MAX_COMPLETION_TOKENS = 8_192;

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
    const stop = checkSpend(this.limits, this.state(), this.now());
    if (stop) return { ok: false, stop };
    const messages: ChatMessage[] = [...this.messages, { role: "user", content: prompt }];
    const left = this.limits.tokenBudget - this.usageTotal.totalTokens;
    try {
      const response = await this.deps.model.complete({
        model: this.model,
        messages,
        maxTokens: Math.max(256, Math.min(MAX_COMPLETION_TOKENS, left)),
      });
      this.usageTotal = addUsage(this.usageTotal, response.usage);
      this.messages.push({ role: "user", content: prompt }, { role: "assistant", content: response.text });
      this.deps.logger.debug("model reply", { model: this.model, tokens: response.usage.totalTokens });
      return { ok: true, text: response.text };
    } catch (error) {
      // Any adapter failure ends the run as `failed`: the adapter already retried what was worth retrying.
      const status = error instanceof ModelError && error.status !== undefined ? ` (HTTP ${error.status})` : "";
      const message = `The model call failed${status}: ${error instanceof Error ? error.message : String(error)}`;
      this.deps.logger.warn("model call failed", { model: this.model, message });
      return { ok: false, stop: { reason: "model-error", message } };
    }
  }
}
