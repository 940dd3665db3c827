import { describe, expect, it } from "vitest";
import { lookupRequestsOf, parseLookupRequests, requestOfToolCall } from "../../../src/agent/lookups.js";
import { runFix } from "../../../src/agent/run-fix.js";
import { MAX_LOOKUP_ROUNDS } from "../../../src/agent/session.js";
import { ModelError } from "../../../src/ports/model-client.js";
import { summary } from "../../fakes/ports/scripted.js";
import { BUGGY, editBlock, FIX_REPLY, FIXED, harness, NODE_REPO } from "./harness.js";

const request = { repo: "https://example.com/acme/math.git", instruction: "Fix add() so that it adds" };

describe("the text form of lookups", () => {
  it("reads READ and SEARCH lines, with or without a range, bulleted or in backticks", () => {
    expect(
      parseLookupRequests("I need to see more.\nREAD: src/util.js\n- READ: `src/math.js:1-3`\nSEARCH: twice("),
    ).toEqual([
      { kind: "read", path: "src/util.js" },
      { kind: "read", path: "src/math.js", start: 1, end: 3 },
      { kind: "search", text: "twice(" },
    ]);
  });

  it("is not a lookup when the reply holds edits", () => {
    expect(lookupRequestsOf(`READ: src/util.js\n\n${FIX_REPLY}`)).toEqual([]);
  });

  it("turns tool calls into requests, and says what is wrong with a bad one", () => {
    expect(requestOfToolCall({ id: "1", name: "read_file", arguments: '{"path":"a.js","start_line":3}' })).toEqual({
      kind: "read",
      path: "a.js",
      start: 3,
    });
    expect(requestOfToolCall({ id: "2", name: "search_code", arguments: '{"query":"add("}' })).toEqual({
      kind: "search",
      text: "add(",
    });
    expect(requestOfToolCall({ id: "3", name: "read_file", arguments: "{path" })).toContain("not JSON");
    expect(requestOfToolCall({ id: "4", name: "delete_all", arguments: "{}" })).toContain("unknown tool");
  });
});

