/** An in-memory GitHub gateway for unit tests: state you can set, and every call recorded in order. */
import { parse as parseYaml } from "yaml";
import type {
  AppIdentity,
  CheckConclusion,
  CheckOutput,
  GitHubGateway,
  Permission,
  PullInfo,
  RepoInfo,
} from "../../../src/ports/github-gateway.js";

export interface Call {
  readonly method: keyof GitHubGateway;
  readonly args: readonly unknown[];
}

export interface FakeCheck {
  headSha: string;
  name?: string;
  externalId?: string;
  status?: "in_progress" | "completed";
  output: CheckOutput;
  conclusion?: CheckConclusion;
}

export interface FakeState {
  permissions: Record<string, Permission>;
  repo: RepoInfo;
  files: Record<string, string>;
  branches: Record<string, string>;
  pulls: Record<number, PullInfo>;
  issues: Record<number, { title: string; body: string }>;
  openPulls: Record<string, { number: number; htmlUrl: string }>;
  comments: Map<number, string>;
  checks: Map<number, FakeCheck>;
  app: AppIdentity;
  token: string;
  /** Tokens revoked through `revokeRepoToken`, in order. */
  revoked: string[];
  /** Methods that reject (recorded first) with the given error, e.g. an Octokit-like `{ status: 404 }` error. */
  failures: Partial<Record<keyof GitHubGateway, Error>>;
}

/** An error shaped like Octokit's RequestError. */
export function httpError(status: number, message = "Not Found"): Error & { status: number } {
  return Object.assign(new Error(message), { name: "HttpError", status });
}

export function samplePull(overrides: Partial<PullInfo> = {}): PullInfo {
  return {
    number: 34,
    state: "open",
    merged: false,
    title: "Add CSV export",
    body: "Adds CSV export.",
    htmlUrl: "https://github.com/acme/widgets/pull/34",
    headRef: "csv-export",
    headSha: "a".repeat(40),
    headRepoFullName: "acme/widgets",
    headCloneUrl: "https://github.com/acme/widgets.git",
    baseRef: "main",
    maintainerCanModify: false,
    ...overrides,
  };
}

