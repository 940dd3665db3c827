/**
 * The whole-run bounds that a single model call could escape: the wall-time deadline cuts a call that does not
 * answer, and a reply without usage still counts against the token budget (estimated).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIModelClient } from "../../../src/adapters/openai-model.js";
import { addUsage, NO_USAGE, usageSince } from "../../../src/agent/budget.js";
import { estimateTokens, usageOfCall } from "../../../src/agent/estimate-usage.js";
import { renderReportMarkdown } from "../../../src/agent/render-report.js";
import { runFix } from "../../../src/agent/run-fix.js";
import { ModelError, type ChatRequest, type ChatResponse, type ModelClient } from "../../../src/ports/model-client.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../fakes/openai-server.js";
import { FIX_REPLY, harness } from "./harness.js";

const request = { repo: "/somewhere/repo", instruction: "Fix add() so that it adds" };

/** A model that answers only by failing once its call is cancelled, as a well-behaved adapter does. */
class SilentModel implements ModelClient {
  readonly requests: ChatRequest[] = [];
  complete(chat: ChatRequest): Promise<ChatResponse> {
    this.requests.push(chat);
    return new Promise((_resolve, reject) => {
      chat.signal?.addEventListener("abort", () => {
        reject(new ModelError("the model request was cancelled", undefined));
      });
    });
  }
}

/** A model that ignores the signal altogether: the deadline must not depend on the adapter's cooperation. */
class DeafModel implements ModelClient {
  calls = 0;
  complete(): Promise<ChatResponse> {
    this.calls++;
    return new Promise(() => undefined);
  }
}

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("wall-time deadline inside a model call", () => {
  it("cancels a call that never answers and stops with wall-time, not model-error", async () => {
    const h = harness();
    const model = new SilentModel();
    const report = await runFix({ ...h.deps, model }, { ...request, wallTimeMs: 50 });
    expect(report.status).toBe("exhausted");
    expect(report.failure?.reason).toBe("wall-time");
    expect(report.failure?.message).toMatch(/^The time budget is spent: \d+ s of 0 s\./);
    expect(report.failure?.message).toContain("its call was cancelled");
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.signal?.aborted).toBe(true);
    expect(report.usage.calls).toBe(0);
    expect(h.sandbox().disposed).toBe(true);
  });

  it("stops even when the model client ignores the abort", async () => {
    const h = harness();
    const model = new DeafModel();
    const report = await runFix({ ...h.deps, model }, { ...request, wallTimeMs: 50 });
    expect(report.failure?.reason).toBe("wall-time");
    expect(model.calls).toBe(1);
  });

  it("gives each call only what is left of the budget", async () => {
    const h = harness();
    const model = new SilentModel();
    // The run starts at 0; every later reading says 59.95 s of the 60 s budget are gone, so the call gets 50 ms.
    // Were it given the whole minute, vitest's per-test timeout would end this test first.
    let readings = 0;
    const clock = { now: () => (readings++ === 0 ? 0 : 59_950), sleep: () => Promise.resolve() };
    const report = await runFix({ ...h.deps, model, clock }, { ...request, wallTimeMs: 60_000 });
    expect(report.failure?.reason).toBe("wall-time");
    expect(report.failure?.message).toMatch(/^The time budget is spent: 60 s of 60 s\./);
    expect(model.requests).toHaveLength(1);
  });

  it("leaves a call that answers in time alone, and a real failure is still model-error", async () => {
    const ok = harness();
    expect((await runFix(ok.deps, { ...request, wallTimeMs: 60_000 })).status).toBe("success");
    expect(ok.model.requests[0]?.signal?.aborted).toBe(false);
    const failing = harness({ replies: [new Error("boom")] });
    const report = await runFix(failing.deps, { ...request, wallTimeMs: 60_000 });
    expect(report.failure?.reason).toBe("model-error");
  });

  it("cuts off the real openai adapter waiting on a server that never answers, without a retry", async () => {
    server = await startFakeOpenAI([{ hang: true }], { whenExhausted: { hang: true } });
    const model = createOpenAIModelClient({ apiKey: "sk-test-deadline-0123456789abcdef", baseURL: server.url });
    const h = harness();
    // The adapter's own timeout is 2 minutes with 3 retries: only the run's deadline can end this test in time.
    const report = await runFix({ ...h.deps, model }, { ...request, wallTimeMs: 300 });
    expect(report.failure?.reason).toBe("wall-time");
    expect(server.chatRequests).toHaveLength(1);
  });
});

