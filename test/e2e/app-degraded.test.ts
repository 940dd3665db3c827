/**
 * The App against a GitHub that lacks the optional endpoints: the checks API, reactions, the users endpoint and
 * GET /app answer 404. The issue → pull request flow still completes, with the fallback bot identity and no check
 * run; an essential call that fails (creating the pull request) ends the job with a clear comment.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  callsOf,
  commentsOf,
  createRepo,
  deliver,
  gitLog,
  INSTRUCTION,
  issueComment,
  repoTokens,
  startHarness,
  waitFor,
  type Harness,
} from "./app-harness.js";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    refusals: [
      { pattern: /^(POST|PATCH) \/repos\/[^/]+\/[^/]+\/check-runs/, status: 404 },
      { pattern: /\/reactions$/, status: 404 },
      { pattern: /^GET \/users\//, status: 404 },
      { pattern: /^GET \/app$/, status: 404 },
    ],
  });
}, 300_000);

afterAll(async () => {
  await h.stop();
});

const finalComment = (full: string) =>
  waitFor(h, "the final comment", () => commentsOf(h, full).find((body) => /✅ done|❌|⚠️/.test(body)));

it("turns /fix on an issue into a pull request without checks, reactions or the bot's user id", async () => {
  const full = createRepo(h);
  expect(await deliver(h, "issue_comment", issueComment(h, full, 1, `/fix ${INSTRUCTION}`))).toBe(200);
  const final = await finalComment(full);
  expect(final).toContain("✅ done");
  expect(final).toContain("Opened pull request");
  expect(h.github.find(/^POST .*\/pulls$/).filter((c) => c.path.includes(full))).toHaveLength(1);
  expect(h.github.checkRuns.size).toBe(0);
  expect(callsOf(h, full).filter((c) => c.path.includes("/reactions"))).toHaveLength(1);
  // The users endpoint is missing: the commit is authored by patchsmith[bot] with the login-only noreply address.
  expect(gitLog(h, full, "patchsmith/issue-1")).toMatch(
    /^patchsmith\[bot\] <patchsmith\[bot\]@users\.noreply\.127\.0\.0\.1>\nfix\(stats\): divide by the count/,
  );
  const [token] = repoTokens(h, full);
  await waitFor(h, "the revocation", () => (token !== undefined && h.github.revoked.has(token) ? true : undefined));
  expect(h.output()).toContain("could not create the check run");
  expect(h.output()).not.toContain(token);
});

it("says where the commits are when the pull request cannot be opened", async () => {
  const full = createRepo(h);
  h.github.refusals.push({ pattern: new RegExp(`^POST /repos/${full}/pulls$`), status: 500 });
  await deliver(h, "issue_comment", issueComment(h, full, 1, `/fix ${INSTRUCTION}`));
  const final = await finalComment(full);
  expect(final).toContain("❌ something went wrong");
  expect(final).toContain("Could not open the pull request");
  expect(final).toContain("`patchsmith/issue-1`");
  expect(h.github.branchSha(full, "patchsmith/issue-1")).toBeDefined();
  for (const token of h.github.tokens.keys()) expect(final).not.toContain(token);
});
