/**
 * What a failed set-up tells a person and the next run (pure): what ran, how it ended, the end of its output, and
 * what the output shows about why — hosts the allow-list refused or that could not be reached, a tool that
 * ignored the proxy, a Node.js too old for the package manager or a dependency, a dependency's own install
 * script — with what to set.
 */
import { fetchUsesEnvProxy } from "../core/node-env-proxy.js";
import type { SetupReport } from "./setup-step.js";
import { tailForModel } from "./test-run-for-model.js";

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * Hosts a command resolved itself (Node's `getaddrinfo EAI_AGAIN host`): inside the sandbox no name resolves, so a
 * tool that asked the resolver ignored the proxy variables.
 */
function hostsLookedUp(output: string): string[] {
  const hosts = [...output.matchAll(/getaddrinfo (?:EAI_AGAIN|ENOTFOUND) ([A-Za-z0-9.-]+)/g)].map((m) => m[1]!);
  return [...new Set(hosts)].slice(0, 5);
}

/**
 * What said it needs a newer Node.js than this one: the package manager itself (pnpm's "requires at least Node.js
 * v22.13"), or a dependency the install refuses (Yarn's `error x@1.0.0: The engine "node" is incompatible with this
 * module. Expected version ">=22"`, npm's EBADENGINE under engine-strict), named with the version it needs.
 */
function nodeTooOld(output: string): { readonly range: string; readonly dependency?: string } | undefined {
  const manager = /requires at least Node\.js (v?[\d.]+)/.exec(output);
  if (manager !== null) return { range: manager[1]! };
  const yarn = /(\S+@\S+): The engine "node" is incompatible with this module\. Expected version "([^"]+)"/.exec(
    output,
  );
  if (yarn !== null) return { range: yarn[2]!, dependency: yarn[1]! };
  const npm = /Not compatible with your version of node\/npm: (\S+)[\s\S]*?Required: \{[^}]*"node":\s*"([^"]+)"/.exec(
    output,
  );
  return npm === null ? undefined : { range: npm[2]!, dependency: npm[1]! };
}

/**
 * A dependency's own install script that failed, with its command: npm's `npm error path …/node_modules/x` then
 * `npm error command sh -c …`, Yarn's `error …/node_modules/x: Command failed.` then `Command: …`, pnpm's
 * `…/node_modules/x postinstall$ …` then `…/node_modules/x postinstall: Failed`. The project's own scripts
 * (`prepare`) are not a dependency's.
 */
export function failedDependencyScript(
  output: string,
): { readonly name: string; readonly command: string } | undefined {
  const npm =
    /npm error path \S*node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\s*\nnpm error command failed\s*\nnpm error command sh -c (.+)/.exec(
      output,
    );
  if (npm !== null) return { name: npm[1]!, command: npm[2]!.trim() };
  const yarn = /error \S*node_modules\/((?:@[^/\s]+\/)?[^/\s:]+): Command failed\.[\s\S]*?\nCommand: (.+)/.exec(output);
  if (yarn !== null) return { name: yarn[1]!, command: yarn[2]!.trim() };
  const pnpm =
    /node_modules\/((?:@[^/\s]+\/)?[^/\s]+) (?:pre|post)?install\$ (.+)\n[\s\S]*?node_modules\/\1 (?:pre|post)?install: Failed/.exec(
      output,
    );
  return pnpm === null ? undefined : { name: pnpm[1]!, command: pnpm[2]!.trim() };
}

/**
 * Whether a download by Node's own fetch failed on a Node.js whose fetch cannot go through set-up's proxy: the
 * request then went nowhere, and no host shows in the proxy's lists.
 */
export function fetchMissedProxy(output: string, version: string = process.version): boolean {
  return !fetchUsesEnvProxy(version) && /\bfetch failed\b/.test(output) && !/Proxy response \(\d+\)/.test(output);
}

