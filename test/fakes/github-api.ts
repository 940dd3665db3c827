/**
 * A fake GitHub (Enterprise Server layout) on 127.0.0.1 for e2e tests: the REST endpoints the app uses under
 * /api/v3, with every call recorded in order, and real git repositories over smart HTTP under /git. App JWTs are
 * verified with the app's public key, and installation tokens are checked on every API and git request.
 */
import { execFileSync } from "node:child_process";
import { createHmac, createPublicKey, verify } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serveGit } from "./git-http-server.js";

export interface RecordedCall {
  readonly method: string;
  /** Path below /api/v3, without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: Record<string, unknown>;
  /** The installation token the call was made with (`Authorization: token …`), if any. */
  readonly token: string | undefined;
  /** The Accept header (`application/vnd.github.raw` asks for a file's bytes). */
  readonly accept: string;
}

/** A handler's answer sent as the file's own bytes (the contents API's raw media type), not as JSON. */
export class RawText {
  constructor(readonly text: string) {}
}

/** One attempt to deliver a webhook to the app. */
export interface FakeDelivery {
  readonly id: number;
  readonly guid: string;
  readonly event: string;
  readonly payload: unknown;
  readonly statusCode: number;
  readonly redelivery: boolean;
  readonly deliveredAt: string;
}

/** Makes the fake answer some calls with an error, as a GitHub without those endpoints (or having a bad day) would. */
export interface Refusal {
  /** Tested against "METHOD path", e.g. /^POST .*\/check-runs$/. */
  readonly pattern: RegExp;
  readonly status: number;
}

export interface FakeRepo {
  readonly owner: string;
  readonly name: string;
  readonly defaultBranch: string;
}

export interface FakePull {
  readonly number: number;
  title: string;
  body: string;
  readonly headRef: string;
  /** `owner/name` of the head repository (a fork when it differs from the base). */
  readonly headRepo: string;
  readonly baseRef: string;
  readonly maintainerCanModify: boolean;
  state: "open" | "closed";
}

export interface FakeGitHubOptions {
  /** Folder with bare repositories `<owner>/<name>.git`. */
  readonly projectRoot: string;
  /** The app's private key (PEM): JWTs must verify against it. */
  readonly privateKey: string;
  readonly appSlug?: string;
}

type Json = Record<string, unknown>;
type Handler = (match: RegExpExecArray, call: RecordedCall, auth: string) => readonly [number, unknown];

export class FakeGitHub {
  readonly calls: RecordedCall[] = [];
  readonly repos = new Map<string, FakeRepo>();
  readonly permissions = new Map<string, string>();
  readonly issues = new Map<string, { title: string; body: string }>();
  readonly pulls = new Map<string, FakePull>();
  readonly comments = new Map<number, { repo: string; issue: number; body: string }>();
  /** Check runs by id: the fields they were created and updated with (`head_sha`, `name`, `status`, `external_id` …). */
  readonly checkRuns = new Map<number, Json>();
  /** The repository (`owner/name`) of each check run. */
  private readonly checkRunRepos = new Map<number, string>();
  /** Installation tokens issued, with the repositories they are scoped to (undefined: all). */
  readonly tokens = new Map<string, readonly string[] | undefined>();
  /** Tokens revoked with DELETE /installation/token: refused by the API and by git from then on. */
  readonly revoked = new Set<string>();
  /** Calls answered with an error status instead of their route (checked before authentication). */
  refusals: Refusal[] = [];
  /** The app's webhook delivery attempts, oldest first (GitHub lists them newest first). */
  readonly deliveries: FakeDelivery[] = [];
  /** Where a requested redelivery is sent, signed with the secret (undefined: redelivery attempts fail). */
  webhookTarget: { readonly url: string; readonly secret: string } | undefined;
  /** Called for each API call before it is answered (to make the world change at a precise moment). */
  onCall: (call: RecordedCall) => void = () => undefined;
  /** Holds a call's answer until the promise settles (to show that something does not wait for it). */
  hold: (call: RecordedCall) => Promise<void> | undefined = () => undefined;
  url = "";
  private server: Server | undefined;
  private nextId = 5000;
  private readonly routes: [string, RegExp, Handler][];

