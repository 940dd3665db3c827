/** Shared pieces of the fix e2e tests: real deps against the fake OpenAI server, edit blocks, tree checks. */
import { git, type TempRepo } from "../fakes/git-repos.js";
import type { FixDeps } from "../../src/agent/deps.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeFixDeps } from "../../src/compose.js";
import type { Env } from "../../src/config/env.js";

export const API_KEY = "sk-e2e-secret-0123456789abcdefghijklmnop";

/** One package-cache folder for the test process, so tests never write the user's own cache. */
export const TEST_CACHE_ROOT = mkdtempSync(join(tmpdir(), "patchsmith-test-cache-"));
process.on("exit", () => {
  rmSync(TEST_CACHE_ROOT, { recursive: true, force: true });
});

export function realDeps(baseURL: string, env: Partial<Env> = {}): FixDeps {
  return composeFixDeps(
    { PATCHSMITH_TEST_SANDBOX: "auto", ...env } as Env,
    { apiKey: API_KEY, baseURL, model: "fake-model" },
    { cacheRoot: TEST_CACHE_ROOT },
  );
}

export function block(path: string, search: string, replace: string, commit?: string): string {
  const lines = [path, "```", "<<<<<<< SEARCH", search, "=======", replace, ">>>>>>> REPLACE", "```"];
  if (commit !== undefined) lines.push(`COMMIT: ${commit}`);
  return lines.join("\n");
}

/** The caller's working tree: HEAD and `git status` must be exactly as before the run. */
export function treeState(repo: TempRepo): { head: string; status: string; branch: string } {
  return {
    head: git(repo.dir, ["rev-parse", "HEAD"]).trim(),
    status: git(repo.dir, ["status", "--porcelain", "--untracked-files=all"]),
    branch: git(repo.dir, ["rev-parse", "--abbrev-ref", "HEAD"]).trim(),
  };
}

export interface CommitRecord {
  readonly author: string;
  readonly committer: string;
  readonly message: string;
}

/** Commits of `range` in repository `dir`, newest first. */
export function commitsOf(dir: string, range: string): CommitRecord[] {
  const out = git(dir, ["log", "--format=%an <%ae>%x1f%cn <%ce>%x1f%B%x1e", range]);
  return out
    .split("\x1e")
    .map((r) => r.trim())
    .filter((r) => r !== "")
    .map((r) => {
      const [author = "", committer = "", message = ""] = r.split("\x1f");
      return { author, committer, message };
    });
}
