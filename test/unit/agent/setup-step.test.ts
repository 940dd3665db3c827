import { describe, expect, it } from "vitest";
import type { FixDeps } from "../../../src/agent/deps.js";
import type { RunPlace } from "../../../src/agent/run-place.js";
import type { SetupPlan } from "../../../src/agent/setup-plan.js";
import { runSetup, setupNotes } from "../../../src/agent/setup-step.js";
import type { RunSummary, SandboxRunRequest } from "../../../src/ports/sandbox-runner.js";

const UNSIGNED_ERROR =
  "Error: No compatible signature found in package metadata\n    at verifySignature (corepack.cjs:1:1)";

/** A runner that fails each command whose output `fail` gives until corepack's check is off, recording requests. */
function scriptedRunner(fail: (request: SandboxRunRequest) => string | undefined) {
  const requests: SandboxRunRequest[] = [];
  const run = (request: SandboxRunRequest): Promise<RunSummary> => {
    requests.push(request);
    const output = fail(request);
    return Promise.resolve({
      command: request.command,
      passed: output === undefined,
      exitCode: output === undefined ? 0 : 1,
      timedOut: false,
      output: output ?? "ok\n",
      droppedBytes: 0,
      durationMs: 5,
    });
  };
  return { requests, runner: { run, describe: () => Promise.resolve({ sandbox: "none" }) } };
}

/** `plan` run by runSetup on the scripted runner, in a clone whose environment sets FOO. */
function setupOf(fail: (request: SandboxRunRequest) => string | undefined, plan: SetupPlan) {
  const { requests, runner } = scriptedRunner(fail);
  const deps = { runner, clock: { now: () => 0 } } as unknown as FixDeps;
  const place = {
    sandbox: { dir: "/clone", keepSetupOutput: () => Promise.resolve({ kept: [], restored: [] }) },
    environment: { shims: { pnpm: "corepack pnpm" }, path: [], env: { FOO: "1" } },
    cacheDir: undefined,
  } as unknown as RunPlace;
  return { requests, run: () => runSetup(deps, place, plan, 60_000) };
}

function setupWith(
  fail: (request: SandboxRunRequest) => string | undefined,
  source: "detected" | "repo-config" = "detected",
) {
  return setupOf(fail, { commands: ["corepack pnpm install", "corepack pnpm exec tap build"], source });
}

const checked = (request: SandboxRunRequest): boolean => request.env?.["COREPACK_INTEGRITY_KEYS"] !== "0";

describe("runSetup and corepack's registry signatures", () => {
  it("runs a command again without corepack's signature check when the registry's metadata carries none it knows", async () => {
    const { requests, run } = setupWith((r) =>
      checked(r) ? `! Corepack is about to download\n${UNSIGNED_ERROR}` : undefined,
    );
    const report = await run();
    expect(report).toMatchObject({ status: "ok", unsignedPackageManager: true });
    expect(requests.map((r) => [r.command, checked(r)])).toEqual([
      ["corepack pnpm install", true],
      ["corepack pnpm install", false],
      ["corepack pnpm exec tap build", false],
    ]);
    // The run's own environment is kept.
    expect(requests[1]!.env).toMatchObject({ FOO: "1" });
  });

  it("keeps the check, and fails once, for any other failure", async () => {
    const { requests, run } = setupWith(() => "ERR_PNPM_OUTDATED_LOCKFILE");
    const report = await run();
    expect(report.status).toBe("failed");
    expect(report.unsignedPackageManager).toBeUndefined();
    expect(requests).toHaveLength(1);
    expect(checked(requests[0]!)).toBe(true);
  });

  it("does not retry a second time when the unchecked run fails too", async () => {
    const { requests, run } = setupWith(() => UNSIGNED_ERROR);
    expect((await run()).status).toBe("failed");
    expect(requests).toHaveLength(2);
  });
});

const PEER_CONFLICT =
  "npm error code ERESOLVE\nnpm error ERESOLVE unable to resolve dependency tree\nnpm error Could not resolve dependency:";
const legacy = (request: SandboxRunRequest): boolean => request.env?.["npm_config_legacy_peer_deps"] === "true";

