/**
 * The App on a repository whose tests need a dev dependency: set-up installs it from a registry on 127.0.0.1 (the
 * operator admits it with PATCHSMITH_SETUP_HOSTS), the fix lands as a pull request, and a second command on the
 * repository installs from the warm cache.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLAGS_BUGGY, FLAGS_FIXED, makeTapeRepo } from "../fakes/npm-repo.js";
import { startFakeRegistry, TAPE_LITE, type FakeRegistry } from "../fakes/npm-registry.js";
import { block } from "./fix-helpers.js";
import {
  commentsOf,
  completedCheck,
  deliver,
  gitLog,
  issueComment,
  publishRepo,
  startHarness,
  waitFor,
  type Harness,
} from "./app-harness.js";

let h: Harness;
let registry: FakeRegistry;

beforeAll(async () => {
  registry = await startFakeRegistry([TAPE_LITE]);
  h = await startHarness({ env: { PATCHSMITH_SETUP_HOSTS: registry.host } });
}, 300_000);

afterAll(async () => {
  await h.stop();
  await registry.close();
});

describe("patchsmith serve on a repository with dependencies", () => {
  it("installs them before the tests, fixes the issue in a pull request, and starts the next job warm", async () => {
    h.modelStep = block("index.js", FLAGS_BUGGY, FLAGS_FIXED, "fix: parse --flag=false as false");
    const work = await makeTapeRepo(registry);
    const full = publishRepo(h, work, "flags");
    work.cleanup();
    h.github.issues.set(`${full}#1`, { title: "--flag=false is true", body: "parse(['--color=false']) gives true" });
    h.github.issues.set(`${full}#2`, { title: "again", body: "the same" });

    await deliver(
      h,
      "issue_comment",
      issueComment(h, full, 1, "/fix Boolean flags given as --flag=false are parsed as true"),
    );
    expect((await completedCheck(h, full)).body.conclusion).toBe("success");
    const first = commentsOf(h, full).at(-1)!;
    expect(first).toContain("npm ci --prefer-offline");
    expect(first).toContain("cache cold");
    expect(gitLog(h, full, "patchsmith/issue-1")).toContain("fix: parse --flag=false as false");
    const tarballs = registry.requests.filter((r) => r.endsWith(".tgz")).length;
    expect(tarballs).toBeGreaterThan(0);

    await deliver(h, "issue_comment", issueComment(h, full, 2, "/fix the same on the second issue"));
    const second = await waitFor(h, "the second job's answer", () =>
      commentsOf(h, full).find((c) => c.includes("cache warm")),
    );
    expect(second).toContain("npm ci --prefer-offline");
    expect(registry.requests.filter((r) => r.endsWith(".tgz")).length).toBe(tarballs);
  });
});
