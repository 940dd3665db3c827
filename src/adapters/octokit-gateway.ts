/**
 * The GitHub gateway over Octokit (probot's ProbotOctokit: REST endpoints under `.rest`, GHE base URL honoured).
 * Installation calls use an installation-authenticated client; the repo-scoped git token and the app's identity
 * need the app (JWT) client.
 */
import type { ProbotOctokit } from "probot";
import { toPermission } from "../github/authorize.js";
import type { AppIdentity, GitHubGateway, GitHubGatewayFactory, PullInfo } from "../ports/github-gateway.js";

export type Octokit = InstanceType<typeof ProbotOctokit>;

/** The app's identity; `users` is a client that may read user accounts (an installation's). */
export type IdentityLoader = (users?: () => Promise<Octokit>) => Promise<AppIdentity>;

export interface OctokitGatewayOptions {
  /** An installation-authenticated client (probot's `context.octokit`, or `app.auth(installationId)`). */
  readonly installation: () => Promise<Octokit>;
  /** The app-authenticated (JWT) client: `app.auth()`. */
  readonly app: () => Promise<Octokit>;
  readonly installationId: number;
  /** Shared across gateways: the app's identity does not change while the process runs. */
  readonly identity: IdentityLoader;
}

function statusOf(error: unknown): number | undefined {
  if (typeof error === "object" && error !== null && "status" in error && typeof error.status === "number") {
    return error.status;
  }
  return undefined;
}

async function orUndefinedOn404<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (error) {
    if (statusOf(error) === 404) return undefined;
    throw error;
  }
}