describe("runSetup and npm's peer dependency conflicts", () => {
  it("installs a detected set-up's conflicting peers as npm 6 did, for this command and the ones after", async () => {
    const { requests, run } = setupWith((r) => (legacy(r) ? undefined : PEER_CONFLICT));
    const report = await run();
    expect(report).toMatchObject({ status: "ok", legacyPeerDeps: true });
    expect(report.unsignedPackageManager).toBeUndefined();
    expect(requests.map((r) => [r.command, legacy(r)])).toEqual([
      ["corepack pnpm install", false],
      ["corepack pnpm install", true],
      ["corepack pnpm exec tap build", true],
    ]);
  });

  it("answers both refusals in turn when one command meets both", async () => {
    const { requests, run } = setupWith((r) =>
      checked(r) ? UNSIGNED_ERROR : legacy(r) ? undefined : `${PEER_CONFLICT}\n`,
    );
    expect(await run()).toMatchObject({ status: "ok", unsignedPackageManager: true, legacyPeerDeps: true });
    expect(requests).toHaveLength(4);
  });

  it("runs a command the repository gave as written, and fails once", async () => {
    const { requests, run } = setupWith(() => PEER_CONFLICT, "repo-config");
    const report = await run();
    expect(report.status).toBe("failed");
    expect(report.legacyPeerDeps).toBeUndefined();
    expect(requests).toHaveLength(1);
  });
});

const ENGINE_REFUSAL = [
  "[2/4] Fetching packages...",
  'error semantic-release@25.0.3: The engine "node" is incompatible with this module. Expected version "^22.14.0 || >= 24.10.0". Got "20.20.2"',
  "error Found incompatible module.",
].join("\n");
const ignoresEngines = (request: SandboxRunRequest): boolean => request.env?.["YARN_IGNORE_ENGINES"] === "true";

describe("runSetup and Yarn 1 refusing a dependency's engines", () => {
  it("installs ignoring engines, for this command and the ones after, and quotes the refusal", async () => {
    const { requests, run } = setupWith((r) => (ignoresEngines(r) ? undefined : ENGINE_REFUSAL));
    const report = await run();
    expect(report).toMatchObject({
      status: "ok",
      ignoredEngines:
        'semantic-release@25.0.3: The engine "node" is incompatible with this module. Expected version "^22.14.0 || >= 24.10.0". Got "20.20.2"',
    });
    expect(report.legacyPeerDeps).toBeUndefined();
    expect(requests.map(ignoresEngines)).toEqual([false, true, true]);
  });

  it("runs a command the repository gave as written", async () => {
    const { requests, run } = setupWith(() => ENGINE_REFUSAL, "repo-config");
    const report = await run();
    expect(report.status).toBe("failed");
    expect(report.ignoredEngines).toBeUndefined();
    expect(requests).toHaveLength(1);
  });
});

const SCRIPT_FAILED = [
  "npm error code 1",
  "npm error path /clone/node_modules/node-zopfli",
  "npm error command failed",
  "npm error command sh -c prebuild-install || node-gyp rebuild",
  "npm error gyp ERR! not ok",
].join("\n");
const ignoresScripts = (request: SandboxRunRequest): boolean => request.env?.["npm_config_ignore_scripts"] === "true";

describe("runSetup and a dependency's failing install script", () => {
  it("installs without install scripts, for this command and the ones after, and names the script", async () => {
    const { requests, run } = setupWith((r) =>
      r.command.includes("install") && !ignoresScripts(r) ? SCRIPT_FAILED : undefined,
    );
    const report = await run();
    expect(report).toMatchObject({
      status: "ok",
      ignoredScripts: "`node-zopfli` (`prebuild-install || node-gyp rebuild`)",
    });
    expect(requests.map(ignoresScripts)).toEqual([false, true, true]);
    expect(requests[1]!.env).toMatchObject({ YARN_IGNORE_SCRIPTS: "true", YARN_ENABLE_SCRIPTS: "false", FOO: "1" });
  });

  it("fails as it did when the install without scripts fails too, and runs a command the repository gave as written", async () => {
    const detected = setupWith(() => SCRIPT_FAILED);
    expect((await detected.run()).status).toBe("failed");
    expect(detected.requests).toHaveLength(2);
    const given = setupWith(() => SCRIPT_FAILED, "repo-config");
    const report = await given.run();
    expect(report.status).toBe("failed");
    expect(report.ignoredScripts).toBeUndefined();
    expect(given.requests).toHaveLength(1);
  });
});

