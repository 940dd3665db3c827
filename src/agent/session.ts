/**
 * One fix run's conversation with the model: every call checks the token and time budgets first, is cut off when
 * the wall-time budget runs out while it waits, records its usage (estimated when the endpoint reports none), and
 * turns adapter failures into values the loop can report.
 */
import { ModelError, type ChatMessage, type ChatResponse, type ToolSpec } from "../ports/model-client.js";
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
import { LOOKUP_TOOLS, lookupRequestsOf, requestOfToolCall, type LookupRequest } from "./lookups.js";
import type { Usage } from "./types.js";

export type AskResult =
  | { readonly ok: true; readonly text: string; readonly lookups?: number }
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

/** Rounds of lookups (files read, searches) the model may take before one reply must be its edits. */
export const MAX_LOOKUP_ROUNDS = 3;

/** Answers what the model asked to see (lookups.ts). */
export type LookupHandler = (request: LookupRequest) => Promise<string>;

type CallResult = { readonly ok: true; readonly response: ChatResponse } | Extract<AskResult, { ok: false }>;

export class Session {
  private messages: ChatMessage[];
  private usageTotal: Usage = NO_USAGE;
  /** False once the endpoint refused function tools: lookups then use the text form only. */
  private toolsWork = true;
  attemptsUsed = 0;
  /** Lookup rounds answered so far, for the report. */
  lookupRounds = 0;

  constructor(
    private readonly deps: FixDeps,
    readonly model: string,
    readonly limits: Limits,
    readonly startedAt: number,
    system: string,
    private readonly lookup?: LookupHandler,
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

  /**
   * Sends `prompt` after the conversation so far; the reply joins the conversation. When the model asks to see files
   * or search the repository (tool calls, or the text form), the answers are sent and it is asked again, for at most
   * MAX_LOOKUP_ROUNDS rounds; the text returned is its first reply that is not a lookup.
   */
  async ask(prompt: string): Promise<AskResult> {
    let messages: ChatMessage[] = [...this.messages, { role: "user", content: prompt }];
    for (let round = 0; ; round++) {
      const canLook = this.lookup !== undefined && round < MAX_LOOKUP_ROUNDS;
      const result = await this.call(messages, canLook && this.toolsWork ? LOOKUP_TOOLS : undefined);
      if (!result.ok) return result;
      const { response } = result;
      const lookup = this.lookup;
      const calls = response.toolCalls ?? [];
      const requests = canLook ? lookupRequestsOf(response.text) : [];
      if (lookup === undefined || !canLook || (calls.length === 0 && requests.length === 0)) {
        this.messages = [...messages, { role: "assistant", content: response.text }];
        return { ok: true, text: response.text, lookups: round };
      }
      this.lookupRounds++;
      const last = round + 1 >= MAX_LOOKUP_ROUNDS ? "\n\nThat was the last lookup: reply with your edits now." : "";
      if (calls.length > 0) {
        messages = [...messages, { role: "assistant", content: response.text, toolCalls: calls }];
        for (const call of calls) {
          const request = requestOfToolCall(call);
          const content = typeof request === "string" ? request : await lookup(request);
          messages.push({ role: "tool", toolCallId: call.id, content: `${content}${last}` });
        }
        continue;
      }
      const answers: string[] = [];
      for (const request of requests) answers.push(await lookup(request));
      const answer = `Here is what you asked for.\n\n${answers.join("\n\n")}\n\nNow reply with your edits (or ask for more).${last}`;
      messages = [...messages, { role: "assistant", content: response.text }, { role: "user", content: answer }];
    }
  }

  /** One model call: budgets first, cut off at the deadline, usage counted, a refusal of tools asked again without. */
  private async call(messages: readonly ChatMessage[], tools: readonly ToolSpec[] | undefined): Promise<CallResult> {
    const now = this.now();
    const stop = checkSpend(this.limits, this.state(), now);
    if (stop) return { ok: false, stop };
    const left = this.limits.tokenBudget - this.usageTotal.totalTokens;
    const deadline = startDeadline(remainingMs(this.limits, this.state(), now));
    try {
      const ask = (offered: readonly ToolSpec[] | undefined) =>
        this.deps.model.complete({
          model: this.model,
          messages,
          maxTokens: Math.max(256, Math.min(MAX_COMPLETION_TOKENS, left)),
          ...(offered === undefined ? {} : { tools: offered }),
          signal: deadline.signal,
        });
      const call = ask(tools).catch((error: unknown) => {
        if (!(error instanceof ModelError) || !error.toolsRefused || tools === undefined) throw error;
        // The endpoint takes no function tools: the text form (taught in the system prompt) remains.
        this.toolsWork = false;
        this.deps.logger.info("the model endpoint refused tools; lookups use the text form", { model: this.model });
        return ask(undefined);
      });
      const response = await Promise.race([call, deadline.expired]);
      if (response === "expired") return this.deadlineStop();
      const usage = usageOfCall(messages, response);
      this.usageTotal = addUsage(this.usageTotal, usage);
      this.deps.logger.debug("model reply", {
        model: this.model,
        tokens: usage.totalTokens,
        ...(usage.estimatedCalls === undefined ? {} : { estimated: true }),
      });
      return { ok: true, response };
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

  private deadlineStop(): Extract<AskResult, { ok: false }> {
    // The timer is real time; an injected clock may not have moved, so the elapsed time is at least the budget.
    const elapsed = Math.max(this.now() - this.startedAt, this.limits.wallTimeMs);
    const spent = wallTimeStop(this.limits, elapsed);
    const message = `${spent.message} The model had not answered yet; its call was cancelled.`;
    this.deps.logger.warn("model call cut off by the wall-time budget", { model: this.model });
    return { ok: false, stop: { reason: "wall-time", message } };
  }
}
