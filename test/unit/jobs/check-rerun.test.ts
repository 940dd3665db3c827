/**
 * A job rerun after its process died (the durable queue hands it out again) must not leave the first run's check
 * run `in_progress` forever: check runs carry the job id as `external_id`, and a rerun reuses its own.
 */
import { describe, expect, it } from "vitest";
import type { FixReport, FixRequest } from "../../../src/agent/types.js";
import { createWorker } from "../../../src/jobs/worker.js";
import type { GitSandboxFactory } from "../../../src/ports/git-sandbox.js";
import type { Logger } from "../../../src/ports/logger.js";
import { createFakeGateway, httpError } from "./fake-gateway.js";
import { sampleJob, stubRunFix, successReport } from "./reports.js";

const noGit: GitSandboxFactory = { clone: () => Promise.reject(new Error("no git in this test")) };
const HEAD = "b".repeat(40);
const output = { title: "patchsmith is working", summary: "…" };

function logger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  };
  return { lines, debug: log, info: log, warn: log, error: log };
}

function workerFor(
  fake: ReturnType<typeof createFakeGateway>,
  runFix: (request: FixRequest) => Promise<FixReport> = stubRunFix(successReport()).runFix,
) {
  const log = logger();
  const work = createWorker({ gateways: () => fake.gateway, runFix, git: noGit, logger: log, secrets: [] });
  return { work, log };
}

/** A check run an earlier run left `in_progress` on `headSha`. */
function openCheck(fake: ReturnType<typeof createFakeGateway>, id: number, headSha: string, externalId: string): void {
  fake.state.checks.set(id, { headSha, name: "patchsmith", externalId, status: "in_progress", output });
}

