/**
 * The GitHub gateway over Octokit (probot's ProbotOctokit: REST endpoints under `.rest`, GHE base URL honoured).
 * Installation calls use an installation-authenticated client; the repo-scoped git token and the app's identity
 * need the app (JWT) client.
 */
import type { ProbotOctokit } from "probot";
import { httpStatusOf, isTokenMintFailure } from "../github/api-error.js";
import { toPermission } from "../github/authorize.js";
import { createIdentityLoader, type IdentityLoader } from "./app-identity.js";
import type { ConfigLayers, GitHubGateway, GitHubGatewayFactory, PullInfo, RepoRef } from "../ports/github-gateway.js";

export type Octokit = InstanceType<typeof ProbotOctokit>;

export interface OctokitGatewayOptions {
  /** An installation-authenticated client (probot's `context.octokit`, or `app.auth(installationId)`). */
  readonly installation: () => Promise<Octokit>;
  /** The app-authenticated (JWT) client: `app.auth()`. */
  readonly app: () => Promise<Octokit>;
  /** A client authenticated with one installation token (to revoke it), on the same API base URL. */
  readonly tokenClient: (token: string) => Octokit;
  readonly installationId: number;
  /** Shared across gateways: the app's identity does not change while the process runs. */
  readonly identity: IdentityLoader;
}

async function orUndefinedOn404<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (error) {
    // A 404 from minting the installation token is a misconfigured app, not a missing thing.
    if (httpStatusOf(error) === 404 && !isTokenMintFailure(error)) return undefined;
    throw error;
  }
}

interface RepoJson {
  readonly full_name?: string | null;
  readonly name?: string | null;
  readonly owner?: { readonly login?: string | null } | null;
  readonly clone_url?: string | null;
}

/**
 * A pull request's head repository. GitHub sends `null` when the fork was deleted (the types say otherwise); a
 * payload without the field at all (a minimal API double) is taken as the base repository.
 */
function headRepoOf(
  head: { readonly repo?: RepoJson | null },
  base: RepoRef,
  baseCloneUrl: string | null,
): { fullName: string | null; cloneUrl: string | null } {
  if (head.repo === undefined) return { fullName: `${base.owner}/${base.name}`, cloneUrl: baseCloneUrl };
  if (head.repo === null) return { fullName: null, cloneUrl: null };
  const owner = head.repo.owner?.login;
  const fullName =
    head.repo.full_name ??
    (owner !== undefined && owner !== null && head.repo.name ? `${owner}/${head.repo.name}` : null);
  // GitHub's names are case-insensitive: "Acme/Widgets" and "acme/widgets" are one repository.
  const same = fullName !== null && fullName.toLowerCase() === `${base.owner}/${base.name}`.toLowerCase();
  return { fullName: same ? `${base.owner}/${base.name}` : fullName, cloneUrl: head.repo.clone_url ?? null };
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
      // Fallbacks for API doubles that leave fields out; GitHub always sends them.
      const loose = data as Partial<typeof data>;
      const htmlUrl = loose.html_url ?? "";
      return {
        defaultBranch: loose.default_branch ?? "main",
        cloneUrl: loose.clone_url ?? `${htmlUrl}.git`,
        htmlUrl,
        private: loose.private ?? true,
      };
    },
    async getConfigLayers(repo, path, ref) {
      const client = await octokit();
      const layersOf = (
        files: readonly { owner: string; repo: string; path: string; config: unknown }[],
      ): ConfigLayers["repo"] =>
        files
          .filter((file) => file.config !== null)
          .reverse()
          .map((file) => ({ source: `${file.owner}/${file.repo}:${file.path}`, data: file.config }));
      const own = await client.config.get({ ...ids(repo), path, branch: ref });
      // No file of its own: the plugin already fell back to the organisation's, which is then the only layer.
      if (own.files[0]?.config === null) return { repo: [], org: layersOf(own.files) };
      if (repo.name === ".github") return { repo: layersOf(own.files), org: [] };
      const org = await client.config.get({ owner: repo.owner, repo: ".github", path });
      return { repo: layersOf(own.files), org: layersOf(org.files) };
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
      const head = headRepoOf(data.head, repo, null);
      const loose = data as Partial<typeof data>;
      return {
        number: data.number,
        state: data.state === "open" ? "open" : "closed",
        merged: loose.merged ?? loose.merged_at != null,
        title: data.title,
        body: data.body ?? "",
        htmlUrl: data.html_url,
        headRef: data.head.ref,
        headSha: data.head.sha,
        headRepoFullName: head.fullName,
        headCloneUrl: head.cloneUrl,
        baseRef: data.base.ref,
        maintainerCanModify: loose.maintainer_can_modify ?? false,
      };
    },
    async findOpenPull(repo, branch) {
      const { data } = await (
        await octokit()
      ).rest.pulls.list({
        ...ids(repo),
        state: "open",
        head: `${repo.owner}:${branch}`,
        per_page: 10,
      });
      // Check the head ourselves: an API that ignores the `head` filter must not make us reuse someone's PR.
      const mine = data.find((pull) => {
        const head = pull.head as { ref: string; repo?: RepoJson | null };
        const full = headRepoOf(head, repo, null).fullName;
        return head.ref === branch && full === `${repo.owner}/${repo.name}`;
      });
      return mine === undefined ? undefined : { number: mine.number, htmlUrl: mine.html_url };
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
    async findComment(repo, issueNumber, marker, since) {
      const client = await octokit();
      const pages = client.paginate.iterator(client.rest.issues.listComments, {
        ...ids(repo),
        issue_number: issueNumber,
        since: new Date(since).toISOString(),
        per_page: 100,
      });
      for await (const page of pages) {
        const found = page.data.find((comment) => comment.body?.includes(marker) === true);
        if (found !== undefined) return { id: found.id, htmlUrl: found.html_url };
      }
      return undefined;
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
        ...(run.externalId === undefined ? {} : { external_id: run.externalId }),
      });
      return data.id;
    },
    async listCheckRuns(repo, query) {
      const { data } = await (
        await octokit()
      ).rest.checks.listForRef({
        ...ids(repo),
        ref: query.headSha,
        check_name: query.name,
        // The default, `latest`, hides a job's check run once a later job made one on the same commit.
        filter: "all",
        per_page: 100,
      });
      // `check_runs` is always there on GitHub; an API double may leave it out.
      const runs = (data as Partial<typeof data>).check_runs ?? [];
      return runs.map((run) => ({ id: run.id, externalId: run.external_id ?? null, status: run.status }));
    },
    async updateCheckRun(repo, id, update) {
      await (
        await octokit()
      ).rest.checks.update({
        ...ids(repo),
        check_run_id: id,
        output: update.output,
        ...(update.conclusion === undefined
          ? { status: "in_progress" as const }
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
    async revokeRepoToken(token) {
      await options.tokenClient(token).rest.apps.revokeInstallationAccessToken();
    },
    getAppIdentity: () => options.identity(octokit),
  };
}

/** Gateways for the worker: one per installation, authenticated lazily. */
export function createOctokitGatewayFactory(
  authenticate: (installationId?: number) => Promise<Octokit>,
  tokenClient: (token: string) => Octokit,
  identity: IdentityLoader = createIdentityLoader(() => authenticate()),
): GitHubGatewayFactory {
  const app = () => authenticate();
  return (installationId) =>
    createOctokitGateway({
      installation: () => authenticate(installationId),
      app,
      tokenClient,
      installationId,
      identity,
    });
}
