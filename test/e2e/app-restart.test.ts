/**
 * The App's durable queue across process restarts, end to end: `node dist/cli.js serve` is killed (SIGKILL) or
 * stopped (SIGTERM) while it works, and a new process on the same HOME (so the same default PATCHSMITH_DATA_DIR)
 * finishes what the first one accepted — with the same fake GitHub and model, and without the webhook being sent again.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedRequest, ScriptStep } from "../fakes/openai-server.js";
import {
  FIX_REPLY,
  INSTRUCTION,
  callsOf,
  commentsOf,
  createRepo,
  deliver,
  gitLog,
  issueComment,
  startHarness,
  waitFor,
  type Harness,
} from "./app-harness.js";

const DOC_INSTRUCTION = "reword the doc comment of max";
const DOC_REPLY = [
  "src/stats.js",
  "```",
  "<<<<<<< SEARCH",
  "/** Largest value; undefined for an empty list. */",
  "=======",
  "/** Largest value, or undefined for an empty list. */",
  ">>>>>>> REPLACE",
  "```",
  "COMMIT: docs(stats): reword the max comment",
].join("\n");

// Debug logs show how each delivery was handled ("duplicate-delivery", …) and the queue's "resuming" line.
const DEBUG = { PATCHSMITH_LOG_LEVEL: "debug" };
const TIMEOUT = 180_000;

let h: Harness | undefined;

afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** The committed job files in the queue folder (pending or running jobs). */
function jobFiles(harness: Harness): string[] {
  return readdirSync(path.join(harness.dataDir, "queue", "jobs")).filter((name) => name.endsWith(".json"));
}

/** A model step that holds its answer until `release()` (the job stays "running" meanwhile). */
function gated(step: Answer): { step: Answer; release: () => void } {
  let release: () => void = () => undefined;
  const after = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { step: { after, step }, release };
}

type Answer = Exclude<ScriptStep, (request: RecordedRequest) => unknown>;

