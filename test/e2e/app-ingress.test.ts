/**
 * The App's webhook endpoint against hostile requests, and a misconfigured installation, on the real process
 * (`node dist/cli.js serve`): a 500 MB upload must not move the server's peak memory, each refusal is one log line
 * without the payload, and a refused installation token is logged as what it is.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { streamPost } from "../fakes/stream-post.js";
import {
  INSTRUCTION,
  commentsOf,
  createRepo,
  deliver,
  issueComment,
  startHarness,
  waitFor,
  type Harness,
} from "./app-harness.js";

const TIMEOUT = 120_000;
const MiB = 1024 * 1024;

let h: Harness | undefined;

afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** The process's peak resident memory so far (VmHWM), in bytes. */
function peakMemory(pid: number): number {
  const line = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${String(pid)}/status`, "utf8"));
  if (line?.[1] === undefined) throw new Error("no VmHWM in /proc status");
  return Number(line[1]) * 1024;
}

/** 500 MiB of JSON-looking bytes, as 500 references to one 1 MiB buffer (the test itself stays small). */
const HUGE = Array.from({ length: 500 }, () => Buffer.alloc(MiB, 0x61));

describe("patchsmith serve against hostile requests", () => {
  it(
    "refuses 500 MB uploads while they stream, with the server's peak memory unmoved and one short log line each",
    async () => {
      const harness = (h = await startHarness({ env: { PATCHSMITH_LOG_LEVEL: "info" } }));
      const url = `${harness.appUrl}/api/github/webhooks`;
      const headers = { "content-type": "application/json", "x-github-event": "issue_comment" };
      // Warm the server up with a real delivery first, so the baseline includes what serving needs anyway.
      const full = createRepo(harness);
      expect(await deliver(harness, "issue_comment", issueComment(harness, full, 1, "just a remark"))).toBe(200);
      const before = peakMemory(harness.pid());
      const logBefore = harness.output().length;

      // The server answers and closes the connection while the client still sends: the client reads the answer, or
      // sees the connection reset (status 0) first. Either way the upload is refused; what matters is below.
      const unsigned = await streamPost(url, { ...headers, "x-github-delivery": "huge-1" }, HUGE);
      expect([401, 0]).toContain(unsigned.status);
      const wrongSignature = { "x-hub-signature-256": `sha256=${"0".repeat(64)}` };
      const streamed = await streamPost(url, { ...headers, ...wrongSignature, "x-github-delivery": "huge-2" }, HUGE);
      expect([413, 0]).toContain(streamed.status);
      const declared = await streamPost(
        url,
        { ...headers, ...wrongSignature, "x-github-delivery": "huge-3", "content-length": String(500 * MiB) },
        HUGE,
      );
      expect([413, 0]).toContain(declared.status);

      const grew = peakMemory(harness.pid()) - before;
      // Reading stops at GitHub's 25 MB cap at the latest (held once, and once more as it is joined): far less than
      // the 500 MB sent, each time.
      expect(grew, `peak memory grew by ${String(Math.round(grew / MiB))} MiB`).toBeLessThan(96 * MiB);
      // The log is written asynchronously: wait for the three lines.
      const refusals = await waitFor(harness, "three refusal lines", () => {
        const lines = harness
          .output()
          .slice(logBefore)
          .split("\n")
          .filter((line) => line.includes("webhook refused"));
        return lines.length >= 3 ? lines : undefined;
      });
      expect(refusals).toHaveLength(3);
      expect(refusals[1]).toContain("payload over 25 MiB");
      expect(refusals.every((line) => line.length < 400 && !line.includes("aaaa"))).toBe(true);
      // And the server still serves.
      expect(await deliver(harness, "issue_comment", issueComment(harness, full, 1, "another remark"))).toBe(200);
    },
    TIMEOUT,
  );

  it(
    "logs a refused installation token as a configuration fault, not as a denied command",
    async () => {
      const harness = (h = await startHarness({
        env: { PATCHSMITH_LOG_LEVEL: "info" },
        refusals: [{ pattern: /^POST \/app\/installations\/\d+\/access_tokens$/, status: 401 }],
      }));
      const full = createRepo(harness);
      expect(await deliver(harness, "issue_comment", issueComment(harness, full, 1, `/fix ${INSTRUCTION}`))).toBe(200);
      const line = await waitFor(harness, "the intake's error", () =>
        harness
          .output()
          .split("\n")
          .find((l) => l.includes("cannot act on the command")),
      );
      expect(line).toContain("GitHub refused the app an installation token");
      expect(harness.output()).not.toContain("command denied");
      // Nothing could be posted without a token; nothing was queued.
      expect(commentsOf(harness, full)).toEqual([]);
    },
    TIMEOUT,
  );
});
