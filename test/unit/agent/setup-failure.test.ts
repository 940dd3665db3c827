import { describe, expect, it } from "vitest";
import { cacheKeyOf } from "../../../src/agent/prepare-environment.js";
import { describeSetupFailure, failedDependencyScript, fetchMissedProxy } from "../../../src/agent/setup-failure.js";
import type { SetupReport } from "../../../src/agent/setup-step.js";

const failed = (extra: Partial<SetupReport> = {}): SetupReport => ({
  commands: ["npm ci"],
  source: "detected",
  durationMs: 12_300,
  cache: "cold",
  status: "failed",
  failure: { command: "npm ci", exitCode: 1, timedOut: false, tail: "npm ERR! network\n```\nnot a fence\n" },
  ...extra,
});

describe("describeSetupFailure", () => {
  it("quotes the end of the output (fences defused) and says what to set", () => {
    const text = describeSetupFailure(failed());
    expect(text).toContain("`npm ci` ended with exit code 1 after 12.3 s");
    expect(text).toContain("no model was asked");
    expect(text).toContain("npm ERR! network");
    expect(text.match(/```/g)).toHaveLength(2);
    expect(text).toContain("was detected from the repository's files");
    expect(text).toContain("`setup:`");
  });

  it("names hosts the allow-list refused apart from admitted hosts it could not reach", () => {
    const refused = describeSetupFailure(failed({ refusedHosts: ["evil.example:443"] }));
    expect(refused).toContain("does not admit: evil.example:443");
    expect(refused).toContain("PATCHSMITH_SETUP_HOSTS");
    expect(refused).not.toContain("could not reach");

    const unreachable = describeSetupFailure(failed({ unreachableHosts: ["pypi.org:443"] }));
    expect(unreachable).toContain("could not reach pypi.org:443 from this machine");
    expect(unreachable).not.toContain("does not admit");
  });

  it("names the hosts a tool looked up itself instead of using the egress proxy", () => {
    const tail = "➤ YN0001: RequestError: getaddrinfo EAI_AGAIN registry.yarnpkg.com\n".repeat(3);
    const text = describeSetupFailure(
      failed({ failure: { command: "yarn install", exitCode: 1, timedOut: false, tail } }),
    );
    expect(text).toContain("It looked up registry.yarnpkg.com itself");
    expect(text).toContain("HTTPS_PROXY");
    expect(describeSetupFailure(failed())).not.toContain("looked up");
  });

  it("says when a download by Node's fetch failed on a Node.js whose fetch cannot use the proxy", () => {
    const tail =
      "Downloading the pnpm 12.21.0 binary for linux-x64...\n" +
      "Could not download the pnpm 12.21.0 binary: Could not reach https://registry.npmjs.org/@pnpm/exe.linux-x64/12.21.0: fetch failed\n";
    for (const version of ["v20.20.2", "v22.20.0", "v23.11.1"]) expect(fetchMissedProxy(tail, version)).toBe(true);
    for (const version of ["v22.21.0", "v24.11.1", "v26.1.0"]) expect(fetchMissedProxy(tail, version)).toBe(false);
    expect(fetchMissedProxy("npm error network request failed", "v20.20.2")).toBe(false);
    const text = describeSetupFailure(
      failed({ failure: { command: "corepack pnpm install", exitCode: 1, timedOut: false, tail } }),
    );
    expect(text.includes("A download by Node.js's own fetch failed")).toBe(fetchMissedProxy(tail));
    // A fetch that went through the proxy (corepack brings its own agent) failed for the host, not for the route.
    const tunnelled =
      "TypeError: fetch failed\n  cause: RequestAbortedError: Proxy response (403) !== 200 when HTTP Tunneling\n";
    expect(fetchMissedProxy(tunnelled, "v20.20.2")).toBe(false);
    const unreachable = describeSetupFailure(
      failed({
        unreachableHosts: ["repo.yarnpkg.com:443"],
        failure: { command: "corepack yarn install", exitCode: 1, timedOut: false, tail },
      }),
    );
    expect(unreachable).not.toContain("A download by Node.js's own fetch failed");
  });

  it("says when the package manager needs a newer Node.js than set-up ran on", () => {
    const pnpm =
      "warn: This version of pnpm requires at least Node.js v22.13\nwarn: The current version of Node.js is v20.1.0\n";
    const text = describeSetupFailure(
      failed({ failure: { command: "pnpm install", exitCode: 1, timedOut: false, tail: pnpm } }),
    );
    expect(text).toContain(`It needs Node.js v22.13, and set-up ran on Node.js ${process.version}`);
    expect(text).toContain("name a version of the package manager");
    expect(describeSetupFailure(failed())).not.toContain("needs Node.js");
  });

  it("names the dependency whose engine check stopped the install, and the flag that skips the check", () => {
    const yarn =
      'error semantic-release@25.0.3: The engine "node" is incompatible with this module. Expected version "^22.14.0 || >= 24.10.0". Got "20.20.2"\nerror Found incompatible module.\n';
    const npm = [
      "npm error code EBADENGINE",
      "npm error engine Unsupported engine",
      "npm error engine Not compatible with your version of node/npm: tsx@5.0.0",
      'npm error notsup Required: {"node":">=22"}',
      'npm error notsup Actual:   {"npm":"10.8.2","node":"v20.20.2"}',
      "",
    ].join("\n");
    for (const [tail, named] of [
      [yarn, "The dependency semantic-release@25.0.3 needs Node.js ^22.14.0 || >= 24.10.0"],
      [npm, "The dependency tsx@5.0.0 needs Node.js >=22"],
    ] as const) {
      const text = describeSetupFailure(
        failed({ failure: { command: "install", exitCode: 1, timedOut: false, tail } }),
      );
      expect(text).toContain(`${named}, and set-up ran on Node.js ${process.version}`);
      expect(text).toContain("--ignore-engines");
      expect(text).not.toContain("name a version of the package manager");
    }
  });

  it("names a dependency whose own install script failed, and how to install without such scripts", () => {
    const npm = [
      "npm error code 1",
      "npm error path /tmp/patchsmith-x/node_modules/sites-list",
      "npm error command failed",
      "npm error command sh -c node scripts/fetch-list.js",
      "npm error RequestError: getaddrinfo EAI_AGAIN lists.example",
      "",
    ].join("\n");
    const yarn = [
      "error /tmp/patchsmith-x/node_modules/@acme/native-thing: Command failed.",
      "Exit code: 1",
      "Command: node-gyp rebuild",
      "Arguments: ",
      "Directory: /tmp/patchsmith-x/node_modules/@acme/native-thing",
      "",
    ].join("\n");
    expect(failedDependencyScript(npm)).toEqual({ name: "sites-list", command: "node scripts/fetch-list.js" });
    expect(failedDependencyScript(yarn)).toEqual({ name: "@acme/native-thing", command: "node-gyp rebuild" });
    const pnpm = [
      ".../node_modules/sites-list postinstall$ node scripts/fetch-list.js",
      ".../node_modules/sites-list postinstall: RequestError: getaddrinfo ENOTFOUND lists.example",
      ".../node_modules/sites-list postinstall: Failed",
      " ELIFECYCLE  Command failed with exit code 1.",
      "",
    ].join("\n");
    expect(failedDependencyScript(pnpm)).toEqual({ name: "sites-list", command: "node scripts/fetch-list.js" });
    // The project's own `prepare` is no dependency's script.
    const own = "npm error path /tmp/patchsmith-x\nnpm error command failed\nnpm error command sh -c husky install\n";
    expect(failedDependencyScript(own)).toBeUndefined();
    const text = describeSetupFailure(
      failed({ failure: { command: "npm ci", exitCode: 1, timedOut: false, tail: npm } }),
    );
    expect(text).toContain("The install script of the dependency `sites-list` (`node scripts/fetch-list.js`) failed");
    expect(text).toContain("`npm ci --ignore-scripts`");
    expect(text).toContain("It looked up lists.example itself");
    expect(text).toContain("PATCHSMITH_SETUP_HOSTS");
  });

  it("says a limit or a timeout rather than an exit code", () => {
    const timedOut = failed({ failure: { command: "pip install .", exitCode: null, timedOut: true, tail: "" } });
    expect(describeSetupFailure(timedOut)).toContain("`pip install .` timed out");
    const config = describeSetupFailure(failed({ source: "repo-config" }));
    expect(config).toContain("came from .github/patchsmith.yml");
  });
});

describe("cacheKeyOf", () => {
  it("keys a URL by host and path without credentials or .git, a path by itself", () => {
    expect(cacheKeyOf("https://x-access-token:ghs_secret@github.com/Org/Repo.git")).toBe("github.com/org/repo");
    expect(cacheKeyOf("/srv/repos/thing/")).toBe("/srv/repos/thing");
  });
});
