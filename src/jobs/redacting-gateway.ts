/**
 * Wraps a gateway so every text patchsmith publishes (comments, replies, pull request bodies, check runs) passes
 * through the redactor: no code path can post a token, however the text was built.
 */
import { redactSecrets } from "../core/redact.js";
import type { CheckOutput, GitHubGateway } from "../ports/github-gateway.js";
import type { Logger } from "../ports/logger.js";

export function withRedaction(gateway: GitHubGateway, secrets: () => readonly string[]): GitHubGateway {
  const clean = (text: string): string => redactSecrets(text, secrets());
  const cleanOutput = (output: CheckOutput): CheckOutput => ({
    title: clean(output.title),
    summary: clean(output.summary),
    ...(output.text === undefined ? {} : { text: clean(output.text) }),
  });
  return {
    getPermission: (repo, login) => gateway.getPermission(repo, login),
    getRepo: (repo) => gateway.getRepo(repo),
    getConfigLayers: (repo, path, ref) => gateway.getConfigLayers(repo, path, ref),
    getBranchSha: (repo, branch) => gateway.getBranchSha(repo, branch),
    getIssue: (repo, number) => gateway.getIssue(repo, number),
    getPull: (repo, number) => gateway.getPull(repo, number),
    findOpenPull: (repo, branch) => gateway.findOpenPull(repo, branch),
    createPull: (repo, pull) => gateway.createPull(repo, { ...pull, title: clean(pull.title), body: clean(pull.body) }),
    addReaction: (repo, target, content) => gateway.addReaction(repo, target, content),
    createComment: (repo, issue, body) => gateway.createComment(repo, issue, clean(body)),
    findComment: (repo, issue, marker, since) => gateway.findComment(repo, issue, marker, since),
    updateComment: (repo, id, body) => gateway.updateComment(repo, id, clean(body)),
    replyToReviewComment: (repo, pull, id, body) => gateway.replyToReviewComment(repo, pull, id, clean(body)),
    createCheckRun: (repo, run) => gateway.createCheckRun(repo, { ...run, output: cleanOutput(run.output) }),
    listCheckRuns: (repo, query) => gateway.listCheckRuns(repo, query),
    updateCheckRun: (repo, id, update) =>
      gateway.updateCheckRun(repo, id, { ...update, output: cleanOutput(update.output) }),
    createRepoToken: (repo) => gateway.createRepoToken(repo),
    revokeRepoToken: (token) => gateway.revokeRepoToken(token),
    getAppIdentity: () => gateway.getAppIdentity(),
  };
}

/** Redacts the job's own secrets (its tokens) from log fields too; the logger adapter knows only the static ones. */
export function withRedactedLogs(logger: Logger, secrets: () => readonly string[]): Logger {
  const clean = (value: unknown): unknown => {
    if (typeof value === "string") return redactSecrets(value, secrets());
    if (value instanceof Error) return redactSecrets(value.message, secrets());
    if (Array.isArray(value)) return value.map(clean);
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, clean(item)]));
    }
    return value;
  };
  const wrap =
    (write: Logger["info"]): Logger["info"] =>
    (message, fields) => {
      write(
        redactSecrets(message, secrets()),
        fields === undefined ? undefined : (clean(fields) as Record<string, unknown>),
      );
    };
  return {
    debug: wrap(logger.debug.bind(logger)),
    info: wrap(logger.info.bind(logger)),
    warn: wrap(logger.warn.bind(logger)),
    error: wrap(logger.error.bind(logger)),
  };
}
