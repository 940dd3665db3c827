/**
 * The model, as the loop sees it: a chat in; text, the tools it wants called, and token usage out. Implemented over
 * the openai SDK (any OpenAI-compatible endpoint).
 */
import type { FormatName } from "../core/edit.js";

/** A call the model asked for (OpenAI's function tools). `arguments` is the model's JSON text, unparsed. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export type ChatMessage =
  | { readonly role: "system" | "user"; readonly content: string }
  | { readonly role: "assistant"; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
  | { readonly role: "tool"; readonly toolCallId: string; readonly content: string };

/** A tool the model may call: a name, what it does, and its parameters as JSON Schema. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly maxTokens?: number;
  /** Offered only to endpoints that take tools; one that refuses them is asked again without. */
  readonly tools?: readonly ToolSpec[];
  readonly signal?: AbortSignal;
}

export interface ChatResponse {
  /** The reply's text ("" when the model only asked for tool calls). */
  readonly text: string;
  readonly toolCalls?: readonly ToolCall[];
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number; readonly totalTokens: number };
  /** USD per million tokens, when the operator priced this model: the loop counts the cost. */
  readonly price?: { readonly input: number; readonly output: number };
}

/** Thrown by adapters for failures the loop reports as `failed` (after the adapter's own retries). */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    /** The endpoint refused the request because it offered tools: ask again without them. */
    readonly toolsRefused = false,
  ) {
    super(message);
    this.name = "ModelError";
  }
}

export interface ModelClient {
  complete(request: ChatRequest): Promise<ChatResponse>;
  /** The edit dialect the operator set for a model name (PATCHSMITH_MODELS_FILE), if any. */
  editFormatFor?(model: string): FormatName | undefined;
}
