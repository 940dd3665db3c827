/**
 * Hostile repositories through the whole loop: test suites that attack the host or the bot's commit, and a model
 * that echoes the key. Run by the built CLI as root (CI) and, where the machine allows, as an ordinary user the test
 * creates; each attack is asserted contained, and where it helps the report shows the attack did run.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { git, makeBareRemote, makeNodeRepo, type TempRepo } from "../fakes/git-repos.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/openai-server.js";
import { BUILT_CLI } from "../global-build.js";
import { block, commitsOf } from "./fix-helpers.js";

const KEY = "sk-hostile-key-0123456789abcdefghijklmnop";
const BUGGY = "  return total / (values.length - 1);";
const FIXED = "  return total / values.length;";
const FIX = block("src/stats.js", BUGGY, FIXED, "fix(stats): divide by the count");

interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runCli(
  args: readonly string[],
  env: Record<string, string>,
  user?: { uid: number; gid: number },
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BUILT_CLI, ...args], {
      env: { PATH: process.env.PATH ?? "", PATCHSMITH_LOG_LEVEL: "warn", ...env },
      ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

interface Report {
  status: string;
  branch: string;
  commits: Array<{ sha: string; message: string }>;
  attempts: Array<{ edits: Array<{ ok: boolean; reason?: string; path: string }> }>;
  tests: { before: { tail: string } | null; after: { tail: string; passed: boolean } | null };
  changedFiles: Array<{ path: string }>;
}

let server: FakeOpenAIServer | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0)) clean();
  await server?.close();
  server = undefined;
});

/** A repository whose test command runs its real tests, then `script`; the tests' exit code decides. */
function hostileRepo(script: string, owner?: { uid: number; gid: number }, parent?: string): TempRepo {
  const repo = makeNodeRepo({
    ...(parent === undefined ? {} : { tempRoot: parent }),
    files: { "attack.sh": script, ".github/patchsmith.yml": "test: node --test; s=$?; sh attack.sh; exit $s\n" },
  });
  if (owner !== undefined) execFileSync("chown", ["-R", `${String(owner.uid)}:${String(owner.gid)}`, repo.dir]);
  cleanups.push(() => {
    repo.cleanup();
  });
  return repo;
}

const remoteOf = (repo: TempRepo): { url: string; dir: string } => {
  const remote = makeBareRemote(repo);
  cleanups.push(() => {
    remote.cleanup();
  });
  return remote;
};

