import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestRunner, UNSANDBOXED_WARNING } from "../../../src/adapters/test-runner.js";
import { makeNodeRepo, makePythonRepo, type TempRepo } from "../../fakes/git-repos.js";

const bwrap = createTestRunner({ sandbox: "bwrap" });
const none = createTestRunner({ sandbox: "none" });

const repos: TempRepo[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup();
});
const track = (repo: TempRepo): TempRepo => (repos.push(repo), repo);

/** Processes whose environment carries the marker (root can read every /proc/PID/environ here). */
function processesMarked(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").includes(marker)) found.push(Number(entry));
    } catch {
      // Exited meanwhile, or a zombie.
    }
  }
  return found;
}

/** SIGKILL is delivered asynchronously: give the kernel a bounded moment to finish the job. */
async function settle(check: () => boolean, limitMs = 5_000): Promise<boolean> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe.each([
  ["bwrap", bwrap],
  ["none", none],
] as const)("real test suites (%s)", (mode, runner) => {
  it("reports a failing Node suite with the failing test's name, then a passing one", async () => {
    const buggy = track(makeNodeRepo());
    const failed = await runner.run({ command: buggy.testCommand, cwd: buggy.dir, timeoutMs: 60_000 });
    expect(failed).toMatchObject({ command: "npm test", passed: false, exitCode: 1, timedOut: false, sandbox: mode });
    expect(failed.failing).toEqual([buggy.bug!.failingTest]);
    expect(failed.tail).toContain("# fail 1");
    expect(failed.durationMs).toBeGreaterThan(0);
    expect(failed.warning === undefined).toBe(mode === "bwrap");

    const fixed = track(makeNodeRepo({ bug: false }));
    const passed = await runner.run({ command: fixed.testCommand, cwd: fixed.dir, timeoutMs: 60_000 });
    expect(passed).toMatchObject({ passed: true, exitCode: 0, timedOut: false, failing: [] });
  });

  it("kills the whole process tree on timeout", async () => {
    const repo = track(makeNodeRepo());
    const marker = `PATCHSMITH_TEST_MARK_${randomUUID().replaceAll("-", "_")}`;
    const command = `export ${marker}=1; sleep 1000 & (sleep 1000 &) ; echo started; sleep 1000`;
    const summary = await runner.run({ command, cwd: repo.dir, timeoutMs: 500 });
    expect(summary).toMatchObject({ passed: false, timedOut: true, exitCode: null });
    expect(summary.tail).toContain("started");
    expect(await settle(() => processesMarked(marker).length === 0)).toBe(true);
  });
});

describe("processes that leave their session", () => {
  // Waits until the escaped process runs (after its setsid()), so the group kill cannot win a race against it.
  const escape = (marker: string): string =>
    `export ${marker}=1; setsid sh -c 'echo > .escaped; exec sleep 1000' > /dev/null 2>&1 &
    while [ ! -f .escaped ]; do sleep 0.05; done; echo left`;
  const newMarker = (): string => `PATCHSMITH_ESCAPE_${randomUUID().replaceAll("-", "_")}`;

  it("bwrap: the PID namespace ends even a setsid() background process when the command exits", async () => {
    const repo = track(makeNodeRepo());
    const marker = newMarker();
    const summary = await bwrap.run({ command: escape(marker), cwd: repo.dir, timeoutMs: 30_000 });
    expect(summary.passed).toBe(true);
    expect(await settle(() => processesMarked(marker).length === 0)).toBe(true);
  });

  it("none: a setsid() process escapes the process-group kill (the documented limit of running unsandboxed)", async () => {
    const repo = track(makeNodeRepo());
    const marker = newMarker();
    const summary = await none.run({ command: escape(marker), cwd: repo.dir, timeoutMs: 30_000 });
    expect(summary.passed).toBe(true);
    const survivors = processesMarked(marker);
    for (const pid of survivors) process.kill(pid, "SIGKILL");
    expect(survivors.length).toBe(1);
  });
});