export function createOctokitGateway(options: OctokitGatewayOptions): GitHubGateway {
  let client: Promise<Octokit> | undefined;
  const octokit = (): Promise<Octokit> => (client ??= options.installation());
  const ids = (repo: { owner: string; name: string }) => ({ owner: repo.owner, repo: repo.name });

  return {
    async getPermission(repo, login) {
      const response = await orUndefinedOn404(
        (await octokit()).rest.repos.getCollaboratorPermissionLevel({ ...ids(repo), username: login }),
      );
      if (response === undefined) return "none";
      const data = response.data as { role_name?: string | null; permission?: string | null };
      return toPermission(data.role_name, data.permission);
    },
    async getRepo(repo) {
      const { data } = await (await octokit()).rest.repos.get(ids(repo));
      return {
        defaultBranch: data.default_branch,
        cloneUrl: data.clone_url,
        htmlUrl: data.html_url,
        private: data.private,
      };
    },
    async getFileContent(repo, path, ref) {
      const response = await orUndefinedOn404((await octokit()).rest.repos.getContent({ ...ids(repo), path, ref }));
      const data = response?.data;
      if (data === undefined || Array.isArray(data) || data.type !== "file" || !("content" in data)) return undefined;
      return Buffer.from(data.content, data.encoding === "base64" ? "base64" : "utf8").toString("utf8");
    },
    async getBranchSha(repo, branch) {
      const response = await orUndefinedOn404((await octokit()).rest.repos.getBranch({ ...ids(repo), branch }));
      return response?.data.commit.sha;
    },
    async getIssue(repo, number) {
      const { data } = await (await octokit()).rest.issues.get({ ...ids(repo), issue_number: number });
      return {
        number: data.number,
        title: data.title,
        body: data.body ?? "",
        htmlUrl: data.html_url,
        isPullRequest: data.pull_request !== undefined,
      };
    },
    async getPull(repo, number): Promise<PullInfo> {
      const { data } = await (await octokit()).rest.pulls.get({ ...ids(repo), pull_number: number });
      // The types say otherwise, but GitHub sends `null` when the fork behind a pull request was deleted.
      const headRepo = data.head.repo as typeof data.head.repo | null;
      return {
        number: data.number,
        state: data.state === "open" ? "open" : "closed",
        merged: data.merged,
        title: data.title,
        body: data.body ?? "",
        htmlUrl: data.html_url,
        headRef: data.head.ref,
        headSha: data.head.sha,
        headRepoFullName: headRepo?.full_name ?? null,
        headCloneUrl: headRepo?.clone_url ?? null,
        baseRef: data.base.ref,
        maintainerCanModify: data.maintainer_can_modify,
      };
    },
    async findOpenPull(repo, branch) {
      const { data } = await (
        await octokit()
      ).rest.pulls.list({
        ...ids(repo),
        state: "open",
        head: `${repo.owner}:${branch}`,
        per_page: 1,
      });
      const first = data[0];
      return first === undefined ? undefined : { number: first.number, htmlUrl: first.html_url };
    },
    async createPull(repo, pull) {
      const { data } = await (await octokit()).rest.pulls.create({ ...ids(repo), ...pull });
      return { number: data.number, htmlUrl: data.html_url };
    },
    async addReaction(repo, target, content) {
      const o = await octokit();
      if (target.kind === "issue-comment") {
        await o.rest.reactions.createForIssueComment({ ...ids(repo), comment_id: target.commentId, content });
      } else {
        await o.rest.reactions.createForPullRequestReviewComment({
          ...ids(repo),
          comment_id: target.commentId,
          content,
        });
      }
    },
    async createComment(repo, issueNumber, body) {
      const { data } = await (
        await octokit()
      ).rest.issues.createComment({ ...ids(repo), issue_number: issueNumber, body });
      return { id: data.id, htmlUrl: data.html_url };
    },
    async updateComment(repo, commentId, body) {
      await (await octokit()).rest.issues.updateComment({ ...ids(repo), comment_id: commentId, body });
    },
    async replyToReviewComment(repo, pullNumber, commentId, body) {
      const { data } = await (
        await octokit()
      ).rest.pulls.createReplyForReviewComment({
        ...ids(repo),
        pull_number: pullNumber,
        comment_id: commentId,
        body,
      });
      return { id: data.id, htmlUrl: data.html_url };
    },
    async createCheckRun(repo, run) {
      const { data } = await (
        await octokit()
      ).rest.checks.create({
        ...ids(repo),
        name: run.name,
        head_sha: run.headSha,
        status: "in_progress",
        started_at: new Date().toISOString(),
        output: run.output,
        ...(run.detailsUrl === undefined ? {} : { details_url: run.detailsUrl }),
      });
      return data.id;
    },
    async updateCheckRun(repo, id, update) {
      await (
        await octokit()
      ).rest.checks.update({
        ...ids(repo),
        check_run_id: id,
        output: update.output,
        ...(update.conclusion === undefined
          ? {}
          : { status: "completed" as const, conclusion: update.conclusion, completed_at: new Date().toISOString() }),
      });
    },
    async createRepoToken(repo) {
      // Scoped to this one repository and to contents: the token git uses can do nothing else.
      const { data } = await (
        await options.app()
      ).rest.apps.createInstallationAccessToken({
        installation_id: options.installationId,
        repositories: [repo.name],
        permissions: { contents: "write" },
      });
      return data.token;
    },
    getAppIdentity: () => options.identity(octokit),
  };
}

/**
 * Reads the app's slug once (app JWT), and its bot account's id once an installation client is at hand (the users
 * endpoint does not accept an app JWT).
 */
export function createIdentityLoader(app: () => Promise<Octokit>): IdentityLoader {
  let slug: Promise<string> | undefined;
  let botUserId: number | null = null;
  return async (users) => {
    slug ??= app()
      .then(async (o) => (await o.rest.apps.getAuthenticated()).data?.slug ?? "patchsmith")
      .catch((error: unknown) => {
        slug = undefined;
        throw error;
      });
    const botLogin = `${await slug}[bot]`;
    if (botUserId === null && users !== undefined) {
      const user = await (await users()).rest.users.getByUsername({ username: botLogin }).catch(() => undefined);
      botUserId = user?.data.id ?? null;
    }
    return { slug: await slug, botLogin, botUserId };
  };
}

/** Gateways for the worker: one per installation, authenticated lazily. */
export function createOctokitGatewayFactory(
  authenticate: (installationId?: number) => Promise<Octokit>,
  identity: IdentityLoader = createIdentityLoader(() => authenticate()),
): GitHubGatewayFactory {
  const app = () => authenticate();
  return (installationId) =>
    createOctokitGateway({ installation: () => authenticate(installationId), app, installationId, identity });
}
