/**
 * `/undo` as a job: clone the branch, find patchsmith's last commit, revert it with a new commit by the bot, and
 * push with a lease on the SHA read when the job started (a history rewrite never happens).
 */
import { step } from "../github/api-error.js";
import type { Outcome } from "./outcome.js";
import type { GitSandboxFactory } from "../ports/git-sandbox.js";
import type { GitHubGateway } from "../ports/github-gateway.js";
import type { Logger } from "../ports/logger.js";
import type { Job } from "./job-schema.js";
import { botIdentity } from "../agent/commit-message.js";
import { webHostOf, type Plan } from "./prepare.js";
import { notePush, type PushLedger } from "./push-ledger.js";
import type { Tracker } from "./tracker.js";
import { findUndoTarget } from "./undo-target.js";

export interface UndoJobDeps {
  readonly git: GitSandboxFactory;
  readonly tempRoot?: string | undefined;
  readonly logger: Logger;
  readonly pushes?: PushLedger | undefined;
}

export async function runUndoJob(
  gateway: GitHubGateway,
  job: Job,
  plan: Plan,
  tracker: Tracker,
  deps: UndoJobDeps,
): Promise<Outcome> {
  const { branch, repoInfo } = plan;
  if (branch.lease === null) {
    return {
      kind: "stopped",
      stop: "branch-missing",
      detail: `There is no \`${branch.into}\` branch yet: patchsmith has not committed anything here.`,
    };
  }
  if (!branch.canPush) {
    return {
      kind: "stopped",
      stop: "fork-no-push",
      detail: branch.fork
        ? "This pull request comes from a fork that does not allow edits from maintainers, so patchsmith cannot push a revert to it."
        : `This pull request's branch is the default branch (\`${branch.into}\`), which patchsmith never commits to directly.`,
    };
  }
  const identity = botIdentity(plan.app, webHostOf(repoInfo.htmlUrl));
  const token = await step("create an installation token for git", () => gateway.createRepoToken(job.repo));
  tracker.stage("cloning");
  const sandbox = await deps.git.clone({
    repo: branch.cloneUrl,
    branch: branch.into,
    token,
    ...(deps.tempRoot === undefined ? {} : { tempRoot: deps.tempRoot }),
  });
  try {
    const target = findUndoTarget(await sandbox.log("HEAD"), identity.name);
    if (target === undefined) {
      return {
        kind: "stopped",
        stop: "nothing-to-undo",
        detail:
          `The newest commits on \`${branch.into}\` are not ${identity.name}'s (or are already reverted): \`/undo\` only ` +
          `reverts patchsmith's own latest commit while nobody has committed on top of it. Revert by hand if needed.`,
      };
    }
    tracker.stage("committing");
    let revertSha: string;
    try {
      revertSha = await sandbox.revert(target.sha, identity);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        kind: "stopped",
        stop: "undo-conflict",
        detail: `Reverting \`${target.sha.slice(0, 7)}\` conflicts with later commits on \`${branch.into}\`; revert it by hand.\n\n${why.split("\n")[0] ?? ""}`,
      };
    }
    tracker.stage("pushing");
    const pushed = await sandbox.push(branch.into, branch.lease);
    if (!pushed.ok) {
      if (pushed.reason === "rejected-stale") {
        return {
          kind: "stopped",
          stop: "push-race",
          detail: `Someone pushed to \`${branch.into}\` meanwhile, so the revert was not pushed. Run \`/undo\` again if it is still wanted.`,
        };
      }
      return { kind: "error", message: `The push was refused: ${pushed.message ?? "unknown reason"}` };
    }
    await notePush(deps.pushes, deps.logger, { repo: branch.headRepo, from: branch.lease, to: revertSha });
    const link = (sha: string, subject: string) => ({ sha, subject, url: `${repoInfo.htmlUrl}/commit/${sha}` });
    return {
      kind: "undone",
      branch: branch.into,
      reverted: link(target.sha, target.subject),
      revert: link(revertSha, `Revert "${target.subject}"`),
    };
  } finally {
    await sandbox.dispose();
  }
}
