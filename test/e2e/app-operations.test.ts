/**
 * What an operator watches, on the real process (`node dist/cli.js serve`): /metrics in Prometheus' format after a
 * job, /readyz with its checks, /healthz.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeNodeRepo } from "../fakes/git-repos.js";
import { startRedis, type RedisServer } from "../fakes/redis-server.js";
import {
  API_KEY,
  FIX_REPLY,
  SECRET,
  INSTRUCTION,
  completedCheck,
  createRepo,
  deliver,
  commentsOf,
  issueComment,
  publishRepo,
  startHarness,
  waitFor,
  type Harness,
} from "./app-harness.js";

let h: Harness | undefined;
let redis: RedisServer | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
  await redis?.stop();
  redis?.cleanup();
  redis = undefined;
});

/** The value of one sample line, e.g. `patchsmith_jobs_total{kind="fix",outcome="fixed"}`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const have = (match[2] ?? "").split(",");
    if (wanted.every((w) => have.includes(w))) return Number(match[3]);
  }
  return undefined;
}

describe("patchsmith serve for its operators", () => {
  it("counts jobs, model calls, sandboxed runs and GitHub requests on /metrics, and says it is ready", async () => {
    const harness = (h = await startHarness());
    harness.modelStep = FIX_REPLY;
    const full = createRepo(harness);
    expect(await deliver(harness, "issue_comment", issueComment(harness, full, 1, `/fix ${INSTRUCTION}`))).toBe(200);
    expect((await completedCheck(harness, full)).body.conclusion).toBe("success");

    const response = await fetch(`${harness.appUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    // The job is counted when its answer is written, a moment before the check run completes: wait for it.
    let metrics = text;
    // The job is counted when it ends, and leaves the queue's running set a moment later.
    const settled = (text: string): boolean =>
      sample(text, "patchsmith_jobs_total", { kind: "fix" }) !== undefined &&
      sample(text, "patchsmith_queue_jobs", { queue: "jobs", state: "running" }) === 0;
    for (let i = 0; i < 50 && !settled(metrics); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      metrics = await (await fetch(`${harness.appUrl}/metrics`)).text();
    }
    expect(sample(metrics, "patchsmith_jobs_total", { kind: "fix", outcome: "fixed" })).toBe(1);
    expect(sample(metrics, "patchsmith_job_duration_seconds_count", { kind: "fix" })).toBe(1);
    expect(sample(metrics, "patchsmith_model_calls_total", { model: "fake-model", outcome: "ok" })).toBeGreaterThan(0);
    expect(sample(metrics, "patchsmith_model_tokens_total", { model: "fake-model" })).toBeGreaterThan(0);
    expect(sample(metrics, "patchsmith_sandbox_runs_total", { phase: "tests", result: "passed" })).toBeGreaterThan(0);
    expect(sample(metrics, "patchsmith_github_requests_total", { method: "POST", status: "201" })).toBeGreaterThan(0);
    expect(sample(metrics, "patchsmith_queue_jobs", { queue: "jobs", state: "queued" })).toBe(0);
    expect(sample(metrics, "patchsmith_queue_jobs", { queue: "inbox", state: "running" })).toBe(0);
    expect(sample(metrics, "patchsmith_queue_oldest_waiting_seconds", { queue: "jobs" })).toBe(0);
    expect(sample(metrics, "patchsmith_process_resident_memory_bytes")).toBeGreaterThan(0);
    // Nothing secret in it.
    expect(metrics).not.toContain("sk-e2e");

    const ready = await fetch(`${harness.appUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { queue: "ok", sandbox: "ok", credentials: "ok" } });
    expect((await fetch(`${harness.appUrl}/healthz`)).status).toBe(200);
  });

  it("writes one log: probot's lines and its own, JSON, every line of a job naming it, and no secret", async () => {
    const harness = (h = await startHarness({ env: { PATCHSMITH_LOG_LEVEL: "debug" } }));
    harness.modelStep = FIX_REPLY;
    const full = createRepo(harness);
    const delivery = "log-delivery-1";
    await deliver(harness, "issue_comment", issueComment(harness, full, 1, `/fix ${INSTRUCTION}`), { id: delivery });
    expect((await completedCheck(harness, full)).body.conclusion).toBe("success");
    const lines = await waitFor(harness, "the job's last line", () => {
      const parsed = harness
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      return parsed.some((line) => line.msg === "job finished") ? parsed : undefined;
    });
    // Lines of the fix loop itself (the model's reply) and of the worker both carry the job's ids.
    const ofJob = lines.filter((line) => line.msg === "model reply" || line.msg === "job finished");
    expect(ofJob.length).toBeGreaterThanOrEqual(2);
    for (const line of ofJob) {
      expect(line).toMatchObject({ repo: full, number: 1, delivery });
      expect(typeof line.level).toBe("string");
      expect(line.job).toMatch(/^c\d+-[0-9a-f]{16}$/);
    }
    // probot's own lines (its GitHub requests, at debug level) are in the same stream.
    expect(lines.some((line) => String(line.msg).startsWith("GitHub request: "))).toBe(true);
    expect(harness.output()).not.toContain(API_KEY);
    expect(harness.output()).not.toContain(SECRET);
  });

  it("serves a worker's own /metrics and /readyz on PATCHSMITH_WORKER_PORT, counting the jobs it ran", async () => {
    redis = await startRedis();
    const harness = (h = await startHarness({
      redis: { url: redis.url, workers: 1 },
      env: { PATCHSMITH_WORKER_PORT: "0", HOST: "127.0.0.1" },
    }));
    harness.modelStep = FIX_REPLY;
    const full = createRepo(harness);
    await deliver(harness, "issue_comment", issueComment(harness, full, 1, `/fix ${INSTRUCTION}`));
    expect((await completedCheck(harness, full)).body.conclusion).toBe("success");
    const url = /worker ready \((http:\/\/\S+)\/metrics\)/.exec(harness.output())?.[1];
    expect(url).toBeDefined();
    let metrics = "";
    // The job is counted when it ends, and leaves the queue's running set a moment later.
    const settled = (text: string): boolean =>
      sample(text, "patchsmith_jobs_total", { kind: "fix" }) !== undefined &&
      sample(text, "patchsmith_queue_jobs", { queue: "jobs", state: "running" }) === 0;
    for (let i = 0; i < 50 && !settled(metrics); i++) {
      metrics = await (await fetch(`${url!}/metrics`)).text();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(sample(metrics, "patchsmith_jobs_total", { kind: "fix", outcome: "fixed" })).toBe(1);
    expect(sample(metrics, "patchsmith_queue_jobs", { queue: "jobs", state: "running" })).toBe(0);
    const ready = await fetch(`${url!}/readyz`);
    expect(await ready.json()).toEqual({ ready: true, checks: { queue: "ok", sandbox: "ok", credentials: "ok" } });
    // The webhook process ran no job: its own count stays empty, and its readiness needs no sandbox.
    const serveMetrics = await (await fetch(`${harness.appUrl}/metrics`)).text();
    expect(sample(serveMetrics, "patchsmith_jobs_total", { kind: "fix" })).toBeUndefined();
    const serveReady = await fetch(`${harness.appUrl}/readyz`);
    expect(await serveReady.json()).toEqual({ ready: true, checks: { queue: "ok", credentials: "ok" } });
  });

  it("is alive but not ready when GitHub refuses its credentials", async () => {
    const harness = (h = await startHarness({ refusals: [{ pattern: /^GET \/app$/, status: 401 }] }));
    const ready = await fetch(`${harness.appUrl}/readyz`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { ready: boolean; checks: Record<string, string> };
    expect(body.ready).toBe(false);
    expect(body.checks.queue).toBe("ok");
    expect(body.checks.credentials).not.toBe("ok");
    expect((await fetch(`${harness.appUrl}/healthz`)).status).toBe(200);
  });
});

describe("patchsmith serve and the deliveries it missed", () => {
  it("asks GitHub to redeliver a command sent while it was down, and runs it; leaves refused and delivered ones alone", async () => {
    const harness = (h = await startHarness({ env: { PATCHSMITH_RECONCILE_SECONDS: "1" } }));
    harness.modelStep = FIX_REPLY;
    const full = createRepo(harness);
    expect(await harness.kill("SIGTERM")).toEqual({ code: 0, signal: null });
    // While it was down: GitHub tried and got no answer.
    const missed = issueComment(harness, full, 1, `/fix ${INSTRUCTION}`);
    harness.github.recordDelivery("missed-guid", "issue_comment", missed, 0);
    // Refused on purpose (a bad signature, say), and one that arrived: neither is asked for again.
    harness.github.recordDelivery("refused-guid", "issue_comment", missed, 401);
    harness.github.recordDelivery("delivered-guid", "issue_comment", issueComment(harness, full, 1, "hello"), 200);

    await harness.restart();
    expect((await completedCheck(harness, full)).body.conclusion).toBe("success");
    const asked = harness.github.find(/^POST \/app\/hook\/deliveries\/\d+\/attempts$/).map((c) => c.path);
    const idOf = (guid: string) => harness.github.deliveries.find((d) => d.guid === guid && !d.redelivery)!.id;
    expect(asked).toContain(`/app/hook/deliveries/${String(idOf("missed-guid"))}/attempts`);
    expect(asked.some((p) => p.includes(`/${String(idOf("refused-guid"))}/`))).toBe(false);
    expect(asked.some((p) => p.includes(`/${String(idOf("delivered-guid"))}/`))).toBe(false);
    // Once redelivered and answered 200, it is not asked for again in the next rounds.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const again = harness.github.find(/^POST \/app\/hook\/deliveries\/\d+\/attempts$/).length;
    expect(again).toBe(asked.length);
  });
});

describe("patchsmith serve and an organisation's configuration", () => {
  it("reads the repository's file through probot's config plugin, follows _extends, and keeps the organisation's floor", async () => {
    const harness = (h = await startHarness());
    harness.modelStep = FIX_REPLY;
    const publish = (name: string, config: string): string => {
      const work = makeNodeRepo({ files: { ".github/patchsmith.yml": config } });
      const full = publishRepo(harness, work, name);
      work.cleanup();
      return full;
    };
    // The organisation's `.github` repository: its protected paths are a floor for every repository.
    publish(".github", "paths: { forbidden: ['src/**'] }\nbudget: { attempts: 1 }\n");
    publish("shared-config", "model: shared-model\ntest: node --test\n");
    const full = publish("widgets-extends", "_extends: shared-config\npaths: { forbidden: [] }\n");
    harness.github.issues.set(`${full}#1`, { title: "The mean is off", body: "mean([2, 4, 6]) gives 6." });

    expect(await deliver(harness, "issue_comment", issueComment(harness, full, 1, `/fix ${INSTRUCTION}`))).toBe(200);
    expect((await completedCheck(harness, full)).body.conclusion).toBe("failure");
    // The model came from the extended file; the organisation's budget held (one attempt, with its one retry of
    // the refused edit; three attempts would have asked more).
    const models = harness.openai.chatRequests.map((r) => r.model);
    expect(new Set(models)).toEqual(new Set(["shared-model"]));
    expect(models.length).toBeLessThanOrEqual(2);
    // The repository's empty list did not lift the organisation's protection.
    expect(commentsOf(harness, full).at(-1)).toContain("patchsmith may not change paths matching src/**");
    expect(harness.github.branchSha(full, "patchsmith/issue-1")).toBeUndefined();
  });
});
