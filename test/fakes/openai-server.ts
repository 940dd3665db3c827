/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat completions API (non-streaming) from a script, and
 * records every request. For the model adapter's tests, the fix loop's tests and the GitHub App's e2e tests.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface FakeUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

/** One answer. A plain string is a reply. */
export type ScriptStep =
  | string
  | { readonly reply: string; readonly usage?: Partial<FakeUsage>; readonly finishReason?: string }
  /** Function tool calls (OpenAI's format), as a model that wants to look something up. */
  | { readonly toolCalls: ReadonlyArray<{ readonly name: string; readonly arguments: string }> }
  | {
      readonly status: number;
      /** Seconds, sent as `retry-after`. */
      readonly retryAfter?: number;
      /** Milliseconds, sent as `retry-after-ms` (the openai SDK honours it: keeps retry tests fast). */
      readonly retryAfterMs?: number;
      readonly message?: string;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** Accept the request and never answer (until the server stops). */
  | { readonly hang: true }
  /** Hold the answer until `after` settles, then answer with `step` (e.g. to keep a job running on purpose). */
  | { readonly after: Promise<unknown>; readonly step: ScriptStep }
  /** Decide from the request (e.g. answer with edits for the files the prompt shows). */
  | ((request: RecordedRequest) => Exclude<ScriptStep, (request: RecordedRequest) => unknown>);

export interface RecordedMessage {
  readonly role: string;
  readonly content: string;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  readonly body: unknown;
  readonly model: string | undefined;
  readonly messages: readonly RecordedMessage[];
}

export interface FakeOpenAIServer {
  /** Base URL including `/v1`, for `baseURL` / OPENAI_BASE_URL. */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Chat completion requests only. */
  readonly chatRequests: readonly RecordedRequest[];
  /** Appends steps to the script. */
  enqueue(...steps: ScriptStep[]): void;
  /** Steps not used yet. */
  remaining(): number;
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  /** Answer 400 to any request that offers tools, as endpoints without function calling do. */
  readonly rejectTools?: boolean;
  /** Answer 400 to a request that carries this output-limit field, as reasoning models and some hosts do. */
  readonly rejectLimitField?: "max_tokens" | "max_completion_tokens";
  /** Answer when the script is used up: a step, or (default) HTTP 500 "script exhausted" — tests should notice. */
  readonly whenExhausted?: ScriptStep;
  /** Require this API key (401 otherwise). */
  readonly apiKey?: string;
}

/** Deterministic token counts: about four characters a token, as the published rule of thumb has it. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

function readMessages(body: unknown): RecordedMessage[] {
  if (typeof body !== "object" || body === null || !("messages" in body) || !Array.isArray(body.messages)) return [];
  return (body.messages as unknown[]).map((message) => {
    const record = (typeof message === "object" && message !== null ? message : {}) as Record<string, unknown>;
    const content = record.content;
    const text = typeof content === "string" ? content : content === null ? "" : JSON.stringify(content ?? "");
    return { role: typeof record.role === "string" ? record.role : "", content: text };
  });
}

let completionCounter = 0;

function answer(response: ServerResponse, step: ScriptStep, request: RecordedRequest): void {
  const resolved = typeof step === "function" ? step(request) : step;
  if (typeof resolved === "object" && "hang" in resolved) return;
  if (typeof resolved === "object" && "after" in resolved) {
    const later = (): void => {
      // The client may have gone (a killed process) or the server closed meanwhile: then there is no one to answer.
      if (!response.destroyed) answer(response, resolved.step, request);
    };
    resolved.after.then(later, later);
    return;
  }
  if (typeof resolved === "object" && "status" in resolved) {
    const headers: Record<string, string> = { ...resolved.headers };
    if (resolved.retryAfter !== undefined) headers["retry-after"] = String(resolved.retryAfter);
    if (resolved.retryAfterMs !== undefined) headers["retry-after-ms"] = String(resolved.retryAfterMs);
    const message = resolved.message ?? `scripted status ${resolved.status}`;
    sendJson(response, resolved.status, { error: { message, type: "fake_error", code: null } }, headers);
    return;
  }
  if (typeof resolved === "object" && "toolCalls" in resolved) {
    const id = ++completionCounter;
    const message = {
      role: "assistant",
      content: null,
      refusal: null,
      tool_calls: resolved.toolCalls.map((call, i) => ({
        id: `call_${String(id)}_${String(i)}`,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      })),
    };
    sendCompletion(response, request, id, message, "tool_calls", {
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
    });
    return;
  }
  const reply = typeof resolved === "string" ? { reply: resolved } : resolved;
  const prompt = estimateTokens(request.messages.map((message) => message.content).join("\n"));
  const completion = estimateTokens(reply.reply);
  const usage: FakeUsage = {
    prompt_tokens: reply.usage?.prompt_tokens ?? prompt,
    completion_tokens: reply.usage?.completion_tokens ?? completion,
    total_tokens:
      reply.usage?.total_tokens ??
      (reply.usage?.prompt_tokens ?? prompt) + (reply.usage?.completion_tokens ?? completion),
  };
  const id = ++completionCounter;
  const message = { role: "assistant", content: reply.reply, refusal: null };
  sendCompletion(response, request, id, message, reply.finishReason ?? "stop", usage);
}

/** A chat completion as OpenAI's API answers one, with a single choice. */
function sendCompletion(
  response: ServerResponse,
  request: RecordedRequest,
  id: number,
  message: Record<string, unknown>,
  finishReason: string,
  usage: FakeUsage,
): void {
  sendJson(response, 200, {
    id: `chatcmpl-fake-${String(id)}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model: request.model ?? "fake-model",
    choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
    usage,
  });
}

export async function startFakeOpenAI(
  script: readonly ScriptStep[] = [],
  options: FakeOpenAIOptions = {},
): Promise<FakeOpenAIServer> {
  const queue: ScriptStep[] = [...script];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const exhausted: ScriptStep = options.whenExhausted ?? {
    status: 500,
    message: "fake OpenAI server: script exhausted",
  };

  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = raw === "" ? undefined : JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const model =
        typeof body === "object" && body !== null && "model" in body && typeof body.model === "string"
          ? body.model
          : undefined;
      const path = (incoming.url ?? "/").split("?")[0] ?? "/";
      const recorded: RecordedRequest = {
        method: incoming.method ?? "GET",
        path,
        headers: incoming.headers,
        body,
        model,
        messages: readMessages(body),
      };
      requests.push(recorded);

      if (options.apiKey !== undefined && incoming.headers.authorization !== `Bearer ${options.apiKey}`) {
        sendJson(response, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error" } });
        return;
      }
      if (incoming.method === "GET" && path === "/v1/models") {
        sendJson(response, 200, { object: "list", data: [{ id: "fake-model", object: "model", owned_by: "fake" }] });
        return;
      }
      if (incoming.method !== "POST" || path !== "/v1/chat/completions") {
        sendJson(response, 404, { error: { message: `no route ${incoming.method ?? ""} ${path}`, type: "not_found" } });
        return;
      }
      const offersTools =
        typeof body === "object" &&
        body !== null &&
        "tools" in body &&
        Array.isArray(body.tools) &&
        body.tools.length > 0;
      if (options.rejectTools === true && offersTools) {
        sendJson(response, 400, {
          error: { message: "tools are not supported by this model", type: "invalid_request_error" },
        });
        return;
      }
      const field = options.rejectLimitField;
      if (field !== undefined && typeof body === "object" && body !== null && field in body) {
        const other = field === "max_tokens" ? "max_completion_tokens" : "max_tokens";
        sendJson(response, 400, {
          error: {
            message: `Unsupported parameter: '${field}' is not supported with this model. Use '${other}' instead.`,
            type: "invalid_request_error",
            param: field,
            code: "unsupported_parameter",
          },
        });
        return;
      }
      if (recorded.model === undefined || recorded.messages.length === 0) {
        sendJson(response, 400, {
          error: { message: "model and messages are required", type: "invalid_request_error" },
        });
        return;
      }
      answer(response, queue.shift() ?? exhausted, recorded);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get chatRequests() {
      return requests.filter((request) => request.path === "/v1/chat/completions");
    },
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    remaining: () => queue.length,
    close: async () => {
      // Hanging requests hold their sockets open: end them so close() can finish.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}