describe("sandbox boundaries (bwrap)", () => {
  let server: Server;
  let port = 0;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      requests++;
      response.end("hello");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  });

  const fetchCommand = (): string =>
    `node -e "fetch('http://127.0.0.1:${port}/').then(() => process.exit(0), () => process.exit(3))"`;

  it("blocks the network inside the sandbox (and the same command reaches it without one)", async () => {
    const repo = track(makeNodeRepo());
    const blocked = await bwrap.run({ command: fetchCommand(), cwd: repo.dir, timeoutMs: 30_000 });
    expect(blocked.exitCode).toBe(3);
    expect(requests).toBe(0);
    const open = await none.run({ command: fetchCommand(), cwd: repo.dir, timeoutMs: 30_000 });
    expect(open.exitCode).toBe(0);
    expect(requests).toBe(1);
  });

  it("lets tests write the working tree but not .git", async () => {
    const repo = track(makeNodeRepo());
    const command = [
      "echo built > build-output.txt",
      "(echo '#!/bin/sh' > .git/hooks/pre-commit) 2>/dev/null && echo HOOK-PLANTED",
      "(echo '[core] fsmonitor = evil' >> .git/config) 2>/dev/null && echo CONFIG-CHANGED",
      "id -u",
    ].join("\n");
    const summary = await bwrap.run({ command, cwd: repo.dir, timeoutMs: 30_000 });
    expect(summary.passed).toBe(true);
    expect(readFileSync(join(repo.dir, "build-output.txt"), "utf8")).toBe("built\n");
    expect(summary.tail).not.toContain("HOOK-PLANTED");
    expect(summary.tail).not.toContain("CONFIG-CHANGED");
    expect(existsSync(join(repo.dir, ".git/hooks/pre-commit"))).toBe(false);
    expect(readFileSync(join(repo.dir, ".git/config"), "utf8")).not.toContain("evil");
    expect(summary.tail.trim().split("\n").at(-1)).toBe("1000");
  });

  it("hides secret files named by variables or options, and other clones in the temp folder", async () => {
    const repo = track(makeNodeRepo());
    const sibling = track(makeNodeRepo());
    const outside = mkdtempSync("/var/tmp/patchsmith-secret-");
    const keyFile = join(outside, "app.pem");
    const otherFile = join(outside, "other.txt");
    writeFileSync(keyFile, "KEY-CONTENT-123\n");
    writeFileSync(otherFile, "OTHER-CONTENT-456\n");
    const saved = process.env.PRIVATE_KEY_PATH;
    process.env.PRIVATE_KEY_PATH = keyFile;
    try {
      const runner = createTestRunner({ sandbox: "bwrap", hidePaths: [otherFile] });
      const command = `cat ${keyFile} ${otherFile} ${join(sibling.dir, "package.json")}; echo done`;
      const hidden = await runner.run({ command, cwd: repo.dir, timeoutMs: 30_000 });
      expect(hidden.tail).toContain("done");
      expect(hidden.tail).not.toContain("KEY-CONTENT-123");
      expect(hidden.tail).not.toContain("OTHER-CONTENT-456");
      expect(hidden.tail).not.toContain("tiny-stats");
      // Control: without the sandbox the same command does read them.
      const open = await none.run({ command, cwd: repo.dir, timeoutMs: 30_000 });
      expect(open.tail).toContain("KEY-CONTENT-123");
    } finally {
      if (saved === undefined) delete process.env.PRIVATE_KEY_PATH;
      else process.env.PRIVATE_KEY_PATH = saved;
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("hides the .env file of the folder the server runs in (where probot's set-up writes the App's key)", async () => {
    const repo = track(makeNodeRepo());
    const serverDir = mkdtempSync("/var/tmp/patchsmith-server-");
    writeFileSync(join(serverDir, ".env"), "PRIVATE_KEY=ENV-FILE-SECRET-789\n");
    const cwd = process.cwd();
    process.chdir(serverDir);
    try {
      const runner = createTestRunner({ sandbox: "bwrap" });
      const command = `cat ${join(serverDir, ".env")}; echo done`;
      const summary = await runner.run({ command, cwd: repo.dir, timeoutMs: 30_000 });
      expect(summary.tail).toContain("done");
      expect(summary.tail).not.toContain("ENV-FILE-SECRET-789");
    } finally {
      process.chdir(cwd);
      rmSync(serverDir, { recursive: true, force: true });
    }
  });
});

describe("environment and output", () => {
  const secrets = {
    OPENAI_API_KEY: "sk-test-openai-0123456789abcdefghij",
    GITHUB_TOKEN: "ghs_fakeGithubToken0123456789abcdefgh",
    MY_SECRET: "my-secret-value-987654",
    WEBHOOK_SECRET: "webhook-secret-value-5555",
    PATCHSMITH_DATA_DIR: "/var/lib/patchsmith-data",
    DATABASE_PASSWORD: "db-password-value-4444",
  };
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const [name, value] of Object.entries(secrets)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
  });

  it.each([
    ["bwrap", bwrap],
    ["none", none],
  ] as const)("gives tests a scrubbed environment (%s)", async (_mode, runner) => {
    const repo = track(makeNodeRepo());
    const summary = await runner.run({ command: "env", cwd: repo.dir, timeoutMs: 30_000 });
    for (const [name, value] of Object.entries(secrets)) {
      expect(summary.tail).not.toContain(name);
      expect(summary.tail).not.toContain(value);
    }
    expect(summary.tail).toMatch(/^PATH=/m);
    expect(summary.tail).toMatch(/^CI=true$/m);
    expect(summary.tail).toMatch(/^TERM=dumb$/m);
    expect(summary.tail).toMatch(/^HOME=\S+$/m);
    expect(summary.tail).not.toMatch(/^HOME=\/root$/m);
  });

  it("keeps only the tail of the output, interleaving stdout and stderr", async () => {
    const repo = track(makeNodeRepo());
    // Separate processes, one after the other: node itself may reorder a big async stdout write and stderr.
    const command = "head -c 300000 /dev/zero | tr '\\0' x; printf ERR-LAST >&2";
    const summary = await bwrap.run({ command, cwd: repo.dir, timeoutMs: 30_000, maxOutputBytes: 1000 });
    expect(summary.tail.length).toBe(1000);
    expect(summary.tail.endsWith("xxxERR-LAST")).toBe(true);
    const whole = await bwrap.run({ command: "echo out; echo err >&2; echo out2", cwd: repo.dir, timeoutMs: 30_000 });
    expect(whole.tail).toBe("out\nerr\nout2\n");
  });

  it("redacts token shapes and configured secrets from the tail", async () => {
    const repo = track(makeNodeRepo());
    const runner = createTestRunner({ sandbox: "bwrap", secrets: ["custom-secret-value"] });
    const command = "echo token ghp_abcdefghijklmnopqrstuvwxyz0123456789 custom-secret-value";
    const summary = await runner.run({ command, cwd: repo.dir, timeoutMs: 30_000 });
    expect(summary.tail).toBe("token [redacted] [redacted]\n");
  });
});

