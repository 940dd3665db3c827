/**
 * Token figures for a model call whose endpoint reported none (some OpenAI-compatible servers leave `usage` out, or
 * send zeros). Without them the token budget would never bind, so the run estimates instead (pure).
 *
 * The rule: about 4 characters a token (the published rule of thumb for English and code with OpenAI's tokenizers),
 * rounded up, over the text of every message sent (the whole conversation, since each call re-sends it) and over the
 * reply. It errs a little high for code, which is the safe side for a budget.
 */
import { costOf } from "../core/money.js";
import type { ChatMessage, ChatResponse } from "../ports/model-client.js";
import type { Usage } from "./types.js";

export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** True when the endpoint reported usage we can count on (a call always costs at least one token). */
function isReported(usage: ChatResponse["usage"]): boolean {
  return Number.isFinite(usage.totalTokens) && usage.totalTokens > 0;
}

/** One call's usage: the endpoint's figures when it gave any, else the estimate (marked in `estimatedCalls`). */
export function usageOfCall(messages: readonly ChatMessage[], response: ChatResponse): Usage {
  const usage = tokensOfCall(messages, response);
  const price = response.price;
  return price === undefined ? usage : { ...usage, costUsd: costOf(price, usage.promptTokens, usage.completionTokens) };
}

function tokensOfCall(messages: readonly ChatMessage[], response: ChatResponse): Usage {
  const reported = response.usage;
  if (isReported(reported)) {
    const { promptTokens, completionTokens, totalTokens } = reported;
    return { calls: 1, promptTokens, completionTokens, totalTokens };
  }
  const promptTokens = messages.reduce((sum, message) => sum + estimateTokens(message.content), 0);
  const completionTokens = estimateTokens(
    response.text + (response.toolCalls ?? []).map((call) => `${call.name}${call.arguments}`).join(""),
  );
  return {
    calls: 1,
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    estimatedCalls: 1,
  };
}