describe("the bot's commit holds what the engine wrote, and nothing else", () => {
  it("a test that appends to the edited file, leaves artifacts and makes a nested repository changes no commit", async () => {
    const attack = [
      "echo '// appended by the tests' >> src/stats.js",
      "echo junk > artifact.log",
      "mkdir -p vendored && cd vendored && git init -q && echo x > x.txt && git add x.txt",
      "git -c user.name=t -c user.email=t@t commit -qm nested; cd ..",
      "true",
    ].join("\n");
    const repo = hostileRepo(attack);
    const remote = remoteOf(repo);
    server = await startFakeOpenAI([FIX]);
    const result = await runCli(["fix", "--repo", remote.url, "--push", "--json", "Fix the mean"], {
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: KEY,
      HOME: process.env.HOME ?? "/root",
    });
    const report = JSON.parse(result.stdout) as Report;
    expect(report.status).toBe("success");
    expect(report.changedFiles.map((f) => f.path)).toEqual(["src/stats.js"]);
    const sha = report.commits[0]!.sha;
    const committed = git(remote.dir, ["show", `${sha}:src/stats.js`]);
    expect(committed).toContain(FIXED);
    expect(committed).not.toContain("appended by the tests");
    expect(git(remote.dir, ["diff-tree", "--no-commit-id", "--name-only", "-r", sha]).trim()).toBe("src/stats.js");
    expect(git(remote.dir, ["ls-tree", "-r", sha]).includes("160000")).toBe(false);
  });

  it("a test suite that fills the disk is stopped before the model, says so, and leaves nothing behind", async () => {
    const attack = [
      'echo "CLONE AT $(pwd)"',
      "for i in $(seq 4096); do head -c 1048576 /dev/zero > filler-$i; sleep 0.01; done",
      "echo FILLED",
    ].join("\n");
    const repo = hostileRepo(attack);
    const temp = mkdtempSync(join(tmpdir(), "patchsmith-disk-"));
    cleanups.push(() => {
      rmSync(temp, { recursive: true, force: true });
    });
    server = await startFakeOpenAI([FIX]);
    const result = await runCli(["fix", "--repo", repo.dir, "--json", "Fix the mean"], {
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: KEY,
      HOME: process.env.HOME ?? "/root",
      TMPDIR: temp,
      PATCHSMITH_SANDBOX_DISK: "32M",
    });
    const report = JSON.parse(result.stdout) as Report & { failure?: { message: string } };
    expect(report.status).toBe("failed");
    expect(report.failure?.message).toContain("wrote more than 32 MiB to the disk");
    expect(server.chatRequests).toHaveLength(0);
    expect(report.tests.before?.tail).not.toContain("FILLED");
    expect(report.tests.before?.tail).toContain(`CLONE AT ${temp}/`);
    expect(execFileSync("find", [temp, "-name", "filler-*"], { encoding: "utf8" })).toBe("");
  });

  it("a test whose code grows without end is ended at the memory limit, and the fix that ends the growth lands", async () => {
    const buggy = "  while (i--) out += alphabet[i % alphabet.length];";
    const fixed = "  while (i-- > 0) out += alphabet[i % alphabet.length];";
    const repo = makeNodeRepo({
      bug: false,
      files: {
        "src/ids.js": [
          'const alphabet = "abcdefghijklmnopqrstuvwxyz";',
          "/** An id of `size` letters; none for a size below one. */",
          "export function makeId(size) {",
          '  let out = "";',
          "  let i = size | 0;",
          buggy,
          "  return out;",
          "}",
          "",
        ].join("\n"),
        "test/ids.test.js": [
          'import { test } from "node:test";',
          'import assert from "node:assert/strict";',
          'import { makeId } from "../src/ids.js";',
          'test("makes ids of the size asked", () => assert.equal(makeId(5).length, 5));',
          'test("a negative size makes an empty id", () => assert.equal(makeId(-1), ""));',
          "",
        ].join("\n"),
      },
    });
    cleanups.push(() => {
      repo.cleanup();
    });
    server = await startFakeOpenAI([block("src/ids.js", buggy, fixed, "fix(ids): stop at zero")]);
    const result = await runCli(["fix", "--repo", repo.dir, "--json", "makeId(-1) never returns"], {
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: KEY,
      HOME: process.env.HOME ?? "/root",
      PATCHSMITH_SANDBOX_MEMORY: "256M",
    });
    const report = JSON.parse(result.stdout) as Report & { failure?: { message: string } };
    expect(report.failure).toBeUndefined();
    expect(report.status).toBe("success");
    expect(server.chatRequests).toHaveLength(1);
    expect(report.commits).toHaveLength(1);
    expect(report.tests.after?.passed).toBe(true);
  });

  it("a model reply that writes the key is refused, and the key is in no commit, message or report", async () => {
    const repo = hostileRepo("true\n");
    const remote = remoteOf(repo);
    const leak = [
      block("src/config.js", "", `export const key = "${KEY}";`),
      block("src/stats.js", BUGGY, FIXED),
      `COMMIT: fix(stats): divide by the count (key ${KEY})`,
    ].join("\n\n");
    server = await startFakeOpenAI([leak, "The rest is done."]);
    const result = await runCli(["fix", "--repo", remote.url, "--push", "--json", "Fix the mean"], {
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: KEY,
      HOME: process.env.HOME ?? "/root",
    });
    expect(result.stdout + result.stderr).not.toContain(KEY);
    expect(result.stdout).not.toContain(Buffer.from(KEY).toString("base64").replace(/=+$/, ""));
    const report = JSON.parse(result.stdout) as Report;
    expect(report.attempts[0]!.edits).toContainEqual(
      expect.objectContaining({ path: "src/config.js", ok: false, reason: "secret-refused" }),
    );
    expect(report.status).toBe("success");
    expect(report.changedFiles.map((f) => f.path)).toEqual(["src/stats.js"]);
    const log = commitsOf(remote.dir, `main..${report.branch}`);
    expect(JSON.stringify(log)).not.toContain(KEY);
    expect(git(remote.dir, ["log", "-p", `main..${report.branch}`])).not.toContain(KEY);
  });
});

/** An ordinary user made for this test (root only, where useradd exists). */
function makeUser(): { name: string; uid: number; gid: number; home: string } | undefined {
  if (process.getuid?.() !== 0 || !existsSync("/usr/sbin/useradd")) return undefined;
  const name = `pstest${randomUUID().slice(0, 6)}`;
  const home = mkdtempSync(join("/var/tmp", "patchsmith-user-"));
  rmSync(home, { recursive: true, force: true });
  execFileSync("/usr/sbin/useradd", ["--create-home", "--home-dir", home, "--shell", "/bin/sh", name]);
  const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
  return { name, uid, gid, home };
}

