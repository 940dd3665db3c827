/** Scripted fakes of the model, the test runner, the clock and the logger. */
import type { TestSummary } from "../../../src/agent/types.js";
import type { Clock } from "../../../src/ports/clock.js";
import type { Logger } from "../../../src/ports/logger.js";
import type { ChatRequest, ChatResponse, ModelClient, ToolCall } from "../../../src/ports/model-client.js";
import type { RunSummary, SandboxRunner, SandboxRunRequest } from "../../../src/ports/sandbox-runner.js";

/** A reply: text, a failure, tool calls (with optional text), or one decided from the request. */
export type Reply =
  | string
  | Error
  | { readonly toolCalls: readonly ToolCall[]; readonly text?: string }
  | ((request: ChatRequest) => string);

/** Answers with the scripted replies in order (the last one repeats); each call costs `tokensPerCall`. */
export class ScriptedModel implements ModelClient {
  readonly requests: ChatRequest[] = [];
  constructor(
    private readonly replies: readonly Reply[],
    private readonly tokensPerCall = 100,
  ) {}
  complete(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(request);
    const reply = this.replies[Math.min(this.requests.length - 1, this.replies.length - 1)];
    if (reply === undefined) return Promise.reject(new Error("no scripted reply"));
    if (reply instanceof Error) return Promise.reject(reply);
    const usage = (() => {
      const prompt = Math.floor(this.tokensPerCall * 0.8);
      return { promptTokens: prompt, completionTokens: this.tokensPerCall - prompt, totalTokens: this.tokensPerCall };
    })();
    if (typeof reply === "object")
      return Promise.resolve({ text: reply.text ?? "", toolCalls: reply.toolCalls, usage });
    try {
      const text = typeof reply === "function" ? reply(request) : reply;
      return Promise.resolve({ text, usage });
    } catch (error) {
      // As an async adapter would: a failure is a rejection, never a synchronous throw.
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
  /** The last message of call `i` (0-based): the prompt, or the last tool result. */
  prompt(i: number): string {
    const messages = this.requests[i]?.messages ?? [];
    return messages[messages.length - 1]?.content ?? "";
  }
}

export function summary(command: string, failing: readonly string[], extra: Partial<TestSummary> = {}): TestSummary {
  return {
    command,
    passed: failing.length === 0,
    exitCode: failing.length === 0 ? 0 : 1,
    timedOut: false,
    failing,
    // TAP lines, so the loop names the failures from the output as it does for a real runner.
    tail:
      failing.length === 0 ? "all tests passed" : failing.map((f, i) => `not ok ${String(i + 1)} - ${f}`).join("\n"),
    durationMs: 5,
    ...extra,
  };
}

/** A run's raw result for a summary: the tail becomes the whole output. */
export function runOf(summary: TestSummary): RunSummary {
  const { failing: _failing, tail, ...rest } = summary;
  return { ...rest, output: tail, droppedBytes: 0 };
}

/**
 * Decides each run's result from the request (usually by looking at the sandbox's working tree). The summary's
 * `failing` names are not passed on: the loop reads them from the output, as with a real runner (`FAIL name` lines).
 */
export class ScriptedTests implements SandboxRunner {
  readonly runs: SandboxRunRequest[] = [];
  constructor(private readonly decide: (request: SandboxRunRequest) => TestSummary) {}
  run(request: SandboxRunRequest): Promise<RunSummary> {
    this.runs.push(request);
    return Promise.resolve(runOf(this.decide(request)));
  }
  describe() {
    return Promise.resolve({ sandbox: "none" as const, detail: "scripted" });
  }
  reclaim(): Promise<void> {
    return Promise.resolve();
  }
}

/** A clock that only moves when told (or by `step` on every `now()`). */
export class ManualClock implements Clock {
  constructor(
    public time = 1_000_000,
    public step = 0,
  ) {}
  now(): number {
    const t = this.time;
    this.time += this.step;
    return t;
  }
  sleep(ms: number): Promise<void> {
    this.time += ms;
    return Promise.resolve();
  }
}

export class MemoryLogger implements Logger {
  readonly lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
  debug(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: "debug", message, ...(fields ? { fields } : {}) });
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: "info", message, ...(fields ? { fields } : {}) });
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: "warn", message, ...(fields ? { fields } : {}) });
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: "error", message, ...(fields ? { fields } : {}) });
  }
}
