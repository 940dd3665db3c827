/**
 * GitHub as the Action sees it: @octokit/rest with the retry and throttling plugins (and probot's config plugin, so
 * `.github/patchsmith.yml` is read the same way as by the App), authenticated by the workflow's token, on the
 * runner's API URL (GitHub Enterprise Server included). The gateway is the App's (adapters/octokit-gateway.ts) with
 * what a workflow token differs in: it is the git token itself (nothing to mint or revoke), its bot is
 * github-actions[bot], and it can never push to a fork.
 */
import { config } from "@probot/octokit-plugin-config";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit as RestOctokit } from "@octokit/rest";
import { createOctokitGateway, type Octokit } from "../adapters/octokit-gateway.js";
import type { Logger } from "../ports/logger.js";
import type { AppIdentity, GitHubGateway } from "../ports/github-gateway.js";

/** The account GITHUB_TOKEN acts as (its user id is the same on every GitHub). */
export const ACTIONS_BOT: AppIdentity = {
  slug: "github-actions",
  botLogin: "github-actions[bot]",
  botUserId: 41898282,
};

const ActionOctokit = RestOctokit.plugin(retry, throttling, config);

export function createActionOctokit(token: string, apiUrl: string, logger: Logger): Octokit {
  const octokit = new ActionOctokit({
    auth: token,
    baseUrl: apiUrl,
    userAgent: "patchsmith-action",
    throttle: {
      // GitHub's advice: wait as told once, then give up rather than hammer a limit.
      onRateLimit: (
        retryAfter: number,
        options: { method: string; url: string },
        _octokit: unknown,
        retryCount: number,
      ) => {
        logger.warn("GitHub rate limit hit", { request: `${options.method} ${options.url}`, retryAfter });
        return retryCount < 1;
      },
      onSecondaryRateLimit: (retryAfter: number, options: { method: string; url: string }) => {
        logger.warn("GitHub secondary rate limit hit", { request: `${options.method} ${options.url}`, retryAfter });
        return false;
      },
    },
  });
  // The gateway is written against probot's Octokit, which is this same client with the same plugins.
  return octokit;
}

export function createActionGateway(octokit: Octokit, token: string): GitHubGateway {
  const base = createOctokitGateway({
    installation: () => Promise.resolve(octokit),
    app: () => Promise.resolve(octokit),
    tokenClient: () => octokit,
    installationId: 0,
    identity: () => Promise.resolve(ACTIONS_BOT),
  });
  return {
    ...base,
    // A workflow token cannot push to another repository, whatever the pull request allows.
    async getPull(repo, number) {
      const pull = await base.getPull(repo, number);
      const fork = pull.headRepoFullName?.toLowerCase() !== `${repo.owner}/${repo.name}`.toLowerCase();
      return fork ? { ...pull, maintainerCanModify: false } : pull;
    },
    createRepoToken: () => Promise.resolve(token),
    revokeRepoToken: () => Promise.resolve(),
  };
}
