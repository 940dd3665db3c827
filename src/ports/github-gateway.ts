/**
 * The GitHub API as the app's handlers and worker see it: one gateway per installation, small typed records in and
 * out. Implemented over Octokit in adapters/octokit-gateway.ts; unit tests use an in-memory fake.
 */

export interface RepoRef {
  readonly owner: string;
  readonly name: string;
}

/** A collaborator's live permission (`role_name` of the permission endpoint, falling back to `permission`). */
export type Permission = "admin" | "maintain" | "write" | "triage" | "read" | "none";

export interface RepoInfo {
  readonly defaultBranch: string;
  /** The API's `clone_url` (so GitHub Enterprise Server works without guessing hosts). */
  readonly cloneUrl: string;
  readonly htmlUrl: string;
  readonly private: boolean;
}

export interface PullInfo {
  readonly number: number;
  readonly state: "open" | "closed";
  readonly merged: boolean;
  readonly title: string;
  readonly body: string;
  readonly htmlUrl: string;
  readonly headRef: string;
  readonly headSha: string;
  /** `owner/name` of the head repository; null when the fork was deleted. */
  readonly headRepoFullName: string | null;
  readonly headCloneUrl: string | null;
  readonly baseRef: string;
  readonly maintainerCanModify: boolean;
}

export interface IssueInfo {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly htmlUrl: string;
  readonly isPullRequest: boolean;
}

export interface CommentRef {
  readonly id: number;
  readonly htmlUrl: string;
}

export type CheckConclusion = "success" | "failure" | "neutral" | "cancelled";

export interface CheckOutput {
  readonly title: string;
  readonly summary: string;
  readonly text?: string;
}

/** A check run as listed for a commit: enough to recognise one patchsmith made for a job (by `external_id`). */
export interface CheckRunInfo {
  readonly id: number;
  /** The `external_id` it was created with; null when it has none. */
  readonly externalId: string | null;
  /** GitHub's status: `queued`, `in_progress`, `completed` (and a few more for Actions). */
  readonly status: string;
}

export interface AppIdentity {
  /** The app's slug; its bot account is `${slug}[bot]`. */
  readonly slug: string;
  readonly botLogin: string;
  /** The bot account's user id (for the noreply commit email); null when it could not be read. */
  readonly botUserId: number | null;
}

export type ReactionTarget = { readonly kind: "issue-comment" | "review-comment"; readonly commentId: number };

export interface GitHubGateway {
  getPermission(repo: RepoRef, login: string): Promise<Permission>;
  getRepo(repo: RepoRef): Promise<RepoInfo>;
  /**
   * A config file the way probot reads it (its config plugin: `_extends` followed, the organisation's `.github`
   * repository when the repository has none) from `ref`, and the organisation's own file as a separate layer.
   */
  getConfigLayers(repo: RepoRef, path: string, ref: string): Promise<ConfigLayers>;
  /** The branch's head SHA, or undefined when the branch does not exist. */
  getBranchSha(repo: RepoRef, branch: string): Promise<string | undefined>;
  getIssue(repo: RepoRef, number: number): Promise<IssueInfo>;
  getPull(repo: RepoRef, number: number): Promise<PullInfo>;
  /** The open pull request whose head is `branch` in this repository, if any. */
  findOpenPull(
    repo: RepoRef,
    branch: string,
  ): Promise<{ readonly number: number; readonly htmlUrl: string } | undefined>;
  createPull(
    repo: RepoRef,
    pull: { readonly title: string; readonly head: string; readonly base: string; readonly body: string },
  ): Promise<{ readonly number: number; readonly htmlUrl: string }>;
  addReaction(repo: RepoRef, target: ReactionTarget, content: "eyes" | "confused"): Promise<void>;
  createComment(repo: RepoRef, issueNumber: number, body: string): Promise<CommentRef>;
  /**
   * The first comment on the issue or pull request, written or edited since `since` (ms), whose body holds `marker`:
   * how a handler run again after a crash finds the comment its first run already posted.
   */
  findComment(repo: RepoRef, issueNumber: number, marker: string, since: number): Promise<CommentRef | undefined>;
  updateComment(repo: RepoRef, commentId: number, body: string): Promise<void>;
  /** A reply in a pull request review thread (where a suggestion block can be applied). */
  replyToReviewComment(repo: RepoRef, pullNumber: number, commentId: number, body: string): Promise<CommentRef>;
  createCheckRun(
    repo: RepoRef,
    run: {
      readonly name: string;
      readonly headSha: string;
      readonly output: CheckOutput;
      readonly detailsUrl?: string;
      /** GitHub's `external_id`: the job id, so a rerun of the job finds the check run it made before. */
      readonly externalId?: string;
    },
  ): Promise<number>;
  /** The check runs named `name` on the commit `headSha` (all of them, not only the latest). */
  listCheckRuns(
    repo: RepoRef,
    query: { readonly headSha: string; readonly name: string },
  ): Promise<readonly CheckRunInfo[]>;
  /**
   * Without a conclusion the check run is (again) `in_progress`, which reopens one left by an earlier run of the job;
   * with one it is `completed`.
   */
  updateCheckRun(
    repo: RepoRef,
    id: number,
    update: { readonly output: CheckOutput; readonly conclusion?: CheckConclusion },
  ): Promise<void>;
  /** An installation token scoped to this one repository with `contents: write` (for git over HTTP). */
  createRepoToken(repo: RepoRef): Promise<string>;
  /**
   * Revokes a token made by `createRepoToken` (`DELETE /installation/token`, authenticated with that token), so a
   * token that leaked from a clone or a log is worthless once its job ends.
   */
  revokeRepoToken(token: string): Promise<void>;
  getAppIdentity(): Promise<AppIdentity>;
}

/** Gateways are per installation: the worker gets one for each job's installation id. */
export type GitHubGatewayFactory = (installationId: number) => GitHubGateway;

/** One config file as probot's config plugin found it (parsed, `_extends` followed and removed). */
export interface ConfigLayer {
  /** `owner/repo:path`, for messages. */
  readonly source: string;
  readonly data: unknown;
}

export interface ConfigLayers {
  /** The repository's own file and what it extends, base first; empty when it has none. */
  readonly repo: readonly ConfigLayer[];
  /** The organisation's file (its `.github` repository) and what it extends, base first; empty when none. */
  readonly org: readonly ConfigLayer[];
}
