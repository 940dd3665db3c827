/**
 * The real sandbox runner on real repositories: bubblewrap, the sandbox user, cgroup or rlimit limits. Each hostile
 * command is tried with the sandbox and asserted contained; where it helps, the same command without the sandbox
 * shows that the attack itself works.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createNetServer, type Server as NetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_NICENESS } from "../../../src/adapters/sandbox/process.js";
import { fetchUsesEnvProxy } from "../../../src/core/node-env-proxy.js";
import { createSandboxRunner, UNSANDBOXED_WARNING } from "../../../src/adapters/sandbox/runner.js";
import { cacheEnv, testCacheEnv } from "../../../src/agent/setup-plan.js";
import { makeNodeRepo, makePythonRepo, type TempRepo } from "../../fakes/git-repos.js";

const bwrap = createSandboxRunner({ mode: "bwrap" });
const none = createSandboxRunner({ mode: "none" });
const isRoot = process.getuid?.() === 0;

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

const newMarker = (): string => `PATCHSMITH_MARK_${randomUUID().replaceAll("-", "_")}`;

describe.each([
  ["bwrap", bwrap],
  ["none", none],
] as const)("real test suites (%s)", (mode, runner) => {
  it("runs a failing Node suite, then a passing one", async () => {
    const buggy = track(makeNodeRepo());
    const failed = await runner.run({ command: buggy.testCommand, cwd: buggy.dir, timeoutMs: 60_000 });
    expect(failed).toMatchObject({ command: "npm test", passed: false, exitCode: 1, timedOut: false, sandbox: mode });
    // TAP on Node.js 20 (its default reporter without a terminal), spec on 24.
    expect(failed.output).toMatch(/^(?:#|ℹ) fail 1$/m);
    expect(failed.durationMs).toBeGreaterThan(0);
    expect(failed.warning === undefined).toBe(mode === "bwrap");

    const fixed = track(makeNodeRepo({ bug: false }));
    const passed = await runner.run({ command: fixed.testCommand, cwd: fixed.dir, timeoutMs: 60_000 });
    expect(passed).toMatchObject({ passed: true, exitCode: 0, timedOut: false });
  });

  it("kills the whole process tree on timeout, a child that ignores SIGTERM included", async () => {
    const repo = track(makeNodeRepo());
    const marker = newMarker();
    const command = `export ${marker}=1; sh -c 'trap "" TERM; while :; do :; done' & (sleep 1000 &) ; echo started; while :; do :; done`;
    const summary = await runner.run({ command, cwd: repo.dir, timeoutMs: 1_000 });
    expect(summary).toMatchObject({ passed: false, timedOut: true, exitCode: null });
    expect(summary.output).toContain("started");
    expect(await settle(() => processesMarked(marker).length === 0)).toBe(true);
  });
});

describe("processes that leave their session", () => {
  // Waits until the escaped process runs (after its setsid()), so the group kill cannot win a race against it.
  const escape = (marker: string): string =>
    `export ${marker}=1; setsid sh -c 'echo > .escaped; exec sleep 1000' > /dev/null 2>&1 &
    while [ ! -f .escaped ]; do sleep 0.05; done; echo left`;

  it("bwrap: the PID namespace ends even a setsid() background process when the command exits", async () => {
    const repo = track(makeNodeRepo());
    const marker = newMarker();
    const summary = await bwrap.run({ command: escape(marker), cwd: repo.dir, timeoutMs: 30_000 });
    expect(summary.passed).toBe(true);
    expect(await settle(() => processesMarked(marker).length === 0)).toBe(true);
  });

  it.runIf(isRoot)("none, as root: the run's cgroup ends a setsid() process the group kill misses", async () => {
    const repo = track(makeNodeRepo());
    const marker = newMarker();
    const summary = await none.run({ command: escape(marker), cwd: repo.dir, timeoutMs: 30_000 });
    expect(summary.passed).toBe(true);
    expect(await settle(() => processesMarked(marker).length === 0)).toBe(true);
  });
});

describe("what the sandbox sees of the host (bwrap)", () => {
  it("runs as an unprivileged user that is never root, with no capabilities", async () => {
    const repo = track(makeNodeRepo());
    const summary = await bwrap.run({
      command: "id -u; id -g; grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status",
      cwd: repo.dir,
      timeoutMs: 30_000,
    });
    const [uid, gid] = summary.output.trim().split("\n");
    expect(uid).not.toBe("0");
    expect(gid).not.toBe("0");
    if (isRoot) expect(uid).toBe("64500");
    for (const line of summary.output.split("\n").filter((l) => l.startsWith("Cap"))) {
      expect(line).toMatch(/:\s+0+$/);
    }
  });

  it("cannot read root's files, the host's passwd, shadow or home", async () => {
    const repo = track(makeNodeRepo());
    const command = [
      "cat /etc/shadow && echo READ-SHADOW",
      "cat /root/.npmrc && echo READ-NPMRC",
      "ls /root/.ssh && echo LISTED-SSH",
      "ls /home && echo LISTED-HOME",
      "grep -c : /etc/passwd",
      "echo done",
    ].join("; ");
    const summary = await bwrap.run({ command, cwd: repo.dir, timeoutMs: 30_000 });
    expect(summary.output).toContain("done");
    for (const leak of ["READ-SHADOW", "READ-NPMRC", "LISTED-SSH", "LISTED-HOME"])
      expect(summary.output).not.toContain(leak);
    // The minimal passwd: root, the sandbox user, nobody.
    expect(summary.output).toMatch(/^3$/m);
  });

  it("cannot reach a host unix socket, root-only or world-writable, in /tmp, /run or elsewhere", async () => {
    const repo = track(makeNodeRepo());
    const dir = mkdtempSync(join("/var/tmp", "patchsmith-sock-"));
    const servers: NetServer[] = [];
    let connections = 0;
    try {
      const paths = [join(dir, "open.sock"), join(tmpdir(), `patchsmith-${randomUUID().slice(0, 8)}.sock`)];
      for (const path of paths) {
        const server = createNetServer((socket) => {
          connections++;
          socket.on("error", () => undefined);
          socket.end("hello");
        });
        await new Promise<void>((resolve) => server.listen(path, resolve));
        servers.push(server);
      }
      const probe = paths
        .map(
          (p) =>
            `node -e "require('net').connect('${p}').on('connect',()=>{console.log('CONNECTED');process.exit(0)}).on('error',()=>process.exit(1))"`,
        )
        .join("; ");
      const summary = await bwrap.run({
        command: `${probe}; ls /run /var/run 2>&1; echo done`,
        cwd: repo.dir,
        timeoutMs: 30_000,
      });
      expect(summary.output).toContain("done");
      expect(summary.output).not.toContain("CONNECTED");
      expect(connections).toBe(0);
      // Control: the same probe outside the sandbox connects.
      const open = await none.run({ command: probe, cwd: repo.dir, timeoutMs: 30_000 });
      expect(open.output).toContain("CONNECTED");
    } finally {
      for (const server of servers) server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("cannot see the job store, other clones, or secret files named by the service's variables", async () => {
    const repo = track(makeNodeRepo());
    const sibling = track(makeNodeRepo());
    const data = mkdtempSync(join("/var/tmp", "patchsmith-data-"));
    writeFileSync(join(data, "job.json"), '{"repo":"other/secret-repo"}');
    const key = join(data, "app.pem");
    writeFileSync(key, "KEY-CONTENT-123\n");
    try {
      const command = `cat ${join(data, "job.json")} ${key} ${join(sibling.dir, "package.json")}; ls ${data}; echo done`;
      const summary = await bwrap.run({ command, cwd: repo.dir, timeoutMs: 30_000 });
      expect(summary.output).toContain("done");
      for (const leak of ["secret-repo", "KEY-CONTENT-123", "tiny-stats"]) expect(summary.output).not.toContain(leak);
      const open = await none.run({ command, cwd: repo.dir, timeoutMs: 30_000 });
      expect(open.output).toContain("KEY-CONTENT-123");
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it("writes the working tree, but nothing outside the clone and not .git", async () => {
    const repo = track(makeNodeRepo());
    const outside = join(tmpdir(), `patchsmith-outside-${randomUUID().slice(0, 8)}`);
    const command = [
      "echo built > build-output.txt",
      `echo x > ${outside} 2>/dev/null && echo WROTE-HOST-TMP`,
      "echo x > ../sibling-file 2>/dev/null && echo WROTE-PARENT",
      "echo x > /usr/evil 2>/dev/null && echo WROTE-USR",
      "echo x > /etc/evil 2>/dev/null && echo WROTE-ETC",
      "(echo '#!/bin/sh' > .git/hooks/pre-commit) 2>/dev/null && echo HOOK-PLANTED",
      "(echo '[core] fsmonitor = evil' >> .git/config) 2>/dev/null && echo CONFIG-CHANGED",
      'touch "$HOME/x" && echo HOME-WRITABLE',
    ].join("\n");
    const summary = await bwrap.run({ command, cwd: repo.dir, timeoutMs: 30_000 });
    expect(readFileSync(join(repo.dir, "build-output.txt"), "utf8")).toBe("built\n");
    // The sandbox's /tmp (where the clone's parent is) is its own: writes there succeed and vanish with it.
    for (const leak of ["WROTE-USR", "WROTE-ETC", "HOOK-PLANTED", "CONFIG-CHANGED"]) {
      expect(summary.output).not.toContain(leak);
    }
    expect(summary.output).toContain("HOME-WRITABLE");
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(repo.dir, "..", "sibling-file"))).toBe(false);
    expect(existsSync(join(repo.dir, ".git/hooks/pre-commit"))).toBe(false);
    expect(readFileSync(join(repo.dir, ".git/config"), "utf8")).not.toContain("evil");
  });

  it("has no network without a request for it, and none but the egress proxy with one", async () => {
    const repo = track(makeNodeRepo());
    const server = createNetServer((socket) => {
      socket.on("error", () => undefined);
      socket.end("hello");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const direct = `node -e "require('net').connect(${port},'127.0.0.1').on('connect',()=>{console.log('REACHED');process.exit(0)}).on('error',()=>process.exit(3))"`;
      const offline = await bwrap.run({ command: direct, cwd: repo.dir, timeoutMs: 30_000 });
      expect(offline.output).not.toContain("REACHED");
      const online = await bwrap.run({ command: direct, cwd: repo.dir, timeoutMs: 30_000, network: true });
      expect(online.output).not.toContain("REACHED");
      const open = await none.run({ command: direct, cwd: repo.dir, timeoutMs: 30_000 });
      expect(open.output).toContain("REACHED");
    } finally {
      server.close();
    }
  });
});

describe("set-up's egress through the allow-list proxy (bwrap)", () => {
  it("reaches an exactly listed host, and refuses an internal address admitted only by a wildcard", async () => {
    const repo = track(makeNodeRepo());
    let hits = 0;
    const server = createHttpServer((_request, response) => {
      hits++;
      response.end("REGISTRY-ANSWER");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const curl = `curl -s -w ' %{http_code}' http://127.0.0.1:${String(port)}/pkg`;
      const exact = createSandboxRunner({ mode: "bwrap", setupHosts: [{ host: "127.0.0.1", port }] });
      const reached = await exact.run({ command: curl, cwd: repo.dir, timeoutMs: 30_000, network: true });
      expect(reached.output).toContain("REGISTRY-ANSWER 200");
      expect(hits).toBe(1);

      const wildcard = createSandboxRunner({ mode: "bwrap", setupHosts: [{ host: "*" }] });
      const refused = await wildcard.run({ command: curl, cwd: repo.dir, timeoutMs: 30_000, network: true });
      expect(refused.output).toContain("403");
      expect(refused.output).toContain("internal address");
      expect(refused.refusedHosts).toEqual([`127.0.0.1:${String(port)}`]);
      expect(hits).toBe(1);

      const off = createSandboxRunner({
        mode: "bwrap",
        setupHosts: [{ host: "127.0.0.1", port }],
        setupNetwork: false,
      });
      const offline = await off.run({
        command: `${curl}; env | grep npm_config_offline`,
        cwd: repo.dir,
        timeoutMs: 30_000,
        network: true,
      });
      expect(offline.output).toContain("npm_config_offline=true");
      expect(hits).toBe(1);
    } finally {
      server.close();
    }
  });

  // Older Node.js has no way to send its fetch through a proxy from the environment; set-up then says so.
  it.runIf(fetchUsesEnvProxy())("sends Node's own fetch through the proxy", async () => {
    const repo = track(makeNodeRepo());
    const server = createHttpServer((_request, response) => response.end("FETCHED"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const runner = createSandboxRunner({ mode: "bwrap", setupHosts: [{ host: "127.0.0.1", port }] });
      const fetched = await runner.run({
        command: `node -e "fetch('http://127.0.0.1:${String(port)}/x').then((r) => r.text()).then(console.log)"`,
        cwd: repo.dir,
        timeoutMs: 30_000,
        network: true,
      });
      expect(fetched.output).toContain("FETCHED");
    } finally {
      server.close();
    }
  });

  it("tells an admitted host it could not reach from one the allow-list refused", async () => {
    const repo = track(makeNodeRepo());
    // A port nothing listens on: admitted, and the connection is refused by the host.
    const closed = createHttpServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) =>
      closed.close(() => {
        resolve();
      }),
    );
    const runner = createSandboxRunner({ mode: "bwrap", setupHosts: [{ host: "127.0.0.1", port }] });
    const run = await runner.run({
      command: `curl -s -w ' %{http_code}' http://127.0.0.1:${String(port)}/a; curl -s https://127.0.0.1:${String(port)}/b`,
      cwd: repo.dir,
      timeoutMs: 30_000,
      network: true,
    });
    expect(run.unreachableHosts).toEqual([`127.0.0.1:${String(port)}`]);
    expect(run.refusedHosts).toBeUndefined();
  });
});

describe("limits (bwrap)", () => {
  const small = { memoryBytes: 256 * 1024 ** 2, processes: 64, cpuSeconds: 2, diskBytes: 64 * 1024 ** 2 };
  const limited = createSandboxRunner({ mode: "bwrap", limits: small });
  const rlimited = createSandboxRunner({ mode: "bwrap", limits: small, enforcer: "rlimit" });
  const allocate = `node -e "const a=[];for(let i=0;i<96;i++){a.push(Buffer.alloc(64*1024*1024,1))}console.log('ALLOCATED 6 GiB')"`;

  it.each([
    ["the machine's best", limited],
    ["rlimits", rlimited],
  ] as const)("stops a 6 GiB allocation and says memory (%s)", async (_how, runner) => {
    const repo = track(makeNodeRepo());
    const summary = await runner.run({ command: allocate, cwd: repo.dir, timeoutMs: 60_000 });
    expect(summary.passed).toBe(false);
    expect(summary.output).not.toContain("ALLOCATED");
    expect(summary.limit?.kind).toBe("memory");
    expect(summary.limit?.message).toContain("256 MiB");
  });

  it.each([
    ["the machine's best", limited],
    ["rlimits", rlimited],
  ] as const)("stops 2,000 processes at the limit and says processes (%s)", async (_how, runner) => {
    const repo = track(makeNodeRepo());
    const marker = newMarker();
    // The shell says "Cannot fork" when it hits the limit: with rlimits that message is the only sign.
    const command = `export ${marker}=1; for i in $(seq 2000); do sleep 30 & done; exit 1`;
    const summary = await runner.run({ command, cwd: repo.dir, timeoutMs: 60_000 });
    expect(summary.passed).toBe(false);
    expect(processesMarked(marker).length).toBeLessThanOrEqual(64);
    expect(summary.limit?.kind).toBe("processes");
    expect(await settle(() => processesMarked(marker).length === 0)).toBe(true);
  });

  it.each([
    ["the machine's best", limited],
    ["rlimits", rlimited],
  ] as const)("stops an endless computation at its CPU time (%s)", async (_how, runner) => {
    const repo = track(makeNodeRepo());
    const summary = await runner.run({ command: "while :; do :; done", cwd: repo.dir, timeoutMs: 60_000 });
    expect(summary).toMatchObject({ passed: false, timedOut: false });
    expect(summary.limit?.kind).toBe("cpu-time");
    expect(summary.durationMs).toBeLessThan(30_000);
  });

  it("stops a suite that keeps writing to the clone's disk, and says disk", async () => {
    const repo = track(makeNodeRepo());
    // 1 MiB files, about 100 MiB a second at most, for up to 2 GiB: the watch polls once a second.
    const command = "for i in $(seq 2048); do head -c 1048576 /dev/zero > filler-$i; sleep 0.01; done; echo WROTE ALL";
    const summary = await limited.run({ command, cwd: repo.dir, timeoutMs: 120_000 });
    expect(summary).toMatchObject({ passed: false, timedOut: false });
    expect(summary.output).not.toContain("WROTE ALL");
    expect(summary.limit?.kind).toBe("disk");
    expect(summary.limit?.message).toContain("64 MiB");
    const written = readdirSync(repo.dir).filter((name) => name.startsWith("filler-")).length;
    expect(written).toBeGreaterThan(64);
    expect(written).toBeLessThan(1024);
  });

  it("keeps a bounded tail of 1 GiB of output", async () => {
    const repo = track(makeNodeRepo());
    const command = "head -c 1073741824 /dev/zero | tr '\\0' x; printf END";
    const summary = await bwrap.run({ command, cwd: repo.dir, timeoutMs: 120_000, maxOutputBytes: 4096 });
    expect(summary.passed).toBe(true);
    expect(summary.output.length).toBe(4096);
    expect(summary.output.endsWith("xxxEND")).toBe(true);
    expect(summary.droppedBytes).toBe(1024 ** 3 + 3 - 4096);
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
  ] as const)("gives commands a CI runner's environment, nothing of the service's (%s)", async (_mode, runner) => {
    const repo = track(makeNodeRepo());
    const summary = await runner.run({ command: "env", cwd: repo.dir, timeoutMs: 30_000, env: { FEATURE_FLAG: "on" } });
    for (const [name, value] of Object.entries(secrets)) {
      expect(summary.output).not.toContain(name);
      expect(summary.output).not.toContain(value);
    }
    expect(summary.output).toMatch(/^PATH=/m);
    expect(summary.output).toMatch(/^CI=true$/m);
    expect(summary.output).toMatch(/^FEATURE_FLAG=on$/m);
    expect(summary.output).not.toMatch(/^NO_COLOR=/m);
    expect(summary.output).not.toMatch(/^TERM=dumb$/m);
    expect(summary.output).toMatch(/^HOME=\S+$/m);
    expect(summary.output).not.toMatch(/^HOME=\/root$/m);
    // Tests run offline: package managers are told so (npx fails at once instead of retrying a registry).
    expect(summary.output).toMatch(/^npm_config_offline=true$/m);
  });

  it("lets tests pack with npm while the shared cache stays read-only (bwrap)", async () => {
    const repo = track(makeNodeRepo());
    const cacheDir = mkdtempSync(join(tmpdir(), "patchsmith-cache-"));
    try {
      const pack =
        'npm pack --pack-destination . >/dev/null && ls *.tgz; touch "$PATCHSMITH_CACHE/x" || echo READ-ONLY';
      const run = (env: (root: string) => Record<string, string>) =>
        bwrap.run({ command: pack, cwd: repo.dir, timeoutMs: 60_000, cache: { dir: cacheDir, writable: false, env } });
      const tested = await run(testCacheEnv);
      expect(tested.passed).toBe(true);
      expect(tested.output).toContain("tiny-stats-1.0.0.tgz");
      expect(tested.output).toContain("READ-ONLY");
      expect(readdirSync(cacheDir)).toEqual([]);
      // npm pointed at the read-only cache: it cannot pack (EROFS, which npm exits with as 226).
      const readOnlyNpm = await run(cacheEnv);
      expect(readOnlyNpm.output).not.toContain("tiny-stats-1.0.0.tgz");
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it("puts shims and the request's folders first on PATH", async () => {
    const repo = track(makeNodeRepo());
    mkdirSync(join(repo.dir, "venv-bin"));
    writeFileSync(join(repo.dir, "venv-bin", "hello"), "#!/bin/sh\necho from-venv\n", { mode: 0o755 });
    const summary = await bwrap.run({
      command: "pm --version; hello",
      cwd: repo.dir,
      timeoutMs: 30_000,
      shims: { pm: "echo shim-args" },
      path: [join(repo.dir, "venv-bin")],
    });
    expect(summary.output).toBe("shim-args --version\nfrom-venv\n");
  });

  it("runs repository code at a lower priority than the service, down to its last child", async () => {
    const repo = track(makeNodeRepo());
    const summary = await bwrap.run({ command: "nice; sh -c nice", cwd: repo.dir, timeoutMs: 30_000 });
    expect(summary.output).toBe(`${String(SANDBOX_NICENESS)}\n${String(SANDBOX_NICENESS)}\n`);
  });

  it("keeps only the tail of the output, interleaving stdout and stderr", async () => {
    const repo = track(makeNodeRepo());
    const command = "head -c 300000 /dev/zero | tr '\\0' x; printf ERR-LAST >&2";
    const summary = await bwrap.run({ command, cwd: repo.dir, timeoutMs: 30_000, maxOutputBytes: 1000 });
    expect(summary.output.length).toBe(1000);
    expect(summary.output.endsWith("xxxERR-LAST")).toBe(true);
    const whole = await bwrap.run({ command: "echo out; echo err >&2; echo out2", cwd: repo.dir, timeoutMs: 30_000 });
    expect(whole.output).toBe("out\nerr\nout2\n");
  });

  it("redacts token shapes and configured secrets from the output", async () => {
    const repo = track(makeNodeRepo());
    const runner = createSandboxRunner({ mode: "bwrap", secrets: ["custom-secret-value"] });
    const command = "echo token ghp_abcdefghijklmnopqrstuvwxyz0123456789 custom-secret-value";
    const summary = await runner.run({ command, cwd: repo.dir, timeoutMs: 30_000 });
    expect(summary.output).toBe("token [redacted] [redacted]\n");
  });
});

describe("sandbox selection and other runners", () => {
  it("falls back to no sandbox with a warning in auto mode, and refuses when bwrap is required", async () => {
    const auto = createSandboxRunner({ mode: "auto", bwrapBinary: "/nonexistent/bwrap" });
    const description = await auto.describe();
    expect(description.sandbox).toBe("none");
    expect(description.warning).toContain(UNSANDBOXED_WARNING);
    const repo = track(makeNodeRepo({ bug: false }));
    const summary = await auto.run({ command: "true", cwd: repo.dir, timeoutMs: 30_000 });
    expect(summary).toMatchObject({ passed: true, sandbox: "none" });
    expect(summary.warning).toContain(UNSANDBOXED_WARNING);

    const required = createSandboxRunner({ mode: "bwrap", bwrapBinary: "/nonexistent/bwrap" });
    await expect(required.run({ command: "true", cwd: repo.dir, timeoutMs: 30_000 })).rejects.toThrow(/bubblewrap/);
    expect((await createSandboxRunner().describe()).sandbox).toBe("bwrap");
  });

  it("gives the sandbox user a /dev/shm of its own for semaphores, bounded in size", async () => {
    const repo = track(makeNodeRepo());
    const lock = await bwrap.run({
      command: `python3 -c "import multiprocessing; multiprocessing.Lock(); print('LOCK-OK')"`,
      cwd: repo.dir,
      timeoutMs: 60_000,
    });
    expect(lock.output).toContain("LOCK-OK");
    const fill = await bwrap.run({
      command: "head -c 100000000 /dev/zero > /dev/shm/fill; echo exit=$?; ls /dev/shm",
      cwd: repo.dir,
      timeoutMs: 60_000,
    });
    expect(fill.output).toMatch(/No space left on device[\s\S]*exit=1/);
  });

  it("runs a Python suite with the host's toolchain visible read-only", async () => {
    const repo = track(makePythonRepo());
    const summary = await bwrap.run({ command: repo.testCommand, cwd: repo.dir, timeoutMs: 120_000 });
    expect(summary.passed).toBe(false);
    expect(summary.output).toContain(repo.bug!.failingTest);
  });
});