describe("token budget without reported usage", () => {
  it("estimates about 4 characters a token over the messages sent and the reply", () => {
    const messages = [
      { role: "system", content: "x".repeat(401) },
      { role: "user", content: "y".repeat(40) },
    ] as const;
    const none = { text: "z".repeat(9), usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } };
    expect(usageOfCall(messages, none)).toEqual({
      calls: 1,
      promptTokens: 101 + 10,
      completionTokens: 3,
      totalTokens: 114,
      estimatedCalls: 1,
    });
    const reported = { text: "z", usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 } };
    expect(usageOfCall(messages, reported)).toEqual({
      calls: 1,
      promptTokens: 7,
      completionTokens: 3,
      totalTokens: 10,
    });
    expect(estimateTokens("")).toBe(0);
  });

  it("carries the estimated-call count through totals and differences only when there is one", () => {
    const real = addUsage(NO_USAGE, { promptTokens: 8, completionTokens: 2, totalTokens: 10 });
    expect(real).not.toHaveProperty("estimatedCalls");
    const both = addUsage(real, { promptTokens: 5, completionTokens: 1, totalTokens: 6, estimatedCalls: 1 });
    expect(both).toEqual({ calls: 2, promptTokens: 13, completionTokens: 3, totalTokens: 16, estimatedCalls: 1 });
    expect(usageSince(real, both).estimatedCalls).toBe(1);
    expect(usageSince(NO_USAGE, real)).not.toHaveProperty("estimatedCalls");
  });

  it("stops the run on the token budget when the endpoint reports no usage, and says the figures are estimates", async () => {
    const h = harness({ replies: ["nothing useful"], tokensPerCall: 0 });
    const report = await runFix(h.deps, { ...request, tokenBudget: 1 });
    expect(report.status).toBe("exhausted");
    expect(report.failure?.reason).toBe("token-budget");
    expect(report.usage.calls).toBe(1);
    expect(report.usage.estimatedCalls).toBe(1);
    const sent = h.model.requests[0]!.messages.reduce((sum, m) => sum + Math.ceil(m.content.length / 4), 0);
    expect(report.usage.promptTokens).toBe(sent);
    expect(report.usage.completionTokens).toBe(Math.ceil("nothing useful".length / 4));
    expect(report.notes?.some((note) => note.includes("estimated at about 4 characters a token"))).toBe(true);
    expect(renderReportMarkdown(report)).toMatch(/~[\d,]+ tokens in 1 model call \(estimated for 1 of 1\)/);
  });

  it("bounds a run that would otherwise go on: each estimated call counts", async () => {
    const h = harness({ replies: ["nothing useful"], tokensPerCall: 0 });
    const unbounded = await runFix(h.deps, { ...request, maxAttempts: 3 });
    const perRun = unbounded.usage.totalTokens;
    expect(unbounded.usage.calls).toBe(6);
    const bounded = harness({ replies: ["nothing useful"], tokensPerCall: 0 });
    const report = await runFix(bounded.deps, { ...request, maxAttempts: 3, tokenBudget: Math.floor(perRun / 3) });
    expect(report.failure?.reason).toBe("token-budget");
    expect(report.usage.calls).toBeLessThan(6);
    expect(report.usage.estimatedCalls).toBe(report.usage.calls);
  });

  it("reports honest figures unmarked", async () => {
    const h = harness({ replies: [FIX_REPLY], tokensPerCall: 100 });
    const report = await runFix(h.deps, request);
    expect(report.usage).not.toHaveProperty("estimatedCalls");
    expect(report.notes ?? []).not.toContainEqual(expect.stringContaining("estimated"));
    expect(renderReportMarkdown(report)).toContain("100 tokens in 1 model call");
  });
});