  constructor(private readonly options: FakeGitHubOptions) {
    this.routes = this.buildRoutes();
  }

  /** Records an attempt to deliver a webhook, as GitHub would after sending it (`statusCode` 0: no answer). */
  recordDelivery(guid: string, event: string, payload: unknown, statusCode: number, redelivery = false): FakeDelivery {
    const delivery: FakeDelivery = {
      id: this.nextId++,
      guid,
      event,
      payload,
      statusCode,
      redelivery,
      deliveredAt: new Date().toISOString(),
    };
    this.deliveries.push(delivery);
    return delivery;
  }

  /** Sends a delivery again to the webhook target and records the attempt. */
  private async redeliver(original: FakeDelivery): Promise<void> {
    const target = this.webhookTarget;
    let status = 0;
    if (target !== undefined) {
      const body = JSON.stringify(original.payload);
      try {
        const response = await fetch(target.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-github-event": original.event,
            "x-github-delivery": original.guid,
            "x-hub-signature-256": `sha256=${createHmac("sha256", target.secret).update(body).digest("hex")}`,
          },
          body,
        });
        await response.text();
        status = response.status;
      } catch {
        status = 0;
      }
    }
    this.recordDelivery(original.guid, original.event, original.payload, status, true);
  }

  addRepo(repo: FakeRepo): void {
    this.repos.set(`${repo.owner}/${repo.name}`, repo);
  }

  gitDir(fullName: string): string {
    return `${this.options.projectRoot}/${fullName}.git`;
  }

  /** The SHA of a branch in the fake's bare repository, or undefined. */
  branchSha(fullName: string, branch: string): string | undefined {
    try {
      return execFileSync("git", ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], {
        cwd: this.gitDir(fullName),
        encoding: "utf8",
      }).trim();
    } catch {
      return undefined;
    }
  }

  /** The check runs of one repository (`owner/name`), oldest first, each with its id. */
  checkRunsOf(fullName: string): Json[] {
    return [...this.checkRuns.entries()]
      .filter(([id]) => this.checkRunRepos.get(id) === fullName)
      .map(([id, run]) => ({ id, ...run }));
  }

  /** Calls whose "METHOD path" matches, in order. */
  find(pattern: RegExp): RecordedCall[] {
    return this.calls.filter((c) => pattern.test(`${c.method} ${c.path}`));
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      void this.handle(request, response);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.server === undefined) {
        resolve();
        return;
      }
      this.server.closeAllConnections();
      this.server.close(() => {
        resolve();
      });
    });
  }

  private repoJson(full: string): Json {
    const repo = this.repos.get(full)!;
    return {
      name: repo.name,
      full_name: full,
      owner: { login: repo.owner, type: "Organization" },
      private: true,
      default_branch: repo.defaultBranch,
      html_url: `${this.url}/${full}`,
      clone_url: `${this.url}/git/${full}.git`,
    };
  }

  private pullJson(full: string, pull: FakePull): Json {
    return {
      number: pull.number,
      state: pull.state,
      merged: false,
      title: pull.title,
      body: pull.body,
      html_url: `${this.url}/${full}/pull/${pull.number}`,
      maintainer_can_modify: pull.maintainerCanModify,
      head: { ref: pull.headRef, sha: this.branchSha(pull.headRepo, pull.headRef), repo: this.repoJson(pull.headRepo) },
      base: { ref: pull.baseRef, sha: this.branchSha(full, pull.baseRef), repo: this.repoJson(full) },
    };
  }

  private isInstallationToken(auth: string, repo: string): boolean {
    const token = /^token (\S+)$/i.exec(auth)?.[1];
    if (token === undefined || !this.tokens.has(token) || this.revoked.has(token)) return false;
    const scope = this.tokens.get(token);
    return scope === undefined || scope.includes(repo.split("/")[1] ?? "");
  }

  private isAppJwt(auth: string): boolean {
    const jwt = /^bearer (\S+)$/i.exec(auth)?.[1];
    const [header, payload, signature] = jwt?.split(".") ?? [];
    if (header === undefined || payload === undefined || signature === undefined) return false;
    const key = createPublicKey(this.options.privateKey);
    return verify("RSA-SHA256", Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, "base64url"));
  }

  private issueToken(scope: readonly string[] | undefined): Json {
    const token = `ghs_fake${String(this.nextId++)}${"x".repeat(28)}`;
    this.tokens.set(token, scope);
    return { token, expires_at: new Date(Date.now() + 3_600_000).toISOString(), permissions: {} };
  }

  private buildRoutes(): [string, RegExp, Handler][] {
    const repoPath = "/repos/([^/]+)/([^/]+)";
    const full = (m: RegExpExecArray): string => `${m[1]!}/${m[2]!}`;
    const created = (id: number, body: Json): readonly [number, unknown] => [201, { id, ...body }];
    return [
      [
        "POST",
        /^\/app\/installations\/(\d+)\/access_tokens$/,
        (_m, call) => {
          const repositories = call.body.repositories as string[] | undefined;
          return [201, this.issueToken(repositories)];
        },
      ],
      [
        "DELETE",
        /^\/installation\/token$/,
        (_m, call) => {
          if (call.token === undefined || !this.tokens.has(call.token) || this.revoked.has(call.token)) {
            return [401, { message: "Bad credentials" }];
          }
          this.revoked.add(call.token);
          return [204, undefined];
        },
      ],
      [
        "GET",
        /^\/app\/hook\/deliveries$/,
        () => [
          200,
          [...this.deliveries].reverse().map((d) => ({
            id: d.id,
            guid: d.guid,
            delivered_at: d.deliveredAt,
            redelivery: d.redelivery,
            duration: 0.1,
            status: d.statusCode >= 200 && d.statusCode < 300 ? "OK" : "Invalid HTTP Response",
            status_code: d.statusCode,
            event: d.event,
            action: "created",
            installation_id: 42,
            repository_id: 1,
          })),
        ],
      ],
      [
        "POST",
        /^\/app\/hook\/deliveries\/(\d+)\/attempts$/,
        (m) => {
          const original = this.deliveries.find((d) => d.id === Number(m[1]));
          if (original === undefined) return [404, { message: "Not Found" }];
          void this.redeliver(original);
          return [202, {}];
        },
      ],
      ["GET", /^\/app$/, () => [200, { id: 1, slug: this.options.appSlug ?? "patchsmith", name: "patchsmith" }]],
      ["GET", /^\/users\/([^/]+)$/, (m) => [200, { login: decodeURIComponent(m[1]!), id: 4100, type: "Bot" }]],
      ["GET", new RegExp(`^${repoPath}$`), (m) => [200, this.repoJson(full(m))]],
      [
        "GET",
        new RegExp(`^${repoPath}/collaborators/([^/]+)/permission$`),
        (m) => {
          const permission = this.permissions.get(`${full(m)}:${m[3]!}`) ?? "read";
          const legacy = permission === "maintain" ? "write" : permission === "triage" ? "read" : permission;
          return [200, { permission: legacy, role_name: permission, user: { login: m[3] } }];
        },
      ],
      [
        "GET",
        new RegExp(`^${repoPath}/contents/(.+)$`),
        (m, call) => {
          const repo = this.repos.get(full(m));
          if (repo === undefined) return [404, { message: "Not Found" }];
          const ref = call.query.get("ref") ?? repo.defaultBranch;
          const path = decodeURIComponent(m[3]!);
          try {
            const text = execFileSync("git", ["show", `${ref}:${path}`], {
              cwd: this.gitDir(full(m)),
              stdio: ["ignore", "pipe", "ignore"],
            });
            if (call.accept.includes("raw")) return [200, new RawText(text.toString("utf8"))];
            return [200, { type: "file", path, encoding: "base64", content: text.toString("base64") }];
          } catch {
            return [404, { message: "Not Found" }];
          }
        },
      ],
      [
        "GET",
        new RegExp(`^${repoPath}/branches/(.+)$`),
        (m) => {
          const name = decodeURIComponent(m[3]!);
          const sha = this.branchSha(full(m), name);
          return sha === undefined ? [404, { message: "Branch not found" }] : [200, { name, commit: { sha } }];
        },
      ],
      [
        "GET",
        new RegExp(`^${repoPath}/issues/(\\d+)$`),
        (m) => {
          const issue = this.issues.get(`${full(m)}#${m[3]!}`);
          if (issue === undefined) return [404, { message: "Not Found" }];
          return [200, { number: Number(m[3]), ...issue, html_url: `${this.url}/${full(m)}/issues/${m[3]!}` }];
        },
      ],
      [
        "GET",
        new RegExp(`^${repoPath}/pulls/(\\d+)$`),
        (m) => {
          const pull = this.pulls.get(`${full(m)}#${m[3]!}`);
          return pull === undefined ? [404, { message: "Not Found" }] : [200, this.pullJson(full(m), pull)];
        },
      ],
      [
        "GET",
        new RegExp(`^${repoPath}/pulls$`),
        (m, call) => {
          const head = call.query.get("head");
          const open = [...this.pulls.entries()]
            .filter(([key, p]) => key.startsWith(`${full(m)}#`) && p.state === "open")
            .filter(([, p]) => head === null || `${p.headRepo.split("/")[0]!}:${p.headRef}` === head)
            .map(([, p]) => this.pullJson(full(m), p));
          return [200, open];
        },
      ],
      [
        "POST",
        new RegExp(`^${repoPath}/pulls$`),
        (m, call) => {
          const number = this.nextId++;
          const pull: FakePull = {
            number,
            title: String(call.body.title),
            body: String(call.body.body),
            headRef: String(call.body.head),
            headRepo: full(m),
            baseRef: String(call.body.base),
            maintainerCanModify: true,
            state: "open",
          };
          this.pulls.set(`${full(m)}#${number}`, pull);
          return [201, this.pullJson(full(m), pull)];
        },
      ],
      [
        "POST",
        new RegExp(`^${repoPath}/(issues|pulls)/comments/(\\d+)/reactions$`),
        (_m, call) => created(this.nextId++, { content: call.body.content }),
      ],
      [
        "POST",
        new RegExp(`^${repoPath}/issues/(\\d+)/comments$`),
        (m, call) => {
          const id = this.nextId++;
          this.comments.set(id, { repo: full(m), issue: Number(m[3]), body: String(call.body.body) });
          return created(id, {
            html_url: `${this.url}/${full(m)}/issues/${m[3]!}#issuecomment-${id}`,
            body: call.body.body,
          });
        },
      ],
      [
        "GET",
        new RegExp(`^${repoPath}/issues/(\\d+)/comments$`),
        (m) => [
          200,
          [...this.comments.entries()]
            .filter(([, c]) => c.repo === full(m) && c.issue === Number(m[3]))
            .map(([id, c]) => ({
              id,
              body: c.body,
              html_url: `${this.url}/${full(m)}/issues/${m[3]!}#issuecomment-${String(id)}`,
            })),
        ],
      ],
      [
        "PATCH",
        new RegExp(`^${repoPath}/issues/comments/(\\d+)$`),
        (m, call) => {
          const comment = this.comments.get(Number(m[3]));
          if (comment === undefined) return [404, { message: "Not Found" }];
          comment.body = String(call.body.body);
          return [
            200,
            { id: Number(m[3]), body: comment.body, html_url: `${this.url}/${full(m)}#issuecomment-${m[3]!}` },
          ];
        },
      ],
      [
        "POST",
        new RegExp(`^${repoPath}/pulls/(\\d+)/comments/(\\d+)/replies$`),
        (m, call) => {
          const id = this.nextId++;
          this.comments.set(id, { repo: full(m), issue: Number(m[3]), body: String(call.body.body) });
          return created(id, {
            html_url: `${this.url}/${full(m)}/pull/${m[3]!}#discussion_r${id}`,
            body: call.body.body,
          });
        },
      ],
      [
        "POST",
        new RegExp(`^${repoPath}/check-runs$`),
        (m, call) => {
          const id = this.nextId++;
          this.checkRuns.set(id, { status: "queued", external_id: null, ...call.body });
          this.checkRunRepos.set(id, full(m));
          return created(id, { ...this.checkRuns.get(id) });
        },
      ],
      [
        "GET",
        new RegExp(`^${repoPath}/commits/([^/]+)/check-runs$`),
        (m, call) => {
          const ref = decodeURIComponent(m[3]!);
          const name = call.query.get("check_name");
          // A commit SHA only (the app never asks by branch name).
          const runs = this.checkRunsOf(full(m))
            .filter((run) => run.head_sha === ref && (name === null || run.name === name))
            .reverse();
          // GitHub's default `latest` keeps the most recent run of each name; `all` keeps every one.
          const latest = call.query.get("filter") !== "all";
          const seen = new Set<unknown>();
          const listed = runs.filter((run) => !latest || (!seen.has(run.name) && seen.add(run.name)));
          return [200, { total_count: listed.length, check_runs: listed }];
        },
      ],
      [
        "PATCH",
        new RegExp(`^${repoPath}/check-runs/(\\d+)$`),
        (m, call) => {
          const run = this.checkRuns.get(Number(m[3]));
          if (run === undefined) return [404, { message: "Not Found" }];
          Object.assign(run, call.body);
          return [200, { id: Number(m[3]), ...run }];
        },
      ],
    ];
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", this.url);
    if (url.pathname.startsWith("/git/")) {
      serveGit(
        {
          projectRoot: this.options.projectRoot,
          authorize: (authorization, repo) => {
            const basic = /^basic (\S+)$/i.exec(authorization ?? "")?.[1];
            const [user, token] = Buffer.from(basic ?? "", "base64")
              .toString("utf8")
              .split(":");
            const scope = token === undefined ? undefined : this.tokens.get(token);
            const allowed =
              user === "x-access-token" && token !== undefined && this.tokens.has(token) && !this.revoked.has(token);
            return allowed && (scope === undefined || scope.includes(repo.split("/")[1]!.replace(/\.git$/, "")))
              ? "x-access-token"
              : undefined;
          },
        },
        request,
        response,
        url.pathname.slice("/git".length),
      );
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const path = url.pathname.replace(/^\/api\/v3/, "");
    const auth = request.headers.authorization ?? "";
    const call: RecordedCall = {
      method: request.method ?? "GET",
      path,
      query: url.searchParams,
      body: raw === "" ? {} : (JSON.parse(raw) as Json),
      token: /^token (\S+)$/i.exec(auth)?.[1],
      accept: request.headers.accept ?? "",
    };
    this.calls.push(call);
    this.onCall(call);
    await this.hold(call);
    const send = (status: number, body: unknown): void => {
      if (status === 204) response.writeHead(204).end();
      else if (body instanceof RawText)
        response.writeHead(status, { "content-type": "application/vnd.github.raw; charset=utf-8" }).end(body.text);
      else response.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
    };
    const refusal = this.refusals.find((r) => r.pattern.test(`${call.method} ${path}`));
    if (refusal !== undefined) {
      send(refusal.status, {
        message: refusal.status === 404 ? "Not Found" : `refused by the test (${refusal.status})`,
      });
      return;
    }
    for (const [method, pattern, handler] of this.routes) {
      const match = method === call.method ? pattern.exec(path) : null;
      if (match === null) continue;
      const repo = /^\/repos\/([^/]+\/[^/]+)/.exec(path)?.[1];
      const authorized = path.startsWith("/app")
        ? this.isAppJwt(auth)
        : repo === undefined || this.isInstallationToken(auth, repo);
      if (!authorized) {
        send(401, { message: "Bad credentials" });
        return;
      }
      const [status, body] = handler(match, call, auth);
      send(status, body);
      return;
    }
    send(404, { message: `fake GitHub has no route for ${call.method} ${path}` });
  }
}
