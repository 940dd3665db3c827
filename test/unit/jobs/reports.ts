/** FixReport builders and a stub runFix for worker tests (the real loop has its own tests). */
import type { FixReport, FixRequest, TestSummary } from "../../../src/agent/types.js";
import type { Job } from "../../../src/jobs/job-schema.js";

export function tests(passed: boolean, extra: Partial<TestSummary> = {}): TestSummary {
  return {
    command: "npm test",
    passed,
    exitCode: passed ? 0 : 1,
    timedOut: false,
    failing: passed ? [] : ["parse keeps the last line"],
    tail: passed ? "ok" : "not ok 1 - parse keeps the last line",
    durationMs: 120,
    ...extra,
  };
}

export function successReport(overrides: Partial<FixReport> = {}): FixReport {
  return {
    status: "success",
    branch: "patchsmith/issue-12",
    baseSha: "b".repeat(40),
    headSha: "c".repeat(40),
    commits: [
      { sha: "c".repeat(40), subject: "fix(parse): keep the last line", message: "fix(parse): keep the last line\n" },
    ],
    attempts: [
      {
        number: 1,
        edits: [{ path: "src/parse.ts", ok: true, strategy: "exact" }],
        retried: false,
        tests: tests(true),
        accepted: true,
        commit: "c".repeat(40),
      },
    ],
    tests: { before: tests(false), after: tests(true) },
    usage: { calls: 1, promptTokens: 1200, completionTokens: 300, totalTokens: 1500 },
    diffStat: " src/parse.ts | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
    diff: "diff --git a/src/parse.ts b/src/parse.ts\n--- a/src/parse.ts\n+++ b/src/parse.ts\n@@ -1 +1 @@\n-old\n+new\n",
    changedFiles: [{ path: "src/parse.ts", before: "old\n", after: "new\n" }],
    pushed: true,
    ...overrides,
  };
}

export function failedReport(reason: string, message: string, overrides: Partial<FixReport> = {}): FixReport {
  return successReport({
    status: "failed",
    commits: [],
    pushed: false,
    diff: "",
    diffStat: "",
    changedFiles: [],
    tests: { before: tests(false), after: tests(false) },
    failure: { reason, message },
    ...overrides,
  });
}

/** A runFix that walks through the stages and returns a fixed report; records the requests. */
export function stubRunFix(report: FixReport | ((request: FixRequest) => FixReport)) {
  const requests: FixRequest[] = [];
  const runFix = async (request: FixRequest): Promise<FixReport> => {
    requests.push(request);
    for (const stage of ["cloning", "asking-model", "applying", "testing", "pushing", "done"] as const) {
      request.onProgress?.(stage);
      // The real loop does I/O between stages; let the progress edits go out.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const result = typeof report === "function" ? report(request) : report;
    // As the real loop does: the push is announced before it happens.
    if (result.pushed && request.push !== undefined && request.push !== false) {
      await request.beforePush?.({ from: request.push.lease, to: result.headSha });
    }
    return result;
  };
  return { runFix, requests };
}

export function sampleJob(overrides: Partial<Job> = {}): Job {
  return {
    version: 1,
    id: "c1501-0123456789abcdef",
    deliveryId: "d-1",
    installationId: 4242,
    repo: { owner: "acme", name: "widgets" },
    target: { kind: "issue", number: 12 },
    command: { kind: "fix", instructions: "keep the last line", suggest: false },
    requester: { login: "maintainer-mia", id: 777 },
    comment: {
      id: 1501,
      htmlUrl: "https://github.com/acme/widgets/issues/12#issuecomment-1501",
      kind: "issue-comment",
    },
    headSha: null,
    progressCommentId: 500,
    enqueuedAt: 0,
    ...overrides,
  };
}
