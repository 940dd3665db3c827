/**
 * The environment of a sandboxed command (pure). It starts from what a CI runner gives a job — `CI=true`, no
 * terminal, a UTF-8 locale — and nothing of patchsmith's own: no key, no token, no setting. Colour is left to the
 * tools, as on a CI runner (NO_COLOR or TERM=dumb would change what some test suites check).
 *
 * Without network (tests always; set-up when the operator turns it off) the package managers are told so, so that
 * `npx` or `cargo` fail at once instead of retrying a registry they cannot reach.
 */
import { DEFAULT_ENV_ALLOW_LIST, scrubEnv } from "../../core/redact.js";
import { RESERVED_NAMES } from "../../ports/sandbox-runner.js";
import { FORWARDER_PORT } from "./egress-proxy.js";

export type NetworkMode = "proxy" | "host" | "none";

export interface SandboxEnvInput {
  readonly host: Readonly<Record<string, string | undefined>>;
  /** Toolchain variables that stay meaningful inside (host-view.ts). */
  readonly toolchainEnv: Readonly<Record<string, string>>;
  /** Where the host's pip and npm get packages from (host-view.ts); the network mode and the request's env come after. */
  readonly packageSettings?: Readonly<Record<string, string>>;
  /** PATH, in order: the shims, the request's folders, then the host's visible entries. */
  readonly path: readonly string[];
  readonly home: string;
  readonly gitConfig: string | undefined;
  readonly network: NetworkMode;
  readonly cacheEnv: Readonly<Record<string, string>>;
  /** With the proxy: the switches that skip downloads the allow-list would refuse (download-skips.ts). */
  readonly downloadSkips?: Readonly<Record<string, string>>;
  readonly extra: Readonly<Record<string, string>>;
}

/** The variables that tell package managers there is no network. */
export const OFFLINE_ENV: Readonly<Record<string, string>> = {
  npm_config_offline: "true",
  YARN_ENABLE_OFFLINE_MODE: "1",
  CARGO_NET_OFFLINE: "true",
  GOPROXY: "off",
  PIP_NO_INDEX: "1",
  COREPACK_ENABLE_NETWORK: "0",
};

function proxyEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${String(FORWARDER_PORT)}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NO_PROXY: "",
    no_proxy: "",
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    // Yarn Berry reads no HTTP(S)_PROXY, only its own settings.
    YARN_HTTP_PROXY: url,
    YARN_HTTPS_PROXY: url,
    // Node's own fetch and http read the variables above only when told to (core/node-env-proxy.ts; older
    // versions ignore it): pnpm 11 and later downloads its native binary with fetch, which otherwise finds no way out.
    NODE_USE_ENV_PROXY: "1",
  };
}

export function sandboxEnv(input: SandboxEnvInput): Record<string, string> {
  const base = scrubEnv(
    input.host,
    DEFAULT_ENV_ALLOW_LIST.filter((name) => !["PATH", "VIRTUAL_ENV"].includes(name)),
  );
  const env: Record<string, string> = {
    ...base,
    ...input.toolchainEnv,
    ...input.packageSettings,
    LANG: input.host.LANG ?? "C.UTF-8",
    CI: "true",
    HOME: input.home,
    USER: "sandbox",
    LOGNAME: "sandbox",
    TMPDIR: "/tmp",
    PATH: input.path.join(":"),
    // Package managers' own chatter and checks that need the network or a person.
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    COREPACK_ENABLE_DOWNLOAD_PROMPT: "0",
    ...input.cacheEnv,
  };
  if (input.gitConfig !== undefined) env.GIT_CONFIG_GLOBAL = input.gitConfig;
  if (input.network === "proxy") Object.assign(env, proxyEnv(), input.downloadSkips);
  if (input.network === "none") Object.assign(env, OFFLINE_ENV);
  for (const [name, value] of Object.entries(input.extra)) {
    if (!RESERVED_NAMES.has(name) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) env[name] = value;
  }
  return env;
}
