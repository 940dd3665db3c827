/**
 * The operator's model table and the routed client, against two fake OpenAI-compatible servers on 127.0.0.1: each
 * model name reaches its own endpoint with its own key and the name that endpoint knows, and carries its price.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createRoutedModelClient } from "../../../src/adapters/routed-model.js";
import { parseModelRoutes } from "../../../src/config/model-routes.js";
import { costOf, formatUsd } from "../../../src/core/money.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../fakes/openai-server.js";

const DEFAULT_KEY = "sk-default-0123456789abcdefghij";
const LOCAL_KEY = "local-key-0123456789abcdefghij";
const messages = [{ role: "user", content: "Fix it." }] as const;

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe("the model table", () => {
  it("says which edit dialect a model is taught, when the operator chose one", () => {
    const parsed = parseModelRoutes("diff-coder:\n  edit-format: udiff\nplain:\n  model: x\n", "models.yml", {});
    if (!parsed.ok) throw new Error(parsed.message);
    const client = createRoutedModelClient(parsed.routes, { apiKey: DEFAULT_KEY });
    expect(client.editFormatFor?.("diff-coder")).toBe("udiff");
    expect(client.editFormatFor?.("plain")).toBeUndefined();
    expect(client.editFormatFor?.("unlisted")).toBeUndefined();
    expect(parseModelRoutes("bad:\n  edit-format: xml\n", "models.yml", {}).ok).toBe(false);
  });

  it("reads routes with their endpoint, key variable, name and price", () => {
    const text = [
      "local-coder:",
      "  base-url: http://vllm.internal:8000/v1",
      "  api-key-env: VLLM_KEY",
      "  model: Qwen/Qwen2.5-Coder-32B-Instruct",
      "  price: { input: 0.2, output: 0.6 }",
      "gpt-4.1:",
      "  price: { input: 2, output: 8 }",
    ].join("\n");
    const parsed = parseModelRoutes(text, "models.yml", { VLLM_KEY: LOCAL_KEY });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.routes.get("local-coder")).toEqual({
      baseURL: "http://vllm.internal:8000/v1",
      apiKey: LOCAL_KEY,
      model: "Qwen/Qwen2.5-Coder-32B-Instruct",
      price: { input: 0.2, output: 0.6 },
    });
    expect(parsed.routes.get("gpt-4.1")).toEqual({ model: "gpt-4.1", price: { input: 2, output: 8 } });
  });

  it("refuses a key written in the file, a key variable that is not set, and a bad URL, naming the file", () => {
    const inline = parseModelRoutes("m:\n  api-key: sk-abc\n", "models.yml", {});
    expect(!inline.ok && inline.message).toContain("models.yml");
    const unset = parseModelRoutes("m:\n  api-key-env: NOPE\n", "models.yml", {});
    expect(!unset.ok && unset.message).toContain("NOPE, which is not set");
    const url = parseModelRoutes("m:\n  base-url: ftp://x\n", "models.yml", {});
    expect(url.ok).toBe(false);
  });

  it("prices calls per million tokens and writes small amounts readably", () => {
    expect(costOf({ input: 2, output: 8 }, 1_000_000, 500_000)).toBe(6);
    expect(formatUsd(6)).toBe("$6.00");
    expect(formatUsd(0.0432)).toBe("$0.043");
    expect(formatUsd(0.00123)).toBe("$0.0012");
  });
});

describe("the routed model client", () => {
  it("sends each model to its endpoint, under the name it knows, with its key; an unlisted name to the default", async () => {
    const fallback = await startFakeOpenAI(["from the default"], { apiKey: DEFAULT_KEY });
    const local = await startFakeOpenAI(["from the local server"], { apiKey: LOCAL_KEY });
    servers.push(fallback, local);
    const routes = parseModelRoutes(
      `local-coder:\n  base-url: ${local.url}\n  api-key-env: LOCAL\n  model: qwen-32b\n  price: { input: 1, output: 2 }\n`,
      "models.yml",
      { LOCAL: LOCAL_KEY },
    );
    if (!routes.ok) throw new Error(routes.message);
    const client = createRoutedModelClient(routes.routes, { apiKey: DEFAULT_KEY, baseURL: fallback.url });

    const routed = await client.complete({ model: "local-coder", messages });
    expect(routed.text).toBe("from the local server");
    expect(routed.price).toEqual({ input: 1, output: 2 });
    expect(local.chatRequests[0]?.model).toBe("qwen-32b");
    expect(local.chatRequests[0]?.headers.authorization).toBe(`Bearer ${LOCAL_KEY}`);

    const plain = await client.complete({ model: "gpt-4.1", messages });
    expect(plain.text).toBe("from the default");
    expect(plain.price).toBeUndefined();
    expect(fallback.chatRequests[0]?.model).toBe("gpt-4.1");
    expect(fallback.chatRequests[0]?.headers.authorization).toBe(`Bearer ${DEFAULT_KEY}`);
  });
});
