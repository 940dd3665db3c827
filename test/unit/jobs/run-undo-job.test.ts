/** /undo against real git: a bare remote, commits by the bot and by people, a lease that can go stale. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGitSandboxFactory } from "../../../src/adapters/git-sandbox.js";
import { createWorker } from "../../../src/jobs/worker.js";
import {
  commitFile,
  git,
  makeBareRemote,
  makeNodeRepo,
  type BareRemote,
  type TempRepo,
} from "../../fakes/git-repos.js";
import { createFakeGateway, samplePull } from "./fake-gateway.js";
import { sampleJob, stubRunFix, successReport } from "./reports.js";

const BOT = { name: "patchsmith[bot]", email: "41+patchsmith[bot]@users.noreply.github.com" };

function botCommit(dir: string, path: string, content: string, subject: string): string {
  commitFile(dir, path, content, subject);
  execFileSync("git", ["commit", "--quiet", "--amend", "--no-edit", `--author=${BOT.name} <${BOT.email}>`], {
    cwd: dir,
  });
  return git(dir, ["rev-parse", "HEAD"]).trim();
}

describe("worker: /undo", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  function setup() {
    const repo: TempRepo = makeNodeRepo({ bug: false });
    cleanups.push(() => {
      repo.cleanup();
    });
    git(repo.dir, ["checkout", "--quiet", "-b", "csv-export"]);
    // A person's commit first: /undo walks the bot's commits at the tip and never goes below somebody else's.
    commitFile(repo.dir, "c.txt", "human\n", "docs: a human commit");
    const first = botCommit(repo.dir, "a.txt", "one\n", "fix: first change");
    const second = botCommit(repo.dir, "b.txt", "two\n", "fix: second change");
    const head = git(repo.dir, ["rev-parse", "HEAD"]).trim();
    const remote: BareRemote = makeBareRemote(repo);
    cleanups.push(() => {
      remote.cleanup();
    });
    const temp = mkdtempSync(join(tmpdir(), "patchsmith-undo-"));
    cleanups.push(() => {
      rmSync(temp, { recursive: true, force: true });
    });
    const fake = createFakeGateway();
    fake.state.repo = { ...fake.state.repo, cloneUrl: remote.dir };
    fake.state.pulls[34] = samplePull({ headSha: head, headRef: "csv-export", headCloneUrl: remote.dir });
    const work = createWorker({
      gateways: () => fake.gateway,
      runFix: stubRunFix(successReport()).runFix,
      git: createGitSandboxFactory(),
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      secrets: [],
      tempRoot: temp,
    });
    const job = sampleJob({ target: { kind: "pull", number: 34 }, command: { kind: "undo" }, headSha: head });
    return { repo, remote, fake, work, job, first, second, head };
  }

  it("reverts the bot's last commit with a revert commit by the bot, pushed on the branch", async () => {
    const { remote, fake, work, job, second, head } = setup();
    await work(job);
    const remoteHead = git(remote.dir, ["rev-parse", "csv-export"]).trim();
    expect(git(remote.dir, ["rev-parse", `${remoteHead}^`]).trim()).toBe(head);
    const message = git(remote.dir, ["log", "-1", "--format=%an%n%B", remoteHead]);
    expect(message).toContain("patchsmith[bot]");
    expect(message).toContain(`This reverts commit ${second}`);
    expect(git(remote.dir, ["ls-tree", "--name-only", remoteHead])).not.toContain("b.txt");
    const final = fake.state.comments.get(500) ?? "";
    expect(final).toContain("✅ undone");
    expect(final).toContain(second.slice(0, 7));
    expect([...fake.state.checks.values()][0]?.conclusion).toBe("success");
  });

  it("walks back one commit per /undo", async () => {
    const { remote, fake, work, job, first } = setup();
    await work(job);
    const afterFirstUndo = git(remote.dir, ["rev-parse", "csv-export"]).trim();
    fake.state.pulls[34] = samplePull({ headSha: afterFirstUndo, headRef: "csv-export", headCloneUrl: remote.dir });
    await work({ ...job, id: "second-undo", headSha: afterFirstUndo });
    const log = git(remote.dir, ["log", "-1", "--format=%B", "csv-export"]);
    expect(log).toContain(`This reverts commit ${first}`);
  });

  it("does not push when someone pushed after the job read the head", async () => {
    const { repo, remote, fake, work, job, head } = setup();
    // The job read `head`; then another patchsmith run pushes a new commit before the clone (a person's commit
    // would already stop /undo, which never reverts below somebody else's work).
    const moved = botCommit(repo.dir, "d.txt", "late\n", "fix: late push");
    git(repo.dir, ["push", "--quiet", remote.dir, "csv-export"]);
    fake.state.pulls[34] = samplePull({ headSha: head, headRef: "csv-export", headCloneUrl: remote.dir });
    await work(job);
    expect(git(remote.dir, ["rev-parse", "csv-export"]).trim()).toBe(moved);
    expect(fake.state.comments.get(500)).toContain("someone pushed meanwhile");
  });

  it("says there is nothing to undo on an issue without a patchsmith branch", async () => {
    const { fake, work } = setup();
    await work(sampleJob({ command: { kind: "undo" } }));
    expect(fake.state.comments.get(500)).toContain("There is no `patchsmith/issue-12` branch");
  });
});
