/**
 * What every command checks when its job starts (the queue delay is a window in which things change): the repo
 * config from the default branch, the requester's live permission, and the branch to work on with the SHA the
 * push will be leased on. A pull request whose head moved since the command was written stops the job, unless only
 * patchsmith's own pushes moved it (an earlier command on the same thread: see push-ledger.ts). Returns either a plan or the outcome that ends the job.
 */
import { FALLBACK_APP } from "../agent/commit-message.js";
import { REPO_CONFIG_PATH, loadRepoConfig, type RepoConfig } from "../config/repo-config.js";
import { bestEffort, step } from "../github/api-error.js";
import { authorize } from "../github/authorize.js";
import type { Outcome } from "./outcome.js";
import type { AppIdentity, GitHubGateway, RepoInfo } from "../ports/github-gateway.js";
import type { Logger } from "../ports/logger.js";
import type { Job } from "./job-schema.js";
import type { PushLedger } from "./push-ledger.js";

export interface BranchPlan {
  /** The branch the clone starts from. */
  readonly from: string;
  /** The branch the commits go on (the PR head, or `patchsmith/issue-N`). */
  readonly into: string;
  /** The SHA the remote branch must still have when we push; null: it must not exist yet. */
  readonly lease: string | null;
  /** The SHA the check run is attached to. */
  readonly headSha: string;
  readonly cloneUrl: string;
  /** A pull request from another repository. */
  readonly fork: boolean;
  /** `owner/name` of the repository the branch lives in (the fork's, for a fork's pull request). */
  readonly headRepo: string;
  /** False for a fork that does not allow edits from maintainers. */
  readonly canPush: boolean;
  readonly pull?: { readonly number: number; readonly title: string; readonly body: string };
}

export interface Plan {
  readonly repoInfo: RepoInfo;
  readonly config: RepoConfig;
  readonly app: AppIdentity;
  readonly branch: BranchPlan;
}

export type Prepared = { readonly ok: true; readonly plan: Plan } | { readonly ok: false; readonly outcome: Outcome };

export function issueBranch(number: number): string {
  return `patchsmith/issue-${number}`;
}

async function planBranch(
  gateway: GitHubGateway,
  job: Job,
  repoInfo: RepoInfo,
  pushes: PushLedger | undefined,
): Promise<BranchPlan | Outcome> {
  const repo = job.repo;
  if (job.target.kind === "issue") {
    const into = issueBranch(job.target.number);
    const existing = await step(`read the branch ${into}`, () => gateway.getBranchSha(repo, into));
    const headSha =
      existing ??
      (await step(`read the default branch ${repoInfo.defaultBranch}`, () =>
        gateway.getBranchSha(repo, repoInfo.defaultBranch),
      ));
    if (headSha === undefined)
      return { kind: "error", message: `The default branch ${repoInfo.defaultBranch} has no commits.` };
    // A second /fix on the same issue continues the branch (and its pull request) instead of starting over.
    return {
      from: existing === undefined ? repoInfo.defaultBranch : into,
      into,
      lease: existing ?? null,
      headSha,
      cloneUrl: repoInfo.cloneUrl,
      fork: false,
      headRepo: `${repo.owner}/${repo.name}`,
      canPush: true,
    };
  }
  const number = job.target.number;
  const pull = await step(`read pull request #${String(number)}`, () => gateway.getPull(repo, number));
  if (pull.state !== "open") {
    return {
      kind: "stopped",
      stop: "pull-closed",
      detail: `Pull request #${pull.number} is ${pull.merged ? "merged" : "closed"}; nothing was changed.`,
    };
  }
  const headRepo = pull.headRepoFullName ?? `${repo.owner}/${repo.name}`;
  if (
    job.headSha !== null &&
    pull.headSha !== job.headSha &&
    !(await pushes?.onlyOwnPushes(headRepo, job.headSha, pull.headSha))
  ) {
    return {
      kind: "stopped",
      stop: "head-moved",
      detail:
        `\`${pull.headRef}\` moved from \`${job.headSha.slice(0, 7)}\` to \`${pull.headSha.slice(0, 7)}\` after the command was written. ` +
        "patchsmith never works on top of changes the requester has not seen: look at the new commits and run the command again.",
    };
  }
  const fork = pull.headRepoFullName !== `${repo.owner}/${repo.name}`;
  if (fork && pull.headCloneUrl === null) {
    return { kind: "stopped", stop: "fork-no-push", detail: "The fork this pull request comes from no longer exists." };
  }
  return {
    from: pull.headRef,
    into: pull.headRef,
    lease: pull.headSha,
    headSha: pull.headSha,
    cloneUrl: fork ? pull.headCloneUrl! : repoInfo.cloneUrl,
    fork,
    headRepo,
    // Never commit straight onto the default branch (a PR from `main` into a release branch): answer with a patch.
    canPush: (!fork || pull.maintainerCanModify) && !(!fork && pull.headRef === repoInfo.defaultBranch),
    pull: { number: pull.number, title: pull.title, body: pull.body },
  };
}

/**
 * Essential calls (repository, config, permission, branch or pull request) throw a `StepError` naming the step; the
 * app's identity is best-effort (`FALLBACK_APP`).
 */
export async function prepare(
  gateway: GitHubGateway,
  job: Job,
  logger: Logger,
  pushes?: PushLedger,
): Promise<Prepared> {
  const repoInfo = await step("read the repository", () => gateway.getRepo(job.repo));
  const loaded = await step(`read ${REPO_CONFIG_PATH} from ${repoInfo.defaultBranch}`, () =>
    loadRepoConfig(gateway, job.repo, repoInfo.defaultBranch),
  );
  if (!loaded.ok) return { ok: false, outcome: { kind: "config-error", message: loaded.message } };
  const [app, permission] = await Promise.all([
    bestEffort("read the app's identity", () => gateway.getAppIdentity(), FALLBACK_APP, {
      logger,
      fields: { job: job.id },
    }),
    step(`check @${job.requester.login}'s permission`, () => gateway.getPermission(job.repo, job.requester.login)),
  ]);
  const actor = { login: job.requester.login, type: "User" };
  const auth = authorize(actor, permission, loaded.config.trigger, app.botLogin);
  if (!auth.ok) {
    return { ok: false, outcome: { kind: "denied", reason: auth.reason, login: job.requester.login, permission } };
  }
  const branch = await planBranch(gateway, job, repoInfo, pushes);
  if ("kind" in branch) return { ok: false, outcome: branch };
  return { ok: true, plan: { repoInfo, config: loaded.config, app, branch } };
}

/** The host of GitHub's web UI, for noreply addresses: github.com, or the Enterprise Server's host. */
export function webHostOf(htmlUrl: string): string {
  try {
    return new URL(htmlUrl).hostname;
  } catch {
    return "github.com";
  }
}

export function coAuthorOf(requester: { readonly login: string; readonly id: number }, webHost: string): string {
  // Without the user id (a payload that left it out), the older login-only noreply address still attributes.
  const user = requester.id > 0 ? `${String(requester.id)}+${requester.login}` : requester.login;
  return `${requester.login} <${user}@users.noreply.${webHost}>`;
}
