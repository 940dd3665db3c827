/**
 * The model asks to see more before it edits, through the real openai SDK against the fake OpenAI server: function
 * tool calls where the endpoint takes them, the text form where it refuses them (400 on any request with tools).
 */
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { runFix } from "../../src/agent/run-fix.js";
import { makeNodeRepo, type TempRepo } from "../fakes/git-repos.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/openai-server.js";
import { block, realDeps } from "./fix-helpers.js";

const FIX = block(
  "src/stats.js",
  "  return total / (values.length - 1);",
  "  return total / values.length;",
  "fix: mean",
);

let repo: TempRepo | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  repo?.cleanup();
  await server?.close();
  repo = server = undefined;
});

describe("lookups over a real endpoint", () => {
  it("answers read_file and search_code tool calls, then takes the edits", async () => {
    repo = makeNodeRepo();
    server = await startFakeOpenAI([
      {
        toolCalls: [
          { name: "read_file", arguments: '{"path":"src/stats.js","start_line":6,"end_line":11}' },
          { name: "search_code", arguments: '{"query":"mean("}' },
        ],
      },
      FIX,
    ]);
    const report = await runFix(realDeps(server.url), {
      repo: repo.dir,
      instruction: "The mean of [2, 4, 6] should be 4",
    });
    expect(report.status).toBe("success");
    expect(report.lookups).toBe(1);
    const [first, second] = server.chatRequests;
    expect((first!.body as { tools: Array<{ function: { name: string } }> }).tools.map((t) => t.function.name)).toEqual(
      ["read_file", "search_code"],
    );
    const tools = second!.messages.filter((m) => m.role === "tool");
    expect(tools).toHaveLength(2);
    expect(tools[0]!.content).toContain("file src/stats.js (lines 6-11)");
    expect(tools[1]!.content).toContain("test/stats.test.js:10:");
  });

  it("falls back to the text form on an endpoint that refuses tools", async () => {
    repo = makeNodeRepo();
    server = await startFakeOpenAI(["READ: src/stats.js", FIX], { rejectTools: true });
    const report = await runFix(realDeps(server.url), {
      repo: repo.dir,
      instruction: "The mean of [2, 4, 6] should be 4",
    });
    expect(report.status).toBe("success");
    expect(report.lookups).toBe(1);
    const offered = server.chatRequests.map((r) => (r.body as { tools?: unknown }).tools !== undefined);
    // The refused request, the same one again without tools, then the answer to READ (tools no longer offered).
    expect(offered).toEqual([true, false, false]);
    expect(server.chatRequests[2]!.messages.at(-1)!.content).toContain("export function mean(values)");
    if (report.clonePath !== undefined) rmSync(report.clonePath, { recursive: true, force: true });
  });
});
