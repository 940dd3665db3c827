/**
 * The real ModelClient over the openai SDK (chat completions, non-streaming). Retries with back-off on 408/409/429/5xx
 * and connection errors, honouring retry-after, are the SDK's own; failures become ModelError with redacted text.
 * The request's AbortSignal cancels at once, even during a back-off, and a cancelled call is never retried.
 */
import OpenAI from "openai";
import type { ChatRequest, ChatResponse, ModelClient } from "../ports/model-client.js";
import { ModelError } from "../ports/model-client.js";
import { redactSecrets } from "../core/redact.js";

export interface OpenAIModelClientOptions {
  readonly apiKey: string;
  /** Any OpenAI-compatible endpoint (Ollama, vLLM, Azure's v1 API); default: OPENAI_BASE_URL, else OpenAI. */
  readonly baseURL?: string;
  /** Per attempt (default 120 s). */
  readonly timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  readonly maxRetries?: number;
  /**
   * Which field carries the output limit first. OpenAI's newer models (and reasoning models on Azure and other hosts)
   * refuse `max_tokens`; many compatible servers only know it. Default: `max_completion_tokens` for api.openai.com,
   * `max_tokens` elsewhere. An endpoint that refuses the field by name gets the other one, with the same limit, from
   * then on.
   */
  readonly maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** Replaces the global fetch (tests, proxies). */
  readonly fetch?: typeof fetch;
}

export const DEFAULT_MODEL_TIMEOUT_MS = 120_000;
export const DEFAULT_MODEL_MAX_RETRIES = 3;

function isOpenAIHost(baseURL: string | undefined): boolean {
  if (baseURL === undefined) return true;
  try {
    return new URL(baseURL).hostname === "api.openai.com";
  } catch {
    return false;
  }
}

type LimitField = "max_tokens" | "max_completion_tokens";

/** A 400 that names the output-limit field the request used: the endpoint wants the other one. */
function refusesLimitField(error: unknown, field: LimitField): boolean {
  if (!(error instanceof OpenAI.APIError) || (error.status !== 400 && error.status !== 422)) return false;
  const param = (error as { param?: unknown }).param;
  return param === field || error.message.includes(field);
}

const otherField = (field: LimitField): LimitField => (field === "max_tokens" ? "max_completion_tokens" : "max_tokens");

/** What an endpoint that has no function tools says when offered some (vLLM, Ollama builds, older proxies). */
const TOOLS_REFUSED = /tool|function/i;

function toModelError(error: unknown, secrets: readonly string[], offeredTools: boolean): ModelError {
  if (error instanceof ModelError) return error;
  const redact = (text: string): string => redactSecrets(text, secrets);
  if (error instanceof OpenAI.APIUserAbortError) return new ModelError("the model request was cancelled", undefined);
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelError("the model did not answer in time (request timed out after retries)", undefined);
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new ModelError(redact(`could not reach the model endpoint: ${error.message}`), undefined);
  }
  if (error instanceof OpenAI.APIError) {
    const status = typeof error.status === "number" ? error.status : undefined;
    const refused = offeredTools && (status === 400 || status === 422) && TOOLS_REFUSED.test(error.message);
    return new ModelError(
      redact(`the model endpoint answered ${status ?? "with an error"}: ${error.message}`),
      status,
      refused,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError(redact(`model request failed: ${message}`), undefined);
}

type SdkMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function toSdkMessage(message: ChatRequest["messages"][number]): SdkMessage {
  switch (message.role) {
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "assistant":
      return message.toolCalls === undefined || message.toolCalls.length === 0
        ? { role: "assistant", content: message.content }
        : {
            role: "assistant",
            content: message.content === "" ? null : message.content,
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: "function" as const,
              function: { name: call.name, arguments: call.arguments },
            })),
          };
    case "system":
    case "user":
      return { role: message.role, content: message.content };
  }
}

/**
 * Settles with the call, or rejects as soon as `signal` aborts. The SDK itself cancels an in-flight request on abort
 * and never retries it, but it looks at the signal only between its steps: a back-off sleep between retries (up to
 * a minute when the server sends retry-after) would otherwise hold the caller past its deadline.
 */
function untilAborted<T>(call: PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return Promise.resolve(call);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(new OpenAI.APIUserAbortError());
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    // The call's own rejection after an abort lands here too (and is ignored: the promise is settled), so it is
    // never an unhandled rejection.
    call.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export function createOpenAIModelClient(options: OpenAIModelClientOptions): ModelClient {
  const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL;
  const client = new OpenAI({
    apiKey: options.apiKey,
    ...(baseURL === undefined ? {} : { baseURL }),
    timeout: options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MODEL_MAX_RETRIES,
    // Our logger is the only thing that writes to stderr (JSON lines, redacted).
    logLevel: "off",
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  let limitField: LimitField =
    options.maxTokensField ?? (isOpenAIHost(baseURL) ? "max_completion_tokens" : "max_tokens");
  const secrets = [options.apiKey];

  return {
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const offeredTools = request.tools !== undefined && request.tools.length > 0;
      const create = (field: LimitField) =>
        untilAborted(
          client.chat.completions.create(
            {
              model: request.model,
              messages: request.messages.map(toSdkMessage),
              ...(request.maxTokens === undefined ? {} : { [field]: request.maxTokens }),
              ...(offeredTools
                ? {
                    tools: (request.tools ?? []).map((tool) => ({
                      type: "function" as const,
                      function: { name: tool.name, description: tool.description, parameters: { ...tool.parameters } },
                    })),
                  }
                : {}),
            },
            request.signal === undefined ? {} : { signal: request.signal },
          ),
          request.signal,
        );
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        try {
          completion = await create(limitField);
        } catch (error) {
          if (request.maxTokens === undefined || !refusesLimitField(error, limitField)) throw error;
          limitField = otherField(limitField);
          completion = await create(limitField);
        }
      } catch (error) {
        throw toModelError(error, secrets, offeredTools);
      }
      const choice = completion.choices[0];
      const toolCalls = (choice?.message.tool_calls ?? [])
        .filter((call) => call.type === "function")
        .map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments }));
      const text = choice?.message.content ?? (toolCalls.length > 0 ? "" : undefined);
      if (choice === undefined || typeof text !== "string") {
        const why = choice === undefined ? "no choices" : `no text (finish reason: ${choice.finish_reason})`;
        throw new ModelError(`the model returned ${why}`, undefined);
      }
      const usage = completion.usage;
      const promptTokens = usage?.prompt_tokens ?? 0;
      const completionTokens = usage?.completion_tokens ?? 0;
      return {
        text,
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
        usage: { promptTokens, completionTokens, totalTokens: usage?.total_tokens ?? promptTokens + completionTokens },
      };
    },
  };
}