describe("sandbox selection and other runners", () => {
  it("falls back to no sandbox with a warning in auto mode, and refuses when bwrap is required", async () => {
    const auto = createTestRunner({ sandbox: "auto", bwrapBinary: "/nonexistent/bwrap" });
    const description = await auto.describe();
    expect(description.sandbox).toBe("none");
    expect(description.warning).toContain(UNSANDBOXED_WARNING);
    const repo = track(makeNodeRepo({ bug: false }));
    const summary = await auto.run({ command: "true", cwd: repo.dir, timeoutMs: 30_000 });
    expect(summary).toMatchObject({ passed: true, sandbox: "none" });
    expect(summary.warning).toContain(UNSANDBOXED_WARNING);

    const required = createTestRunner({ sandbox: "bwrap", bwrapBinary: "/nonexistent/bwrap" });
    await expect(required.run({ command: "true", cwd: repo.dir, timeoutMs: 30_000 })).rejects.toThrow(/bubblewrap/);
    expect((await createTestRunner().describe()).sandbox).toBe("bwrap");
  });

  it("runs a Python suite and names the failing test", async () => {
    const repo = track(makePythonRepo());
    const summary = await bwrap.run({ command: repo.testCommand, cwd: repo.dir, timeoutMs: 120_000 });
    expect(summary.passed).toBe(false);
    expect(summary.failing).toHaveLength(1);
    expect(summary.failing[0]).toContain(repo.bug!.failingTest);
  });
});