describe("setupNotes", () => {
  const ok = {
    commands: ["corepack yarn install"],
    source: "detected",
    status: "ok",
    durationMs: 1,
    cache: "none",
  } as const;

  it("says nothing of a set-up that went as planned", () => {
    expect(setupNotes(ok)).toEqual([]);
  });

  it("says what each answer did, quoting Yarn's refusal, and which tracked files were put back", () => {
    const notes = setupNotes({
      ...ok,
      unsignedPackageManager: true,
      legacyPeerDeps: true,
      ignoredEngines:
        'x@1.0.0: The engine "node" is incompatible with this module. Expected version ">=99". Got "20.20.2"',
      ignoredScripts: "`node-zopfli` (`node-gyp rebuild`)",
      restored: ["package.json"],
    });
    expect(notes).toHaveLength(5);
    expect(notes[0]).toContain("installed it unchecked");
    expect(notes[1]).toContain("`--legacy-peer-deps`");
    expect(notes[2]).toBe(
      'Yarn refused a dependency that does not support this machine\'s Node (x@1.0.0: The engine "node" is ' +
        'incompatible with this module. Expected version ">=99". Got "20.20.2"). Set-up installed ignoring engines ' +
        "(`--ignore-engines`); a test that needs that Node may fail here (the Docker image runs the current LTS).",
    );
    expect(notes[3]).toContain(
      "The install script of the dependency `node-zopfli` (`node-gyp rebuild`) failed, so set-up installed without " +
        "install scripts (`--ignore-scripts`)",
    );
    expect(notes[4]).toBe("Set-up changed tracked files, which were put back before the tests: package.json.");
  });
});

describe("runSetup when pip cannot get a package", () => {
  const PIP_MISSING =
    "Looking in indexes: https://pypi.org/simple\n      ERROR: Could not find a version that satisfies the requirement flit_core<4,>=3.11 (from versions: 4.1.0)\n      ERROR: No matching distribution found for flit_core<4,>=3.11\n";
  const python = ["python3 -m venv .venv", "pip -e .", "pip -r requirements.txt"];
  const fallback = { replaces: python, commands: ["venv --system-site-packages", "pip -e . || pth"] };

  const fallbackSetup = (fail: (command: string) => string | undefined) =>
    setupOf((r) => fail(r.command), {
      commands: ["npm ci", ...python, "cargo fetch"],
      source: "detected",
      pythonFallback: fallback,
    });

  it("goes on over the machine's packages from the failed command, skips the Python commands left, and says so", async () => {
    const { requests, run } = fallbackSetup((command) => (command === "pip -e ." ? PIP_MISSING : undefined));
    const report = await run();
    const ran = [
      "npm ci",
      "python3 -m venv .venv",
      "pip -e .",
      "venv --system-site-packages",
      "pip -e . || pth",
      "cargo fetch",
    ];
    expect(requests.map((r) => r.command)).toEqual(ran);
    expect(report).toMatchObject({ status: "ok", machinePackages: "flit_core<4,>=3.11", commands: ran });
    expect(setupNotes(report).join("\n")).toContain(
      "pip could not get `flit_core<4,>=3.11` (no package index it could reach has it), so set-up made the virtual environment over this machine's Python packages",
    );
  });

  it("fails as before when the stand-in fails too, or when pip failed for another reason, or a command not Python's did", async () => {
    const both = fallbackSetup((command) =>
      command === "pip -e ." ? PIP_MISSING : command === "pip -e . || pth" ? "no python" : undefined,
    );
    expect(await both.run()).toMatchObject({ status: "failed", failure: { command: "pip -e . || pth" } });
    const other = fallbackSetup((command) =>
      command === "pip -e ." ? "error: invalid command 'bdist_wheel'" : undefined,
    );
    const report = await other.run();
    expect(report).toMatchObject({ status: "failed", failure: { command: "pip -e ." } });
    expect(report.machinePackages).toBeUndefined();
    const npm = fallbackSetup((command) => (command === "npm ci" ? PIP_MISSING : undefined));
    expect(await npm.run()).toMatchObject({ status: "failed", failure: { command: "npm ci" } });
    expect(npm.requests).toHaveLength(1);
  });
});
