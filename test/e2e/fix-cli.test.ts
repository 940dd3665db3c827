/**
 * The built CLI as a child process: `node dist/cli.js fix --repo URL --push --json "…"` with OPENAI_BASE_URL
 * pointing at the fake OpenAI server, against a bare remote of a real repository with a failing test.
 */
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { git, makeBareRemote, makeNodeRepo, type BareRemote, type TempRepo } from "../fakes/git-repos.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/openai-server.js";
import { BUILT_CLI } from "../global-build.js";
import { block, commitsOf, treeState } from "./fix-helpers.js";

const cli = BUILT_CLI;
const SECRET = "sk-cli-secret-abcdefghijklmnopqrstuvwxyz012345";

let repo: TempRepo | undefined;
let remote: BareRemote | undefined;
let server: FakeOpenAIServer | undefined;

afterEach(async () => {
  remote?.cleanup();
  repo?.cleanup();
  await server?.close();
  repo = remote = server = undefined;
});

function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", PATCHSMITH_LOG_LEVEL: "warn", ...env },
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

describe("node dist/cli.js fix", () => {
  it("fixes, pushes the new branch to the origin with a lease, and prints the JSON report", async () => {
    repo = makeNodeRepo();
    remote = makeBareRemote(repo);
    const remoteMain = git(remote.dir, ["rev-parse", "main"]).trim();
    const callerBefore = treeState(repo);
    const fix = block(
      "src/stats.js",
      "  return total / (values.length - 1);",
      "  return total / values.length;",
      "fix(stats): divide by the count",
    );
    server = await startFakeOpenAI([fix]);
    const result = await runCli(
      [
        "fix",
        "--repo",
        remote.url,
        "--push",
        "--json",
        "--co-author",
        "Ada Lovelace <ada@example.com>",
        "--max-attempts",
        "2",
        "Fix the mean",
      ],
      { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: SECRET, PATCHSMITH_MODEL: "fake-model" },
    );
    expect(result.stderr).toContain("patchsmith: cloning");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown> & {
      commits: Array<{ sha: string }>;
      branch: string;
    };
    expect(Object.keys(report).slice(0, 6)).toEqual(["status", "branch", "commits", "attempts", "tests", "usage"]);
    expect(report).toMatchObject({ status: "success", branch: "patchsmith/fix-the-mean", pushed: true });
    expect(report).not.toHaveProperty("failure");
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    // The branch landed on the origin, with the attributed commit; main is untouched.
    const pushed = git(remote.dir, ["rev-parse", "patchsmith/fix-the-mean"]).trim();
    expect(pushed).toBe(report.commits[0]!.sha);
    expect(git(remote.dir, ["rev-parse", "main"]).trim()).toBe(remoteMain);
    const [commit] = commitsOf(remote.dir, `main..patchsmith/fix-the-mean`);
    expect(commit?.author).toBe("patchsmith[bot] <patchsmith[bot]@users.noreply.github.com>");
    expect(commit?.message).toContain(
      "\n\nCo-authored-by: Ada Lovelace <ada@example.com>\nPatchsmith-Model: fake-model\n",
    );
    expect(treeState(repo)).toEqual(callerBefore);
    expect(server.chatRequests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it("exits 1 with a failed report when the push lease is stale (the branch already exists)", async () => {
    repo = makeNodeRepo();
    remote = makeBareRemote(repo);
    git(remote.dir, ["branch", "release", "main"]);
    const fix = block("src/stats.js", "  return total / (values.length - 1);", "  return total / values.length;");
    server = await startFakeOpenAI([fix]);
    const result = await runCli(
      ["fix", "--repo", remote.url, "--into", "release", "--push", "--json", "Fix the mean"],
      {
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: SECRET,
      },
    );
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { status: string; pushed: boolean; failure: { reason: string } };
    expect(report).toMatchObject({ status: "failed", pushed: false, failure: { reason: "push-rejected-stale" } });
    expect(git(remote.dir, ["rev-parse", "release"]).trim()).toBe(git(remote.dir, ["rev-parse", "main"]).trim());
  });

  it("without --push leaves the branch in the local repository (working tree untouched); a rerun gets a fresh name", async () => {
    repo = makeNodeRepo();
    const before = treeState(repo);
    const fix = block("src/stats.js", "  return total / (values.length - 1);", "  return total / values.length;");
    server = await startFakeOpenAI([fix, fix]);
    const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: SECRET };
    const first = await runCli(["fix", "--repo", repo.dir, "--json", "Fix the mean"], env);
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as { branch: string; commits: Array<{ sha: string }>; clonePath?: string };
    expect(report.branch).toBe("patchsmith/fix-the-mean");
    expect(report.clonePath).toBeUndefined();
    // The commit the report names exists in the caller's repository, on that branch.
    expect(git(repo.dir, ["rev-parse", report.branch]).trim()).toBe(report.commits[0]!.sha);
    expect(treeState(repo)).toEqual(before);

    const second = await runCli(["fix", "--repo", repo.dir, "--json", "Fix the mean"], env);
    expect(second.code).toBe(0);
    const again = JSON.parse(second.stdout) as { branch: string; commits: Array<{ sha: string }> };
    expect(again.branch).toBe("patchsmith/fix-the-mean-2");
    expect(git(repo.dir, ["rev-parse", again.branch]).trim()).toBe(again.commits[0]!.sha);
    expect(treeState(repo)).toEqual(before);
  });

  it("routes a model name to the operator's endpoint with its key, and reports the cost of its calls", async () => {
    repo = makeNodeRepo();
    const fix = block("src/stats.js", "  return total / (values.length - 1);", "  return total / values.length;");
    const localKey = "sk-local-route-key-0123456789abcdef";
    server = await startFakeOpenAI([fix], { apiKey: localKey });
    const table = join(repo.dir, "..", `models-${String(Date.now())}.yml`);
    writeFileSync(
      table,
      `cheap-coder:\n  base-url: ${server.url}\n  api-key-env: LOCAL_MODEL_KEY\n  model: coder-7b\n  price: { input: 1000, output: 2000 }\n`,
    );
    try {
      const result = await runCli(["fix", "--repo", repo.dir, "--json", "--model", "cheap-coder", "Fix the mean"], {
        // The default endpoint is somewhere else: only the route reaches the fake server.
        OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
        OPENAI_API_KEY: SECRET,
        LOCAL_MODEL_KEY: localKey,
        PATCHSMITH_MODELS_FILE: table,
      });
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as {
        status: string;
        usage: { promptTokens: number; completionTokens: number; costUsd?: number };
      };
      expect(report.status).toBe("success");
      expect(server.chatRequests.map((r) => r.model)).toEqual(["coder-7b"]);
      const { promptTokens, completionTokens } = report.usage;
      expect(report.usage.costUsd).toBeCloseTo((promptTokens * 1000 + completionTokens * 2000) / 1_000_000, 6);
      expect(result.stdout).not.toContain(localKey);
      expect(result.stderr).not.toContain(localKey);
    } finally {
      rmSync(table, { force: true });
    }
  });

  it("teaches the dialect --edit-format names, or the one the operator set for the model, and applies its replies", async () => {
    const diff = [
      "```diff",
      "--- a/src/stats.js",
      "+++ b/src/stats.js",
      "@@ -9,3 +9,3 @@",
      "   const total = sum(values);",
      "-  return total / (values.length - 1);",
      "+  return total / values.length;",
      " }",
      "```",
      "COMMIT: fix(stats): divide the mean by the count",
    ].join("\n");
    const patch = [
      "*** Begin Patch",
      "*** Update File: src/stats.js",
      "@@ export function mean(values) {",
      "   const total = sum(values);",
      "-  return total / (values.length - 1);",
      "+  return total / values.length;",
      "*** End Patch",
      "COMMIT: fix(stats): divide the mean by the count",
    ].join("\n");
    const system = (s: FakeOpenAIServer): string =>
      s.chatRequests[0]?.messages.find((m) => m.role === "system")?.content ?? "";

    repo = makeNodeRepo();
    server = await startFakeOpenAI([diff]);
    const byFlag = await runCli(["fix", "--repo", repo.dir, "--json", "--edit-format", "udiff", "Fix the mean"], {
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: SECRET,
    });
    expect(byFlag.code).toBe(0);
    expect(system(server)).toContain("Edit files with unified diffs");
    expect(system(server)).not.toContain("<<<<<<< SEARCH");
    await server.close();

    repo.cleanup();
    repo = makeNodeRepo();
    server = await startFakeOpenAI([patch]);
    const table = join(repo.dir, "..", `models-${String(Date.now())}.yml`);
    writeFileSync(table, "patch-coder:\n  edit-format: patch\n");
    try {
      const byRoute = await runCli(["fix", "--repo", repo.dir, "--json", "--model", "patch-coder", "Fix the mean"], {
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: SECRET,
        PATCHSMITH_MODELS_FILE: table,
      });
      expect(byRoute.code).toBe(0);
      expect(system(server)).toContain("*** Begin Patch");
      expect(system(server)).not.toContain("<<<<<<< SEARCH");
    } finally {
      rmSync(table, { force: true });
    }
    expect((await runCli(["fix", "--repo", repo.dir, "--edit-format", "xml", "Fix"], {})).code).toBe(2);
  });

  it("without --push on a URL keeps the clone that holds the branch and prints its path", async () => {
    repo = makeNodeRepo();
    remote = makeBareRemote(repo);
    const fix = block("src/stats.js", "  return total / (values.length - 1);", "  return total / values.length;");
    server = await startFakeOpenAI([fix]);
    const result = await runCli(["fix", "--repo", remote.url, "Fix the mean"], {
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: SECRET,
    });
    expect(result.code).toBe(0);
    const kept = /The clone was kept at (\S+)\./.exec(result.stdout)?.[1];
    expect(kept).toBeDefined();
    try {
      expect(git(kept!, ["log", "-1", "--format=%s", "patchsmith/fix-the-mean"]).trim()).not.toBe("");
      expect(git(kept!, ["status", "--porcelain"])).toBe("");
    } finally {
      rmSync(kept!, { recursive: true, force: true });
    }
  });

  it("stops a hanging suite at --test-minutes, and says how to give it more time", async () => {
    repo = makeNodeRepo();
    server = await startFakeOpenAI([]);
    const hang = 'node -e "setInterval(() => {}, 1000)"';
    const result = await runCli(
      ["fix", "--repo", repo.dir, "--json", "--no-setup", "--test", hang, "--test-minutes", "0.03", "Fix the mean"],
      { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: SECRET },
    );
    const report = JSON.parse(result.stdout) as { tests: { before: { timedOut: boolean } | null }; notes?: string[] };
    expect(report.tests.before?.timedOut).toBe(true);
    expect(report.notes?.join("\n")).toContain("stopped at its time limit (2 s)");
  });

  it("exits 2 on usage errors, before doing anything", async () => {
    const missing = await runCli(["fix", "--json", "do it"], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--repo PATH|URL is required");
    const badFlag = await runCli(["fix", "--repo", ".", "--max-attempts", "zero", "x"], {});
    expect(badFlag.code).toBe(2);
    const noKey = await runCli(["fix", "--repo", ".", "x"], {});
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("OPENAI_API_KEY");
  });
});
