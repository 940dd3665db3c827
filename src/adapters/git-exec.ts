/**
 * One way to run git for the sandbox: simple-git with per-command hardening, the token as a per-command header,
 * a controlled environment, and errors that never carry a secret.
 */
import { simpleGit, type SimpleGit, type SimpleGitOptions } from "simple-git";
import { redactSecrets } from "../core/redact.js";

export interface GitExecOptions {
  readonly gitBinary?: string;
  /** Token for HTTP remotes; sent as `http.extraHeader` through the environment, never in argv or `.git/config`. */
  readonly token?: string;
  /**
   * The URL prefix the token is for (`https://github.com/`): the header goes to remotes under it only, so that a
   * submodule on another host never sees it. Without it, every HTTP remote gets the header.
   */
  readonly tokenScope?: string;
  /** Extra `GIT_*` variables for this command (author/committer identity). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Failure of a git command; the message is redacted. */
export class GitCommandError extends Error {
  constructor(
    message: string,
    readonly command: string,
  ) {
    super(message);
    this.name = "GitCommandError";
  }
}

/** Ambient `GIT_*` variables simple-git would drop that a proxy/CA setup needs for HTTPS remotes. */
const PASS_THROUGH_GIT_ENV = ["GIT_SSL_CAINFO", "GIT_SSL_CAPATH", "GIT_HTTP_PROXY_AUTHMETHOD"];

const IDENTITY_ENV = ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"];

/** `Authorization: Basic base64(x-access-token:TOKEN)`, the header GitHub accepts for installation tokens. */
export function authHeaderValue(token: string): string {
  return `Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;
}

/** Every form of the token that could show up in output: the raw value and the encoded header. */
export function secretsOf(token: string | undefined): string[] {
  if (token === undefined || token === "") return [];
  return [token, Buffer.from(`x-access-token:${token}`).toString("base64")];
}

/**
 * What git needs from our environment: where things are, proxies and CAs for HTTPS, the SSH agent for ssh URLs.
 * An allow-list, because simple-git refuses (rightly) variables such as EDITOR, PAGER or GIT_* it was not told about.
 */
const PASS_THROUGH_ENV = [
  "PATH",
  "HOME",
  "USER",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  "XDG_CONFIG_HOME",
  "SSH_AUTH_SOCK",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "CURL_CA_BUNDLE",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "all_proxy",
];

function buildEnv(extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...PASS_THROUGH_ENV, ...PASS_THROUGH_GIT_ENV]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  // Never wait for a password on a terminal: a missing or wrong token must fail, not hang a worker.
  env.GIT_TERMINAL_PROMPT = "0";
  return { ...env, ...extra };
}

/**
 * The token travels as `GIT_CONFIG_*` environment variables (git >= 2.31), never as a `-c` argument: command lines are
 * readable by every process on the host (`ps`, /proc/PID/cmdline), a child's environment only by its own user.
 */
const TOKEN_ENV = ["GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0"];

const tokenEnv = (token: string, scope: string | undefined): Record<string, string> => ({
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: scope === undefined ? "http.extraHeader" : `http.${scope}.extraHeader`,
  GIT_CONFIG_VALUE_0: `Authorization: ${authHeaderValue(token)}`,
});

function createGit(dir: string, options: GitExecOptions, errors?: SimpleGitOptions["errors"]): SimpleGit {
  const config = [
    // A test run may have planted hooks or an fsmonitor in the clone; none of our commands may run them.
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "commit.gpgSign=false",
    // A stalled remote must not hold a worker forever: under 1 KB/s for a minute aborts the transfer.
    "http.lowSpeedLimit=1000",
    "http.lowSpeedTime=60",
    // Under a root service the working tree belongs to the sandbox user (`.git` stays ours): our own clone.
    `safe.directory=${dir}`,
  ];
  const git = simpleGit({
    baseDir: dir,
    binary: options.gitBinary ?? "git",
    maxConcurrentProcesses: 1,
    config,
    // GIT_CONFIG_COUNT carries the token header (see tokenEnv); simple-git asks for consent to let it through.
    // protocol.*.allow: we only ever set them to "never" (submodules: no local paths, no ext::).
    unsafe: {
      allowUnsafeHooksPath: true,
      allowUnsafeFsMonitor: true,
      allowUnsafeConfigEnvCount: true,
      allowUnsafeProtocolOverride: true,
    },
    allowEnvironment: [...PASS_THROUGH_GIT_ENV, ...IDENTITY_ENV, ...TOKEN_ENV, "GIT_TERMINAL_PROMPT", "GIT_INDEX_FILE"],
    ...(errors === undefined ? {} : { errors }),
  });
  return git.env(buildEnv(options.env));
}

/** Non-zero exit is an error even when git printed nothing on stderr (simple-git would call that success). */
const strictErrors: SimpleGitOptions["errors"] = (error, result) => {
  if (error !== undefined || result.exitCode === 0) return error;
  const stderr = Buffer.concat(result.stdErr).toString("utf8").trim();
  return Buffer.from(stderr === "" ? `git exited with code ${result.exitCode}` : stderr);
};

/** `git grep` exits 1 with nothing on stderr when there is no match: that is an empty answer, not a failure. */
const grepErrors: SimpleGitOptions["errors"] = (error, result) => {
  if (result.exitCode === 1 && Buffer.concat(result.stdErr).length === 0) return undefined;
  return strictErrors(error, result);
};

const MAX_COMMAND_TEXT = 300;

export interface GitRunner {
  /** Runs `git ARGS` in the folder; resolves stdout, rejects with a redacted GitCommandError. */
  run(args: readonly string[], env?: Readonly<Record<string, string>>): Promise<string>;
  /** Like run, but exit code 1 with an empty stderr resolves "" (grep's "no match"). */
  runGrep(args: readonly string[]): Promise<string>;
}

export function createGitRunner(dir: string, options: GitExecOptions): GitRunner {
  const secrets = secretsOf(options.token);
  const exec = async (git: SimpleGit, args: readonly string[]): Promise<string> => {
    try {
      return await git.raw([...args]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Commit messages travel as arguments: keep the command short enough to read in a log line.
      const command = redactSecrets(`git ${args.join(" ")}`, secrets).slice(0, MAX_COMMAND_TEXT);
      throw new GitCommandError(redactSecrets(`${command}: ${message.trim()}`, secrets), command);
    }
  };
  // Every command of a clone made with a token gets it (a blobless clone fetches missing blobs lazily, from any
  // command), but through the environment, never on the command line.
  const withToken: GitExecOptions =
    options.token !== undefined && options.token !== ""
      ? { ...options, env: { ...options.env, ...tokenEnv(options.token, options.tokenScope) } }
      : options;
  const plain = createGit(dir, withToken, strictErrors);
  const grep = createGit(dir, withToken, grepErrors);
  return {
    run: (args, env) =>
      exec(
        env === undefined ? plain : createGit(dir, { ...withToken, env: { ...withToken.env, ...env } }, strictErrors),
        args,
      ),
    runGrep: (args) => exec(grep, args),
  };
}

/** Revisions come from our own code, but a value starting with "-" would be read as an option: refuse it. */
export function assertRev(rev: string): string {
  if (rev === "" || rev.startsWith("-") || /[\s\0]/.test(rev)) {
    throw new GitCommandError(`not a usable revision: ${JSON.stringify(rev)}`, "validate");
  }
  return rev;
}