/** The JSON log lines of the current process (after the last restart). */
function logsSinceRestart(harness: Harness): Record<string, unknown>[] {
  const text = harness.output().split("--- restart ---").at(-1) ?? "";
  return text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const resumed = (harness: Harness): unknown =>
  logsSinceRestart(harness).find((line) => line.msg === "resuming queued work")?.jobs;

const handled = (harness: Harness, result: string): boolean =>
  logsSinceRestart(harness).some(
    (line) => (line.msg === "webhook accepted" || line.msg === "command taken in") && line.result === result,
  );

const asks = (request: RecordedRequest, text: string): boolean =>
  request.messages.some((message) => message.content.includes(text));

/** Waits until nothing listens on the app's port any more (it stopped taking webhooks). */
async function refusesConnections(harness: Harness, url: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const refused = await fetch(`${url}/healthz`).then(
      async (response) => {
        await response.text();
        return false;
      },
      () => true,
    );
    if (refused) return;
    if (Date.now() > deadline) throw new Error(`the app kept taking requests after SIGTERM\n${harness.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The clones in the app's clone folders (TMPDIR/patchsmith-app-*), as paths. */
function cloneDirs(harness: Harness): string[] {
  const tmp = path.join(harness.root, "tmp");
  return readdirSync(tmp)
    .filter((name) => name.startsWith("patchsmith-app-"))
    .flatMap((folder) => readdirSync(path.join(tmp, folder)).map((clone) => path.join(tmp, folder, clone)));
}

describe("patchsmith serve across restarts", () => {
  it(
    "finishes a job interrupted by kill -9 in the next process, and still ignores a duplicate delivery",
    async () => {
      const harness = (h = await startHarness({ env: DEBUG, tmpInRoot: true }));
      const full = createRepo(harness);
      const hung = gated(FIX_REPLY); // never released: the first process dies waiting for it
      harness.modelStep = hung.step;
      const payload = issueComment(harness, full, 1, `/fix ${INSTRUCTION}`);
      expect(await deliver(harness, "issue_comment", payload, { id: "restart-delivery-1" })).toBe(200);

      // The job is running: it has asked the model, which does not answer.
      await waitFor(harness, "the model request", () => (harness.openai.chatRequests.length === 1 ? true : undefined));
      expect(jobFiles(harness)).toHaveLength(1);
      // Its check run is open, marked with the job id.
      const [opened] = harness.github.checkRunsOf(full);
      expect(harness.github.checkRunsOf(full)).toHaveLength(1);
      expect(opened).toMatchObject({ name: "patchsmith", status: "in_progress" });
      expect(opened?.external_id).toMatch(/^c\d+-[0-9a-f]{16}$/);
      const exit = await harness.kill("SIGKILL");
      expect(exit).toEqual({ code: null, signal: "SIGKILL" });
      // Accepted and not finished: the record is still on disk, and the comment was left mid-way.
      expect(jobFiles(harness)).toHaveLength(1);
      expect(commentsOf(harness, full)).toHaveLength(1);
      expect(commentsOf(harness, full)[0]).not.toContain("✅ done");
      const deliveredBefore = harness.github.find(/reactions$/).filter((c) => c.path.includes(`${full}/`));
      expect(deliveredBefore).toHaveLength(1);
      // The killed job's clone is still on disk ...
      const leftover = cloneDirs(harness);
      expect(leftover.length).toBeGreaterThan(0);

      harness.modelStep = FIX_REPLY;
      await harness.restart();
      // ... until the next process starts: it empties its clone folder before taking jobs.
      expect(leftover.filter((dir) => existsSync(dir))).toEqual([]);
      // GitHub redelivering the same delivery (same X-GitHub-Delivery) to the new process changes nothing.
      expect(await deliver(harness, "issue_comment", payload, { id: "restart-delivery-1" })).toBe(200);
      await waitFor(harness, "the duplicate to be recognised", () =>
        handled(harness, "duplicate-delivery") ? true : undefined,
      );
      expect(resumed(harness)).toBe(1);

      const final = await waitFor(harness, "the final comment", () =>
        commentsOf(harness, full).find((body) => body.includes("✅ done")),
      );
      expect(final).toContain("Opened pull request");
      // The progress comment of the first run was edited in place, not posted again.
      expect(commentsOf(harness, full)).toHaveLength(1);
      const completed = await waitFor(harness, "the check run to complete", () =>
        callsOf(harness, full).find(
          (c) => c.method === "PATCH" && c.path.includes("/check-runs/") && c.body.status === "completed",
        ),
      );
      expect(completed.body.conclusion).toBe("success");
      // The rerun found the killed run's check run and completed it: one check run for the job, none in progress.
      expect(harness.github.checkRunsOf(full)).toEqual([
        expect.objectContaining({ id: opened?.id, external_id: opened?.external_id, status: "completed" }),
      ]);
      expect(callsOf(harness, full).filter((c) => c.method === "POST" && c.path.endsWith("/check-runs"))).toHaveLength(
        1,
      );
      const lookup = callsOf(harness, full).filter((c) => c.method === "GET" && c.path.endsWith("/check-runs"));
      expect(lookup.map((c) => [c.query.get("check_name"), c.query.get("filter")])).toEqual([
        ["patchsmith", "all"],
        ["patchsmith", "all"],
      ]);
      expect(harness.github.find(/^POST .*\/pulls$/).filter((c) => c.path.includes(`${full}/`))).toHaveLength(1);
      const commits = gitLog(harness, full, "patchsmith/issue-1");
      expect(commits).toMatch(/^patchsmith\[bot\] <[^>]+>\nfix\(stats\): divide by the count/);
      expect(commits).toContain("Co-authored-by: maintainer-mia <777+maintainer-mia@users.noreply.127.0.0.1>");
      expect(commits).toContain("Patchsmith-Model: fake-model");
      expect(commits).toContain(`Patchsmith-Request: ${payload.comment.html_url}`);
      // One commit on top of main: the rerun started from scratch, not on top of a half-done attempt.
      expect(commits.split("\x1e").filter((entry) => entry.includes("patchsmith[bot]"))).toHaveLength(1);
      // Once it is done, its record is gone (removed only after the handler settled).
      await waitFor(harness, "the job record to be removed", () => (jobFiles(harness).length === 0 ? true : undefined));
      expect(harness.openai.chatRequests).toHaveLength(2);

      // The same comment under a new delivery id is recognised as the same command (the job key survived too).
      expect(await deliver(harness, "issue_comment", payload, { id: "restart-delivery-2" })).toBe(200);
      await waitFor(harness, "the duplicate command to be recognised", () =>
        handled(harness, "duplicate-command") ? true : undefined,
      );
      expect(harness.github.find(/reactions$/).filter((c) => c.path.includes(`${full}/`))).toHaveLength(1);
      expect(harness.openai.chatRequests).toHaveLength(2);
      expect(commentsOf(harness, full)).toHaveLength(1);
      expect(jobFiles(harness)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "resumes a job killed after it pushed: no second round of commits, the pull request opened, no check left open",
    async () => {
      const harness = (h = await startHarness({ env: DEBUG, tmpInRoot: true }));
      const full = createRepo(harness);
      // The first process pushes, then hangs on opening the pull request, and is killed there.
      let held = false;
      harness.github.hold = (call) => {
        if (call.method !== "POST" || !call.path.endsWith(`${full}/pulls`)) return undefined;
        held = true;
        return new Promise<void>(() => undefined);
      };
      harness.modelStep = FIX_REPLY;
      const payload = issueComment(harness, full, 1, `/fix ${INSTRUCTION}`);
      expect(await deliver(harness, "issue_comment", payload, { id: "resume-delivery-1" })).toBe(200);
      await waitFor(harness, "the pull request call", () => (held ? true : undefined));
      const pushed = gitLog(harness, full, "patchsmith/issue-1");
      expect(pushed).toContain("Patchsmith-Job: c");
      await harness.kill("SIGKILL");

      harness.github.hold = () => undefined;
      await harness.restart();
      const final = await waitFor(harness, "the final comment", () =>
        commentsOf(harness, full).find((body) => body.includes("✅ done")),
      );
      expect(final).toContain("Opened pull request");
      expect(final).toContain("earlier run");
      // The model was asked once: the rerun saw the job's own commit on the branch and did not redo the work.
      expect(harness.openai.chatRequests).toHaveLength(1);
      const commits = gitLog(harness, full, "patchsmith/issue-1");
      expect(commits).toBe(pushed);
      expect(commits.split("\x1e").filter((entry) => entry.includes("patchsmith[bot]"))).toHaveLength(1);
      const posted = harness.github.find(/^POST .*\/pulls$/).filter((c) => c.path.includes(`${full}/`));
      expect(posted).toHaveLength(2);
      // The first run's check run (on main, where it started) and the rerun's (on the pushed commit): both completed.
      // The check runs are completed after the final comment is written: wait for them, do not race them.
      const checks = await waitFor(harness, "every check run to be completed", () => {
        const all = harness.github.checkRunsOf(full);
        return all.length > 0 && all.every((check) => check.status === "completed") ? all : undefined;
      });
      expect(checks.length).toBeGreaterThan(0);
      await waitFor(harness, "the job record to be removed", () => (jobFiles(harness).length === 0 ? true : undefined));
    },
    TIMEOUT,
  );

  it(
    "on SIGTERM finishes the running job, keeps the queued one, and the next process runs it",
    async () => {
      const harness = (h = await startHarness({ env: DEBUG, tmpInRoot: true }));
      const full = createRepo(harness);
      const first = gated(FIX_REPLY);
      harness.modelStep = (request) => (asks(request, DOC_INSTRUCTION) ? DOC_REPLY : first.step);
      await deliver(harness, "issue_comment", issueComment(harness, full, 1, `/fix ${INSTRUCTION}`));
      await waitFor(harness, "the first job's model request", () =>
        harness.openai.chatRequests.length === 1 ? true : undefined,
      );
      await deliver(harness, "issue_comment", issueComment(harness, full, 1, `/fix ${DOC_INSTRUCTION}`));
      await waitFor(harness, "both jobs on disk", () => (jobFiles(harness).length === 2 ? true : undefined));
      const [firstComment, secondComment] = await waitFor(harness, "both progress comments", () => {
        const comments = [...harness.github.comments.entries()].filter(([, c]) => c.repo === full);
        return comments.length === 2 ? comments.map(([id]) => id) : undefined;
      });
      const body = (id: number | undefined): string => harness.github.comments.get(id ?? -1)?.body ?? "";
      expect(body(secondComment)).toContain("Waiting behind 1 earlier command");

      const url = harness.appUrl;
      const exit = harness.kill("SIGTERM");
      await waitFor(harness, "the shutdown notice", () =>
        harness.output().includes("SIGTERM, finishing running jobs") ? true : undefined,
      );
      await refusesConnections(harness, url);
      first.release();
      expect(await exit).toEqual({ code: 0, signal: null });
      // A clean shutdown leaves no clone folder behind.
      const cloneFolders = readdirSync(path.join(harness.root, "tmp")).filter((n) => n.startsWith("patchsmith-app-"));
      expect(cloneFolders).toEqual([]);

      // The running job was finished before the process exited …
      expect(body(firstComment)).toContain("✅ done");
      expect(body(firstComment)).toContain("Opened pull request");
      expect(gitLog(harness, full, "patchsmith/issue-1")).toContain("fix(stats): divide by the count");
      // … and the queued one was not started: no model request, its comment still says queued, its record kept.
      expect(harness.openai.chatRequests).toHaveLength(1);
      expect(body(secondComment)).toContain("Waiting behind 1 earlier command");
      expect(jobFiles(harness)).toHaveLength(1);

      await harness.restart();
      await waitFor(harness, "the second job's final comment", () =>
        body(secondComment).includes("✅ done") ? true : undefined,
      );
      expect(resumed(harness)).toBe(1);
      expect(harness.openai.chatRequests).toHaveLength(2);
      expect(asks(harness.openai.chatRequests[1]!, DOC_INSTRUCTION)).toBe(true);
      // The second command continued the issue's branch and reused its pull request.
      const log = gitLog(harness, full, "patchsmith/issue-1");
      expect(log.indexOf("docs(stats): reword the max comment")).toBeGreaterThanOrEqual(0);
      expect(log.indexOf("docs(stats): reword the max comment")).toBeLessThan(
        log.indexOf("fix(stats): divide by the count"),
      );
      expect(harness.github.find(/^POST .*\/pulls$/).filter((c) => c.path.includes(`${full}/`))).toHaveLength(1);
      expect(commentsOf(harness, full)).toHaveLength(2);
      // The check run is completed after the comment is edited: wait for the second one.
      const checks = await waitFor(harness, "both check runs to complete", () => {
        const done = callsOf(harness, full).filter(
          (c) => c.method === "PATCH" && c.path.includes("/check-runs/") && c.body.status === "completed",
        );
        return done.length === 2 ? done : undefined;
      });
      expect(checks.map((c) => c.body.conclusion)).toEqual(["success", "success"]);
      // Two jobs, two check runs: each with its own job id, both completed.
      const runs = harness.github.checkRunsOf(full);
      expect(runs.map((run) => run.status)).toEqual(["completed", "completed"]);
      expect(new Set(runs.map((run) => run.external_id)).size).toBe(2);
      await waitFor(harness, "the job record to be removed", () => (jobFiles(harness).length === 0 ? true : undefined));
    },
    TIMEOUT,
  );

  it(
    "refuses a second process on the same data folder, and leaves the first one's clones alone",
    async () => {
      const harness = (h = await startHarness({ tmpInRoot: true }));
      const full = createRepo(harness);
      const hung = gated(FIX_REPLY);
      harness.modelStep = hung.step;
      await deliver(harness, "issue_comment", issueComment(harness, full, 1, `/fix ${INSTRUCTION}`));
      await waitFor(harness, "the model request", () => (harness.openai.chatRequests.length === 1 ? true : undefined));
      const clones = cloneDirs(harness);
      expect(clones.length).toBeGreaterThan(0);

      const second = await harness.launchBeside();
      expect(second.code).toBe(2);
      expect(second.output).toContain("another patchsmith process");
      expect(second.output).toContain(harness.dataDir);
      expect(clones.filter((dir) => existsSync(dir))).toEqual(clones);

      // The first one is unharmed and finishes its job.
      hung.release();
      await waitFor(harness, "the final comment", () =>
        commentsOf(harness, full).find((body) => body.includes("✅ done")),
      );
    },
    TIMEOUT,
  );

  it(
    "with a stop grace period, SIGTERM hands a job that does not finish back, and the next start runs it",
    async () => {
      const harness = (h = await startHarness({ env: { PATCHSMITH_STOP_GRACE_SECONDS: "1" }, tmpInRoot: true }));
      const full = createRepo(harness);
      harness.modelStep = gated(FIX_REPLY).step; // never answers: the job would run forever
      await deliver(harness, "issue_comment", issueComment(harness, full, 1, `/fix ${INSTRUCTION}`));
      await waitFor(harness, "the model request", () => (harness.openai.chatRequests.length === 1 ? true : undefined));
      // Without the grace period this would wait for the job for ever (and the test time out).
      expect(await harness.kill("SIGTERM")).toEqual({ code: 0, signal: null });
      expect(harness.output()).toContain("grace period over; running jobs are handed back");
      expect(jobFiles(harness)).toHaveLength(1);

      harness.modelStep = FIX_REPLY;
      await harness.restart();
      await waitFor(harness, "the final comment", () =>
        commentsOf(harness, full).find((body) => body.includes("✅ done")),
      );
    },
    TIMEOUT,
  );
});
