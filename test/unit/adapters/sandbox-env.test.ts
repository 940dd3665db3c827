import { describe, expect, it } from "vitest";
import { sandboxEnv, type NetworkMode } from "../../../src/adapters/sandbox/sandbox-env.js";

const envFor = (network: NetworkMode, downloadSkips: Record<string, string> = { PUPPETEER_SKIP_DOWNLOAD: "1" }) =>
  sandboxEnv({
    host: { PATH: "/usr/bin", OPENAI_API_KEY: "sk-x" },
    toolchainEnv: {},
    path: ["/usr/bin"],
    home: "/tmp/home",
    gitConfig: undefined,
    network,
    cacheEnv: {},
    downloadSkips,
    extra: {},
  });

describe("sandboxEnv", () => {
  it("points every package manager's own proxy setting at the egress forwarder when set-up has network", () => {
    const env = envFor("proxy");
    const proxy = env.HTTPS_PROXY;
    expect(proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // npm and Yarn Berry read their own settings, not (only) HTTPS_PROXY.
    for (const name of ["HTTP_PROXY", "https_proxy", "npm_config_https_proxy", "YARN_HTTP_PROXY", "YARN_HTTPS_PROXY"])
      expect(env[name], name).toBe(proxy);
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.PUPPETEER_SKIP_DOWNLOAD).toBe("1");
    // Node's own fetch reads them only when told to.
    expect(env.NODE_USE_ENV_PROXY).toBe("1");
  });

  it("sets no proxy without network, and tells the package managers they are offline", () => {
    const env = envFor("none");
    expect(Object.keys(env).filter((name) => /_proxy$/i.test(name))).toEqual([]);
    expect(env.NODE_USE_ENV_PROXY).toBeUndefined();
    expect(env.PUPPETEER_SKIP_DOWNLOAD).toBeUndefined();
    expect(env).toMatchObject({ npm_config_offline: "true", YARN_ENABLE_OFFLINE_MODE: "1", GOPROXY: "off" });
  });
});