describe("check runs across reruns of a job", () => {
  it("creates the check run with the job id as external_id, after looking for one", async () => {
    const fake = createFakeGateway();
    await workerFor(fake).work(sampleJob());
    const methods = fake.methods();
    expect(methods.indexOf("listCheckRuns")).toBeLessThan(methods.indexOf("createCheckRun"));
    expect(fake.calls.find((c) => c.method === "listCheckRuns")?.args[1]).toEqual({
      headSha: HEAD,
      name: "patchsmith",
    });
    expect(fake.calls.find((c) => c.method === "createCheckRun")?.args[1]).toMatchObject({
      externalId: "c1501-0123456789abcdef",
    });
    expect([...fake.state.checks.values()]).toMatchObject([{ status: "completed", conclusion: "success" }]);
  });

  it("reuses the check run a killed first run left in progress, and completes it", async () => {
    const fake = createFakeGateway();
    // The first process: it opens the check run, then dies inside the loop (its runFix never returns).
    let started: () => void = () => undefined;
    const inLoop = new Promise<void>((resolve) => {
      started = resolve;
    });
    const dying = workerFor(fake, () => {
      started();
      return new Promise<FixReport>(() => undefined);
    });
    void dying.work(sampleJob());
    await inLoop;
    expect([...fake.state.checks.values()]).toMatchObject([{ status: "in_progress", externalId: sampleJob().id }]);
    const [firstId] = [...fake.state.checks.keys()];

    // The next process reruns the same record.
    const rerun = workerFor(fake);
    await rerun.work(sampleJob());
    expect(fake.state.checks.size).toBe(1);
    expect(fake.state.checks.get(firstId!)).toMatchObject({ status: "completed", conclusion: "success" });
    expect(fake.methods().filter((m) => m === "createCheckRun")).toHaveLength(1);
    const updates = fake.calls.filter((c) => c.method === "updateCheckRun");
    expect(updates.map((c) => c.args[1])).toEqual([firstId, firstId]);
    expect(rerun.log.lines.some((line) => line.startsWith("reusing the check run of an earlier run"))).toBe(true);
  });

  it("never takes another job's check run on the same commit, nor one on another commit", async () => {
    const fake = createFakeGateway();
    fake.state.checks.set(1, {
      headSha: HEAD,
      name: "patchsmith",
      externalId: "c999-other",
      status: "in_progress",
      output,
    });
    fake.state.checks.set(2, { headSha: "c".repeat(40), name: "patchsmith", externalId: sampleJob().id, output });
    fake.state.checks.set(3, { headSha: HEAD, name: "patchsmith", status: "in_progress", output });
    await workerFor(fake).work(sampleJob());
    expect(fake.state.checks.size).toBe(4);
    expect(fake.state.checks.get(1)?.status).toBe("in_progress");
    expect(fake.state.checks.get(3)?.status).toBe("in_progress");
    const created = [...fake.state.checks.entries()].find(([id]) => id > 3);
    expect(created?.[1]).toMatchObject({ externalId: sampleJob().id, status: "completed", conclusion: "success" });
  });

  it("falls back to creating a check run when the lookup fails, and the job still succeeds", async () => {
    const fake = createFakeGateway();
    fake.state.failures.listCheckRuns = httpError(500, "Server Error");
    const { work, log } = workerFor(fake);
    await work(sampleJob());
    expect(fake.methods()).toContain("createCheckRun");
    expect([...fake.state.checks.values()]).toMatchObject([{ status: "completed", conclusion: "success" }]);
    expect(fake.state.comments.get(500)).toContain("Opened pull request");
    expect(log.lines.some((line) => line.startsWith("could not look for an earlier check run"))).toBe(true);
  });

  it("completes an earlier run's check run on the commit the job was queued for when this run works from another", async () => {
    const fake = createFakeGateway();
    const queued = "e".repeat(40);
    openCheck(fake, 9, queued, sampleJob().id);
    openCheck(fake, 10, queued, "c999-other");
    await workerFor(fake).work(sampleJob({ headSha: queued }));
    expect(fake.state.checks.get(9)).toMatchObject({ status: "completed", conclusion: "success" });
    expect(fake.state.checks.get(10)?.status).toBe("in_progress");
    const created = [...fake.state.checks.entries()].filter(([id]) => id > 10).map(([, check]) => check);
    expect(created).toMatchObject([{ headSha: HEAD, status: "completed", conclusion: "success" }]);
  });

  it("completes the check run a rerun's earlier run opened where it started, when the loop resumed its push", async () => {
    const fake = createFakeGateway();
    const started = "f".repeat(40);
    // The first run started from `started`, pushed patchsmith/issue-12 and died: the branch now exists.
    fake.state.branches["patchsmith/issue-12"] = HEAD;
    openCheck(fake, 7, started, sampleJob().id);
    const resumed: FixReport = { ...successReport(), resumedFrom: started };
    await workerFor(fake, stubRunFix(resumed).runFix).work(sampleJob());
    expect(fake.state.checks.get(7)).toMatchObject({ status: "completed", conclusion: "success" });
    const created = [...fake.state.checks.entries()].filter(([id]) => id !== 7).map(([, check]) => check);
    expect(created).toMatchObject([{ headSha: HEAD, status: "completed", conclusion: "success" }]);
  });

  it("still completes the reused check run when reopening it fails", async () => {
    const fake = createFakeGateway();
    fake.state.checks.set(7, {
      headSha: HEAD,
      name: "patchsmith",
      externalId: sampleJob().id,
      status: "in_progress",
      output,
    });
    let updates = 0;
    const update = fake.gateway.updateCheckRun.bind(fake.gateway);
    fake.gateway.updateCheckRun = (repo, id, change) =>
      ++updates === 1 ? Promise.reject(httpError(502, "Bad Gateway")) : update(repo, id, change);
    await workerFor(fake).work(sampleJob());
    expect(fake.methods()).not.toContain("createCheckRun");
    expect(fake.state.checks.get(7)).toMatchObject({ status: "completed", conclusion: "success" });
  });
});