export function createFakeGateway(initial: Partial<FakeState> = {}): {
  gateway: GitHubGateway;
  state: FakeState;
  calls: Call[];
  methods: () => string[];
} {
  const state: FakeState = {
    permissions: { "maintainer-mia": "write" },
    repo: {
      defaultBranch: "main",
      cloneUrl: "https://github.com/acme/widgets.git",
      htmlUrl: "https://github.com/acme/widgets",
      private: true,
    },
    files: {},
    branches: { main: "b".repeat(40) },
    pulls: { 34: samplePull() },
    issues: { 12: { title: "Parser drops the last line", body: "When the input has no trailing newline…" } },
    openPulls: {},
    comments: new Map(),
    checks: new Map(),
    app: { slug: "patchsmith", botLogin: "patchsmith[bot]", botUserId: 41 },
    token: "ghs_FAKEinstallationTOKEN0123456789abcdef",
    revoked: [],
    failures: {},
    ...initial,
  };
  const calls: Call[] = [];
  let nextId = 9000;
  const record = (method: keyof GitHubGateway, ...args: unknown[]): void => {
    calls.push({ method, args });
  };

  const real: GitHubGateway = {
    getPermission(repo, login) {
      record("getPermission", repo, login);
      return Promise.resolve(state.permissions[login] ?? "none");
    },
    getRepo(repo) {
      record("getRepo", repo);
      return Promise.resolve(state.repo);
    },
    getConfigLayers(repo, path, ref) {
      record("getConfigLayers", repo, path, ref);
      // As probot's config plugin: the file parsed (an error for invalid YAML), and the organisation's as a layer
      // (`org:<path>` in the files).
      const layer = (key: string, source: string) => {
        const text = state.files[key];
        if (text === undefined) return [];
        try {
          return [{ source, data: (parseYaml(text) as unknown) ?? {} }];
        } catch {
          throw new Error(
            `[@probot/octokit-plugin-config] Configuration could not be parsed from ${source} (invalid YAML)`,
          );
        }
      };
      const own = layer(`${ref}:${path}`, `${repo.owner}/${repo.name}:${path}`);
      const org = layer(`org:${path}`, `${repo.owner}/.github:${path}`);
      return Promise.resolve({ repo: own, org });
    },
    getBranchSha(repo, branch) {
      record("getBranchSha", repo, branch);
      return Promise.resolve(state.branches[branch]);
    },
    getIssue(repo, number) {
      record("getIssue", repo, number);
      const issue = state.issues[number] ?? { title: "untitled", body: "" };
      return Promise.resolve({
        number,
        ...issue,
        htmlUrl: `${state.repo.htmlUrl}/issues/${number}`,
        isPullRequest: false,
      });
    },
    getPull(repo, number) {
      record("getPull", repo, number);
      const pull = state.pulls[number];
      return pull === undefined ? Promise.reject(new Error(`no pull ${number}`)) : Promise.resolve(pull);
    },
    findOpenPull(repo, branch) {
      record("findOpenPull", repo, branch);
      return Promise.resolve(state.openPulls[branch]);
    },
    createPull(repo, pull) {
      record("createPull", repo, pull);
      const created = { number: 100, htmlUrl: `${state.repo.htmlUrl}/pull/100` };
      state.openPulls[pull.head] = created;
      return Promise.resolve(created);
    },
    addReaction(repo, target, content) {
      record("addReaction", repo, target, content);
      return Promise.resolve();
    },
    createComment(repo, issueNumber, body) {
      record("createComment", repo, issueNumber, body);
      const id = nextId++;
      state.comments.set(id, body);
      return Promise.resolve({ id, htmlUrl: `${state.repo.htmlUrl}/issues/${issueNumber}#issuecomment-${id}` });
    },
    findComment(repo, issueNumber, marker) {
      record("findComment", repo, issueNumber, marker);
      for (const [id, body] of state.comments) {
        if (body.includes(marker)) {
          return Promise.resolve({ id, htmlUrl: `${state.repo.htmlUrl}/issues/${issueNumber}#issuecomment-${id}` });
        }
      }
      return Promise.resolve(undefined);
    },
    updateComment(repo, commentId, body) {
      record("updateComment", repo, commentId, body);
      state.comments.set(commentId, body);
      return Promise.resolve();
    },
    replyToReviewComment(repo, pullNumber, commentId, body) {
      record("replyToReviewComment", repo, pullNumber, commentId, body);
      const id = nextId++;
      state.comments.set(id, body);
      return Promise.resolve({ id, htmlUrl: `${state.repo.htmlUrl}/pull/${pullNumber}#discussion_r${id}` });
    },
    createCheckRun(repo, run) {
      record("createCheckRun", repo, run);
      const id = nextId++;
      state.checks.set(id, {
        headSha: run.headSha,
        name: run.name,
        status: "in_progress",
        output: run.output,
        ...(run.externalId === undefined ? {} : { externalId: run.externalId }),
      });
      return Promise.resolve(id);
    },
    listCheckRuns(repo, query) {
      record("listCheckRuns", repo, query);
      const runs = [...state.checks.entries()]
        .filter(([, check]) => check.headSha === query.headSha && check.name === query.name)
        .map(([id, check]) => ({ id, externalId: check.externalId ?? null, status: check.status ?? "in_progress" }));
      return Promise.resolve(runs);
    },
    updateCheckRun(repo, id, update) {
      record("updateCheckRun", repo, id, update);
      const check = state.checks.get(id);
      if (check !== undefined) {
        const { conclusion: _previous, ...rest } = check;
        state.checks.set(id, {
          ...rest,
          output: update.output,
          ...(update.conclusion === undefined
            ? { status: "in_progress" as const }
            : { status: "completed" as const, conclusion: update.conclusion }),
        });
      }
      return Promise.resolve();
    },
    createRepoToken(repo) {
      record("createRepoToken", repo);
      return Promise.resolve(state.token);
    },
    revokeRepoToken(token) {
      record("revokeRepoToken", token);
      state.revoked.push(token);
      return Promise.resolve();
    },
    getAppIdentity() {
      record("getAppIdentity");
      return Promise.resolve(state.app);
    },
  };
  const gateway = Object.fromEntries(
    Object.entries(real).map(([name, method]) => [
      name,
      (...args: unknown[]): Promise<unknown> => {
        const failure = state.failures[name as keyof GitHubGateway];
        if (failure === undefined) return (method as (...a: unknown[]) => Promise<unknown>)(...args);
        record(name as keyof GitHubGateway, ...args);
        return Promise.reject(failure);
      },
    ]),
  ) as unknown as GitHubGateway;
  return { gateway, state, calls, methods: () => calls.map((c) => c.method) };
}