describe("the model asks to see more before it edits", () => {
  it("text form: answers READ with the file and SEARCH with the lines, then takes the edits", async () => {
    const h = harness({ replies: ["READ: src/util.js\nSEARCH: twice", FIX_REPLY] });
    const report = await runFix(h.deps, request);
    expect(report.status).toBe("success");
    expect(report.lookups).toBe(1);
    const answer = h.model.prompt(1);
    expect(answer).toContain("export const twice = (x) => add(x, x);");
    expect(answer).toContain("src/util.js:2: export const twice");
    expect(answer).toContain("Now reply with your edits");
    // The first call offered the tools as well.
    expect(h.model.requests[0]!.tools?.map((t) => t.name)).toEqual(["read_file", "search_code"]);
  });

  it("tool form: runs the calls, sends their results as tool messages, then takes the edits", async () => {
    const h = harness({
      replies: [{ toolCalls: [{ id: "call-1", name: "read_file", arguments: '{"path":"src/util.js"}' }] }, FIX_REPLY],
    });
    const report = await runFix(h.deps, request);
    expect(report.status).toBe("success");
    const second = h.model.requests[1]!.messages;
    expect(second.at(-2)).toMatchObject({ role: "assistant", toolCalls: [{ id: "call-1", name: "read_file" }] });
    expect(second.at(-1)).toMatchObject({ role: "tool", toolCallId: "call-1" });
    expect(second.at(-1)!.content).toContain("export const twice");
  });

  it("never shows .git, and says so", async () => {
    const h = harness({ replies: ["READ: .git/config", FIX_REPLY] });
    await runFix(h.deps, request);
    expect(h.model.prompt(1)).toContain(".git/config: not available to read.");
  });

  it("never shows a file that may hold credentials: named, read, searched or edited, its content stays out", async () => {
    // No token shape redaction knows: only the file it is in tells it is a secret.
    const key = "pw-7Hq2Lx9Vt4Kd8Rz";
    const files = {
      ...NODE_REPO,
      ".env": `API_KEY=${key}\nDEBUG=verbose-trace\n`,
      "config/deploy.pem": `-----BEGIN ${key}`,
    };
    const toEnv = editBlock(".env", "DEBUG=0", "DEBUG=1");
    const h = harness({
      files,
      replies: ["READ: .env\nREAD: config/deploy.pem\nSEARCH: API_KEY", `${toEnv}\n\n${FIX_REPLY}`],
    });
    const report = await runFix(h.deps, { ...request, instruction: "Fix add() so that it adds; see .env" });
    expect(report.status).toBe("success");
    const sent = h.model.requests.flatMap((r) => r.messages.map((m) => m.content)).join("\n");
    expect(sent).not.toContain(key);
    expect(sent).not.toContain("verbose-trace");
    const answer = h.model.prompt(1);
    expect(answer).toContain(".env: not shown: it may hold credentials, and such files never are.");
    expect(answer).toContain("config/deploy.pem: not shown");
    expect(answer).toContain('No line of the repository holds "API_KEY"');
    expect(report.attempts[0]!.edits.find((e) => e.path === ".env")).toMatchObject({ ok: false });
    expect(JSON.stringify(report.attempts[0]!.edits)).toContain("never shows a model, nor changes, a file that");
    expect(report.changedFiles.map((f) => f.path)).toEqual(["src/math.js"]);
  });

  it("redacts a committed credential file's secret values from test output, and refuses an edit that writes one", async () => {
    const key = "pw-7Hq2Lx9Vt4Kd8Rz";
    const files = { ...NODE_REPO, ".env": `DB_PASSWORD=${key}\n` };
    const twice = "export const twice = (x) => add(x, x);";
    const leak = editBlock("src/util.js", twice, `export const password = "${key}";\n${twice}`);
    const h = harness({
      files,
      replies: [leak, FIX_REPLY],
      // The tests print the configuration they loaded, as a failing test's output often does.
      decide: (work, command) =>
        summary(command, work.get("src/math.js") === FIXED ? [] : ["math adds"], {
          tail: `not ok 1 - math adds\n# connecting with password ${key}\n`,
        }),
    });
    const report = await runFix(h.deps, request);
    const sent = h.model.requests.flatMap((r) => r.messages.map((m) => m.content));
    // The model's own reply carries the value back; nothing patchsmith sends does.
    const ours = sent.filter((text) => !text.includes("export const password"));
    expect(ours.join("\n")).not.toContain(key);
    expect(ours.join("\n")).toContain("connecting with password [redacted]");
    expect(report.attempts[0]!.edits).toContainEqual(
      expect.objectContaining({ path: "src/util.js", ok: false, reason: "secret-refused" }),
    );
    expect(JSON.stringify(report)).not.toContain(key);
    expect(report.status).toBe("success");
  });

  it("is bounded: after a few rounds the reply counts as the answer, edits or not", async () => {
    const h = harness({ replies: ["READ: src/math.js"] });
    const report = await runFix(h.deps, { ...request, maxAttempts: 1 });
    expect(report.status).toBe("exhausted");
    // Each ask: MAX_LOOKUP_ROUNDS lookups, then a reply that must stand (here: no edits), twice (the retry).
    expect(h.model.requests).toHaveLength(2 * (MAX_LOOKUP_ROUNDS + 1));
    expect(h.model.prompt(MAX_LOOKUP_ROUNDS)).toContain("That was the last lookup");
    expect(h.model.requests[MAX_LOOKUP_ROUNDS]!.tools).toBeUndefined();
  });

  it("an endpoint that refuses tools is asked again without them, and the text form still works", async () => {
    const h = harness({
      replies: [
        () => {
          throw new ModelError("400 tools are not supported by this model", 400, true);
        },
        "READ: src/util.js",
        FIX_REPLY,
      ],
    });
    const report = await runFix(h.deps, request);
    expect(report.status).toBe("success");
    expect(h.model.requests.map((r) => r.tools === undefined)).toEqual([false, true, true]);
    expect(h.logger.lines.some((l) => l.message.includes("refused tools"))).toBe(true);
  });

  it("a model asking for a file that does not exist is told so", async () => {
    const h = harness({
      files: { ...NODE_REPO },
      replies: ["READ: src/nope.js", editBlock("src/math.js", BUGGY.split("\n")[1]!, "  return a + b;")],
    });
    await runFix(h.deps, request);
    expect(h.model.prompt(1)).toContain("src/nope.js: no such text file in the repository.");
  });
});