/** The failure a person and the next run can act on: what ran, how it ended, its output's end, what to set. */
export function describeSetupFailure(setup: SetupReport): string {
  const failure = setup.failure;
  if (failure === undefined) return "Set-up failed.";
  const how =
    failure.limit ?? (failure.timedOut ? "timed out" : `ended with exit code ${String(failure.exitCode ?? "none")}`);
  const lines = [
    `Set-up failed: \`${failure.command}\` ${how} after ${seconds(setup.durationMs)}, so the tests could not run and ` +
      "no model was asked.",
    "",
    "```",
    tailForModel(failure.tail).replace(/```/g, "'''"),
    "```",
  ];
  if (setup.refusedHosts !== undefined) {
    lines.push(
      "",
      `It tried to reach hosts the set-up allow-list does not admit: ${setup.refusedHosts.join(", ")} (the operator ` +
        "adds hosts with PATCHSMITH_SETUP_HOSTS).",
    );
  }
  if (setup.unreachableHosts !== undefined) {
    lines.push(
      "",
      `It could not reach ${setup.unreachableHosts.join(", ")} from this machine, although the allow-list admits ` +
        "them (the name did not resolve or the connection failed): the service's own network is the place to look.",
    );
  }
  const direct = hostsLookedUp(failure.tail);
  if (direct.length > 0) {
    lines.push(
      "",
      `It looked up ${direct.join(", ")} itself: in the sandbox set-up reaches the network only through the egress ` +
        "proxy that HTTP_PROXY and HTTPS_PROXY name, which this tool did not use. Its own proxy setting needs that " +
        "value (a `setup:` command can pass it on), and a host that is no package registry must be on the allow-list " +
        "too (the operator adds hosts with PATCHSMITH_SETUP_HOSTS).",
    );
  }
  // A host the proxy could not reach or refused explains the failure better: that fetch went through it.
  if (setup.refusedHosts === undefined && setup.unreachableHosts === undefined && fetchMissedProxy(failure.tail)) {
    lines.push(
      "",
      `A download by Node.js's own fetch failed: set-up reaches the network only through its proxy, which fetch ` +
        `uses from Node.js 22.21 and 24 on, and set-up ran on Node.js ${process.version}. Run the service on a newer ` +
        "Node.js (the Docker image has the current LTS).",
    );
  }
  const script = failedDependencyScript(failure.tail);
  if (script !== undefined) {
    lines.push(
      "",
      `The install script of the dependency \`${script.name}\` (\`${script.command}\`) failed. When the tests do not ` +
        "need what it makes, install without dependencies' scripts: `npm ci --ignore-scripts` (Yarn and pnpm take " +
        "the same flag) as `setup:`.",
    );
  }
  const needs = nodeTooOld(failure.tail);
  if (needs?.dependency !== undefined) {
    lines.push(
      "",
      `The dependency ${needs.dependency} needs Node.js ${needs.range}, and set-up ran on Node.js ${process.version}: ` +
        "run the service on a newer Node.js (the Docker image has the current LTS), or, when the tests do not use " +
        "it (a release tool), install without the engine check (`yarn install --frozen-lockfile --ignore-engines`, " +
        "`npm ci --engine-strict=false`) as `setup:`.",
    );
  } else if (needs !== undefined) {
    lines.push(
      "",
      `It needs Node.js ${needs.range}, and set-up ran on Node.js ${process.version}: run the service on a newer ` +
        "Node.js (the Docker image has the current LTS), or name a version of the package manager that supports " +
        "this one.",
    );
  }
  const from =
    setup.source === "detected"
      ? "was detected from the repository's files"
      : setup.source === "repo-config"
        ? "came from .github/patchsmith.yml"
        : "was given with the request";
  lines.push(
    "",
    `The command ${from}. Set \`setup:\` in .github/patchsmith.yml to the commands that install what the tests ` +
      "need (or pass --setup / --no-setup to `patchsmith fix`).",
  );
  return lines.join("\n");
}
