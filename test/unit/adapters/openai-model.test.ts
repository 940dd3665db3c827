import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIModelClient } from "../../../src/adapters/openai-model.js";
import { ModelError } from "../../../src/ports/model-client.js";
import { startFakeOpenAI, type FakeOpenAIServer, type ScriptStep } from "../../fakes/openai-server.js";

const API_KEY = "sk-test-0123456789abcdefghijklmnop";
const messages = [
  { role: "system", content: "You fix code." },
  { role: "user", content: "Fix the mean function." },
] as const;

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: ScriptStep[]): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAI(script, { apiKey: API_KEY });
  return server;
}

describe("createOpenAIModelClient against a fake OpenAI-compatible server", () => {
  it("returns the reply and maps usage, sending the key and the messages", async () => {
    const fake = await serve([{ reply: "Here is the fix.", usage: { prompt_tokens: 120, completion_tokens: 30 } }]);
    const client = createOpenAIModelClient({ apiKey: API_KEY, baseURL: fake.url });
    const response = await client.complete({ model: "gpt-test", messages, maxTokens: 500 });
    expect(response).toEqual({
      text: "Here is the fix.",
      usage: { promptTokens: 120, completionTokens: 30, totalTokens: 150 },
    });
    expect(fake.chatRequests).toHaveLength(1);
    const [request] = fake.chatRequests;
    expect(request?.model).toBe("gpt-test");
    expect(request?.messages).toEqual(messages);
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    // A non-OpenAI host gets the widely supported field.
    expect(request?.body).toMatchObject({ max_tokens: 500 });
  });

  it("retries a 429 (honouring retry-after) and then succeeds", async () => {
    const fake = await serve([{ status: 429, retryAfterMs: 10, message: "Rate limit reached" }, "ok after 429"]);
    const client = createOpenAIModelClient({ apiKey: API_KEY, baseURL: fake.url });
    const response = await client.complete({ model: "m", messages });
    expect(response.text).toBe("ok after 429");
    expect(fake.chatRequests).toHaveLength(2);
  });

  it("retries two 500s and then succeeds", async () => {
    const fake = await serve([
      { status: 500, retryAfterMs: 10 },
      { status: 503, retryAfterMs: 10 },
      "third time lucky",
    ]);
    const client = createOpenAIModelClient({ apiKey: API_KEY, baseURL: fake.url });
    expect((await client.complete({ model: "m", messages })).text).toBe("third time lucky");
    expect(fake.chatRequests).toHaveLength(3);
  });

  it("gives up after maxRetries with a ModelError carrying the status", async () => {
    const fake = await serve([
      { status: 500, retryAfterMs: 10 },
      { status: 500, retryAfterMs: 10 },
      { status: 500, retryAfterMs: 10 },
    ]);
    const client = createOpenAIModelClient({ apiKey: API_KEY, baseURL: fake.url, maxRetries: 2 });
    const error: unknown = await client.complete({ model: "m", messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBe(500);
    expect(fake.chatRequests).toHaveLength(3);
  });

  it("does not retry a 400, and redacts the key from the message", async () => {
    const fake = await serve([{ status: 400, message: `bad request for key ${API_KEY}` }, "never used"]);
    const client = createOpenAIModelClient({ apiKey: API_KEY, baseURL: fake.url });
    const error: unknown = await client.complete({ model: "m", messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBe(400);
    expect((error as ModelError).message).not.toContain(API_KEY);
    expect((error as ModelError).message).toContain("[redacted]");
    expect(fake.remaining()).toBe(1);
  });

  it("turns a hanging server into a timeout ModelError", async () => {
    const fake = await serve([{ hang: true }, { hang: true }]);
    const client = createOpenAIModelClient({ apiKey: API_KEY, baseURL: fake.url, timeoutMs: 200, maxRetries: 1 });
    const error: unknown = await client.complete({ model: "m", messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBeUndefined();
    expect((error as ModelError).message).toMatch(/timed out/);
    expect(fake.chatRequests).toHaveLength(2);
  });

  it("reports a wrong key as a 401 ModelError without retrying", async () => {
    const fake = await serve(["unused"]);
    const client = createOpenAIModelClient({ apiKey: "sk-wrong-key-0000000000000000000", baseURL: fake.url });
    const error: unknown = await client.complete({ model: "m", messages }).catch((e: unknown) => e);
    expect((error as ModelError).status).toBe(401);
    expect((error as ModelError).message).not.toContain("sk-wrong-key");
    expect(fake.chatRequests).toHaveLength(1);
  });

  it("cancels through the request's AbortSignal", async () => {
    const fake = await serve([{ hang: true }]);
    const client = createOpenAIModelClient({ apiKey: API_KEY, baseURL: fake.url });
    const controller = new AbortController();
    const pending = client.complete({ model: "m", messages, signal: controller.signal });
    while (fake.chatRequests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(pending).rejects.toThrow(/cancelled/);
    // A cancelled call is not retried: the SDK's first back-off is at most 0.5 s, so a retry would be here by now.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(fake.chatRequests).toHaveLength(1);
  });

  it("cancels at once during a back-off between retries, and does not retry after it", async () => {
    // The server asks for a 50 s pause before the retry (the SDK honours retry-after below a minute): longer than
    // vitest's per-test timeout, so only a cancel that does not wait for the pause lets this test finish.
    const fake = await serve([{ status: 503, retryAfterMs: 50_000 }, "too late"]);
    const client = createOpenAIModelClient({ apiKey: API_KEY, baseURL: fake.url });
    const controller = new AbortController();
    const pending = client.complete({ model: "m", messages, signal: controller.signal });
    while (fake.chatRequests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error: unknown = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toMatch(/cancelled/);
    expect(fake.chatRequests).toHaveLength(1);
    expect(fake.remaining()).toBe(1);
  });

  it("refuses to start with a signal that is already aborted", async () => {
    const fake = await serve(["unused"]);
    const client = createOpenAIModelClient({ apiKey: API_KEY, baseURL: fake.url });
    await expect(client.complete({ model: "m", messages, signal: AbortSignal.abort() })).rejects.toThrow(/cancelled/);
    expect(fake.chatRequests).toHaveLength(0);
  });

  it("uses max_completion_tokens for OpenAI's own host, or when asked", async () => {
    const fake = await serve(["a"]);
    const client = createOpenAIModelClient({
      apiKey: API_KEY,
      baseURL: fake.url,
      maxTokensField: "max_completion_tokens",
    });
    await client.complete({ model: "m", messages, maxTokens: 42 });
    expect(fake.chatRequests[0]?.body).toMatchObject({ max_completion_tokens: 42 });
    expect(fake.chatRequests[0]?.body).not.toHaveProperty("max_tokens");
  });

  it.each(["max_tokens", "max_completion_tokens"] as const)(
    "sends the other limit field, with the same limit, to an endpoint that refuses %s, and keeps to it",
    async (refused) => {
      server = await startFakeOpenAI(["a", "b"], { apiKey: API_KEY, rejectLimitField: refused });
      const client = createOpenAIModelClient({ apiKey: API_KEY, baseURL: server.url, maxTokensField: refused });
      expect((await client.complete({ model: "m", messages, maxTokens: 42 })).text).toBe("a");
      expect((await client.complete({ model: "m", messages, maxTokens: 43 })).text).toBe("b");
      const other = refused === "max_tokens" ? "max_completion_tokens" : "max_tokens";
      // One refused request, then the other field only.
      expect(server.chatRequests.map((r) => Object.keys(r.body as object).filter((k) => k.startsWith("max_")))).toEqual(
        [[refused], [other], [other]],
      );
      expect(server.chatRequests[2]?.body).toMatchObject({ [other]: 43 });
    },
  );

  it("answers from a function step and estimates usage when the script gives none", async () => {
    const fake = await serve([(request) => `you said: ${request.messages.at(-1)?.content ?? ""}`]);
    const client = createOpenAIModelClient({ apiKey: API_KEY, baseURL: fake.url });
    const response = await client.complete({ model: "m", messages });
    expect(response.text).toBe("you said: Fix the mean function.");
    expect(response.usage.promptTokens).toBeGreaterThan(0);
    expect(response.usage.totalTokens).toBe(response.usage.promptTokens + response.usage.completionTokens);
  });
});