describe.each([
  ["root", false],
  ["an ordinary user", true],
] as const)("hostile tests under `patchsmith fix` run as %s", (_who, ordinary) => {
  let user: ReturnType<typeof makeUser>;
  let socketServer: Server | undefined;
  let socketPath = "";
  let connections = 0;
  let secretsDir = "";

  beforeAll(async () => {
    if (ordinary) user = makeUser();
    secretsDir = mkdtempSync(join("/var/tmp", "patchsmith-host-"));
    chmodSync(secretsDir, 0o755);
    socketPath = join(tmpdir(), `patchsmith-host-${randomUUID().slice(0, 8)}.sock`);
    socketServer = createServer((socket) => {
      connections++;
      socket.on("error", () => undefined);
      socket.end("HOST-SOCKET-ANSWER");
    });
    await new Promise<void>((resolve) => socketServer!.listen(socketPath, resolve));
    chmodSync(socketPath, 0o777);
    // The service user's own secrets, where the deny-list of old missed them.
    const home = user?.home ?? secretsDir;
    for (const [path, content] of [
      [".config/git/credentials", "https://u:GIT-CREDENTIAL-SECRET@example.com\n"],
      [".env", "API_TOKEN=DOTENV-SECRET\n"],
      [".pgpass", "db:5432:*:u:PGPASS-SECRET\n"],
      [".bash_history", "export TOKEN=HISTORY-SECRET\n"],
      [".gitconfig", "[user]\n  signingkey = GITCONFIG-SECRET\n"],
      ["keys/deploy.pem", "PEM-FILE-SECRET\n"],
    ] as const) {
      mkdirSync(join(home, path, ".."), { recursive: true });
      writeFileSync(join(home, path), content);
    }
    if (user !== undefined) execFileSync("chown", ["-R", `${String(user.uid)}:${String(user.gid)}`, home]);
  });

  afterAll(() => {
    socketServer?.close();
    rmSync(secretsDir, { recursive: true, force: true });
    if (user !== undefined) {
      execFileSync("/usr/sbin/userdel", ["--remove", user.name], { stdio: "ignore" });
      rmSync(user.home, { recursive: true, force: true });
    }
  });

  it("reads no host secret, reaches no host socket, and writes nothing outside its clone", async (context) => {
    if (ordinary && user === undefined) context.skip();
    const home = user?.home ?? secretsDir;
    const outside = join(tmpdir(), `patchsmith-escape-${randomUUID().slice(0, 8)}`);
    const attack = [
      "for f in /etc/shadow /root/.npmrc " +
        [".config/git/credentials", ".env", ".pgpass", ".bash_history", ".gitconfig", "keys/deploy.pem"]
          .map((p) => join(home, p))
          .join(" ") +
        "; do cat $f 2>/dev/null; done",
      `node -e "require('net').connect('${socketPath}').on('data',d=>console.log(String(d))).on('error',()=>{})"`,
      `echo escaped > ${outside} 2>/dev/null`,
      "echo ATTACK-RAN",
      "true",
    ].join("\n");
    const parent = user === undefined ? undefined : mkdtempSync(join("/var/tmp", "patchsmith-repos-"));
    if (parent !== undefined) {
      chmodSync(parent, 0o755);
      cleanups.push(() => {
        rmSync(parent, { recursive: true, force: true });
      });
    }
    const repo = hostileRepo(attack, user, parent);
    server = await startFakeOpenAI([FIX]);
    const before = connections;
    const result = await runCli(
      ["fix", "--repo", repo.dir, "--json", "Fix the mean"],
      { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY, HOME: home },
      user,
    );
    const report = JSON.parse(result.stdout) as Report;
    expect(report.tests.before?.tail).toContain("ATTACK-RAN");
    const seen = `${report.tests.before?.tail ?? ""}\n${report.tests.after?.tail ?? ""}`;
    for (const secret of [
      "root:",
      "GIT-CREDENTIAL-SECRET",
      "DOTENV-SECRET",
      "PGPASS-SECRET",
      "HISTORY-SECRET",
      "GITCONFIG-SECRET",
      "PEM-FILE-SECRET",
      "HOST-SOCKET-ANSWER",
    ]) {
      expect(seen).not.toContain(secret);
    }
    expect(connections).toBe(before);
    expect(existsSync(outside)).toBe(false);
    expect(report.status).toBe("success");
  });
});
