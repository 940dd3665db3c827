/** The model, as the loop sees it: chat in, text and token usage out. Implemented over the openai SDK. */

export interface ChatMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
}

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly maxTokens?: number;
  readonly signal?: AbortSignal;
}

export interface ChatResponse {
  readonly text: string;
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number; readonly totalTokens: number };
}

/** Thrown by adapters for failures the loop reports as `failed` (after the adapter's own retries). */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = "ModelError";
  }
}

export interface ModelClient {
  complete(request: ChatRequest): Promise<ChatResponse>;
}
