/**
 * Set-up on a real repository whose tests need a dev dependency: the real npm installs it inside the sandbox from a
 * registry on 127.0.0.1 (reached only through the egress allow-list), the tests then run offline, and a second job
 * on the same repository starts from a warm cache.
 */
import { rmSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runFix } from "../../src/agent/run-fix.js";
import type { FixReport, FixRequest } from "../../src/agent/types.js";
import { parseEgressRules } from "../../src/adapters/sandbox/egress-rules.js";
import { type TempRepo } from "../fakes/git-repos.js";
import { makeTapeRepo, FLAGS_BUGGY, FLAGS_FIXED } from "../fakes/npm-repo.js";
import { startFakeRegistry, TAPE_LITE, type FakeRegistry } from "../fakes/npm-registry.js";
import { startFakeOpenAI, type FakeOpenAIServer, type ScriptStep } from "../fakes/openai-server.js";
import { block, realDeps } from "./fix-helpers.js";

const FIX = block("index.js", FLAGS_BUGGY, FLAGS_FIXED, "fix: parse --flag=false as false");

let registry: FakeRegistry;
const repos: TempRepo[] = [];
const servers: FakeOpenAIServer[] = [];
const kept: string[] = [];

beforeAll(async () => {
  registry = await startFakeRegistry([TAPE_LITE]);
});
afterAll(async () => {
  await registry.close();
});
afterEach(async () => {
  for (const dir of kept.splice(0)) rmSync(dir, { recursive: true, force: true });
  for (const repo of repos.splice(0)) repo.cleanup();
  for (const server of servers.splice(0)) await server.close();
});

async function fix(repo: TempRepo, script: readonly ScriptStep[], request: Partial<FixRequest> = {}) {
  const server = await startFakeOpenAI(script);
  servers.push(server);
  const hosts = parseEgressRules(registry.host).rules;
  const report: FixReport = await runFix(realDeps(server.url, { PATCHSMITH_SETUP_HOSTS: hosts }), {
    repo: repo.dir,
    instruction: "Boolean flags given as --flag=false are parsed as true",
    keep: true,
    ...request,
  });
  if (report.clonePath !== undefined) kept.push(report.clonePath);
  return { report, server };
}

describe("set-up before the tests", () => {
  it("installs the dev dependency, runs the tests offline, fixes; the second job starts from a warm cache", async () => {
    const repo = await makeTapeRepo(registry);
    repos.push(repo);
    const first = await fix(repo, [FIX]);
    expect(first.report.failure).toBeUndefined();
    expect(first.report.status).toBe("success");
    expect(first.report.setup).toMatchObject({
      commands: ["npm ci --prefer-offline"],
      source: "detected",
      status: "ok",
      cache: "cold",
    });
    expect(first.report.tests.before).toMatchObject({ passed: false });
    expect(first.report.tests.before!.failing).toEqual(["--flag=false is false"]);
    expect(first.report.tests.after?.passed).toBe(true);
    expect(registry.requests).toContain("GET /tape-lite/-/tape-lite-1.0.0.tgz");
    // What set-up installed is never committed.
    expect(first.report.changedFiles.map((f) => f.path)).toEqual(["index.js"]);
    expect(first.report.diff).not.toContain("node_modules");
    expect(first.report.timings?.setup).toBeGreaterThan(0);

    const tarballs = registry.requests.filter((r) => r.endsWith(".tgz")).length;
    const second = await fix(repo, [FIX]);
    expect(second.report.setup).toMatchObject({ status: "ok", cache: "warm" });
    expect(second.report.status).toBe("success");
    // The tarball came from the cache.
    expect(registry.requests.filter((r) => r.endsWith(".tgz")).length).toBe(tarballs);
  });

  it("without set-up the tests cannot run: the run stops before any model call and says what to set", async () => {
    const repo = await makeTapeRepo(registry);
    repos.push(repo);
    const { report, server } = await fix(repo, [FIX], { setup: false });
    expect(report.status).toBe("failed");
    expect(report.failure?.reason).toBe("tests-cannot-run");
    expect(report.failure?.message).toContain("the command `tape-lite` is not installed");
    expect(report.failure?.message).toContain("setup:");
    expect(server.chatRequests).toHaveLength(0);
    expect(report.usage.calls).toBe(0);
  });

  it("a set-up that fails stops the run before any model call, quoting its output", async () => {
    const repo = await makeTapeRepo(registry);
    repos.push(repo);
    const { report, server } = await fix(repo, [FIX], {
      setup: ["npm ci --prefer-offline", "echo broken-step >&2; exit 3"],
    });
    expect(report.status).toBe("failed");
    expect(report.failure?.reason).toBe("setup-failed");
    expect(report.failure?.message).toContain("exit code 3");
    expect(report.failure?.message).toContain("broken-step");
    expect(report.setup).toMatchObject({ source: "request", status: "failed" });
    expect(server.chatRequests).toHaveLength(0);
  });

  it("a registry the allow-list does not admit is refused, and the report names it", async () => {
    const repo = await makeTapeRepo(registry);
    repos.push(repo);
    const server = await startFakeOpenAI([FIX]);
    servers.push(server);
    const report = await runFix(realDeps(server.url), { repo: repo.dir, instruction: "fix the flags" });
    expect(report.failure?.reason).toBe("setup-failed");
    expect(report.setup?.refusedHosts).toEqual([registry.host]);
    expect(report.failure?.message).toContain("PATCHSMITH_SETUP_HOSTS");
    expect(server.chatRequests).toHaveLength(0);
  });
});
