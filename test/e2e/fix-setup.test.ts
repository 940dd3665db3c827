/**
 * Set-up on a real repository whose tests need a dev dependency: the real npm installs it inside the sandbox from a
 * registry on 127.0.0.1 (reached only through the egress allow-list), the tests then run offline, and a second job
 * on the same repository starts from a warm cache.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runFix } from "../../src/agent/run-fix.js";
import type { FixReport, FixRequest } from "../../src/agent/types.js";
import { parseEgressRules } from "../../src/adapters/sandbox/egress-rules.js";
import { hasPytest, makePythonRepo, type TempRepo } from "../fakes/git-repos.js";
import { makeTapeRepo, FLAGS_BUGGY, FLAGS_FIXED } from "../fakes/npm-repo.js";
import {
  FAKE_PNPM,
  installedPackage,
  NATIVE_ADDON,
  startFakeRegistry,
  TAPE_LITE,
  TAPE_LITE_DOTS,
  type FakeRegistry,
} from "../fakes/npm-registry.js";
import { makeRepoFrom } from "../fakes/git-repos.js";
import { startFakeOpenAI, type FakeOpenAIServer, type ScriptStep } from "../fakes/openai-server.js";
import { PINNED_BLACK, startFakeIndex, TINYCHECK, writeWheel, type FakeIndex } from "../fakes/pypi-index.js";
import { CALC_BUGGY, CALC_FIXED, calcUnittest, makeFlagcalcRepo } from "../fakes/python-repo.js";
import { block, realDeps } from "./fix-helpers.js";

const FIX = block("index.js", FLAGS_BUGGY, FLAGS_FIXED, "fix: parse --flag=false as false");

let registry: FakeRegistry;
/** The real Prettier this project installed, served by the fake registry. */
const PRETTIER = installedPackage("prettier");
/** The real TypeScript this project installed, served by the fake registry. */
const TYPESCRIPT = installedPackage("typescript");
const repos: TempRepo[] = [];
const servers: FakeOpenAIServer[] = [];
const kept: string[] = [];

beforeAll(async () => {
  registry = await startFakeRegistry([TAPE_LITE, TAPE_LITE_DOTS, FAKE_PNPM, NATIVE_ADDON, PRETTIER, TYPESCRIPT]);
});
afterAll(async () => {
  await registry.close();
});
afterEach(async () => {
  for (const dir of kept.splice(0)) rmSync(dir, { recursive: true, force: true });
  for (const repo of repos.splice(0)) repo.cleanup();
  for (const server of servers.splice(0)) await server.close();
});

/** The Python project of python-repo.ts fixed by its real fix, set-up allowed to reach `index` only. */
async function fixFlagcalc(index: FakeIndex, declared: "extra" | "group" | "tox" | "requirements"): Promise<FixReport> {
  const repo = makeFlagcalcRepo(index, declared);
  repos.push(repo);
  const server = await startFakeOpenAI([block(repo.bug!.path, CALC_BUGGY, CALC_FIXED, "fix: add 32")]);
  servers.push(server);
  const hosts = parseEgressRules(index.host).rules;
  return runFix(realDeps(server.url, { PATCHSMITH_SETUP_HOSTS: hosts }), {
    repo: repo.dir,
    instruction: "Convert to Fahrenheit correctly",
  });
}

async function fix(repo: TempRepo, script: readonly ScriptStep[], request: Partial<FixRequest> = {}) {
  const server = await startFakeOpenAI(script);
  servers.push(server);
  const hosts = parseEgressRules(registry.host).rules;
  const report: FixReport = await runFix(realDeps(server.url, { PATCHSMITH_SETUP_HOSTS: hosts }), {
    repo: repo.dir,
    instruction: "Boolean flags given as --flag=false are parsed as true",
    keep: true,
    ...request,
  });
  if (report.clonePath !== undefined) kept.push(report.clonePath);
  return { report, server };
}

describe("set-up before the tests", () => {
  it("installs the dev dependency, runs the tests offline, fixes; the second job starts from a warm cache", async () => {
    const repo = await makeTapeRepo(registry);
    repos.push(repo);
    const first = await fix(repo, [FIX]);
    expect(first.report.failure).toBeUndefined();
    expect(first.report.status).toBe("success");
    expect(first.report.setup).toMatchObject({
      commands: ["npm ci --prefer-offline"],
      source: "detected",
      status: "ok",
      cache: "cold",
    });
    expect(first.report.tests.before).toMatchObject({ passed: false });
    expect(first.report.tests.before!.failing).toEqual(["--flag=false is false"]);
    expect(first.report.tests.after?.passed).toBe(true);
    expect(registry.requests).toContain("GET /tape-lite/-/tape-lite-1.0.0.tgz");
    // What set-up installed is never committed.
    expect(first.report.changedFiles.map((f) => f.path)).toEqual(["index.js"]);
    expect(first.report.diff).not.toContain("node_modules");
    expect(first.report.timings?.setup).toBeGreaterThan(0);

    const tarballs = registry.requests.filter((r) => r.endsWith(".tgz")).length;
    const second = await fix(repo, [FIX]);
    expect(second.report.setup).toMatchObject({ status: "ok", cache: "warm" });
    expect(second.report.status).toBe("success");
    // The tarball came from the cache.
    expect(registry.requests.filter((r) => r.endsWith(".tgz")).length).toBe(tarballs);
  });

  it("without set-up the tests cannot run: the run stops before any model call and says what to set", async () => {
    const repo = await makeTapeRepo(registry);
    repos.push(repo);
    const { report, server } = await fix(repo, [FIX], { setup: false });
    expect(report.status).toBe("failed");
    expect(report.failure?.reason).toBe("tests-cannot-run");
    expect(report.failure?.message).toContain("the command `tape-lite` is not installed");
    expect(report.failure?.message).toContain("setup:");
    expect(server.chatRequests).toHaveLength(0);
    expect(report.usage.calls).toBe(0);
  });

  it("installs dependencies whose peers conflict as npm 6 did, when npm refuses them, and says so", async () => {
    const repo = await makeTapeRepo(registry, { peerConflict: true });
    repos.push(repo);
    const { report } = await fix(repo, [FIX]);
    expect(report.failure).toBeUndefined();
    expect(report.status).toBe("success");
    expect(report.setup).toMatchObject({
      commands: ["npm install --prefer-offline"],
      status: "ok",
      legacyPeerDeps: true,
    });
    expect(report.tests.before!.failing).toEqual(["--flag=false is false"]);
    expect(report.notes?.join("\n")).toContain("--legacy-peer-deps");
    // Nothing set-up wrote is committed, the lockfile npm made included.
    expect(report.changedFiles.map((f) => f.path)).toEqual(["index.js"]);
  });

  it("a set-up that fails stops the run before any model call, quoting its output", async () => {
    const repo = await makeTapeRepo(registry);
    repos.push(repo);
    const { report, server } = await fix(repo, [FIX], {
      setup: ["npm ci --prefer-offline", "echo broken-step >&2; exit 3"],
    });
    expect(report.status).toBe("failed");
    expect(report.failure?.reason).toBe("setup-failed");
    expect(report.failure?.message).toContain("exit code 3");
    expect(report.failure?.message).toContain("broken-step");
    expect(report.setup).toMatchObject({ source: "request", status: "failed" });
    expect(server.chatRequests).toHaveLength(0);
  });

  it("makes a virtual environment, installs the project with its test extra from an index, and tests in it", async () => {
    const index = await startFakeIndex([TINYCHECK]);
    try {
      const report = await fixFlagcalc(index, "extra");
      expect(report.failure).toBeUndefined();
      expect(report.setup).toMatchObject({
        status: "ok",
        commands: ["python3 -m venv .venv", ".venv/bin/python -m pip install --progress-bar off -e '.[test]'"],
      });
      expect(index.requests.some((r) => r.startsWith("GET /files/tinycheck"))).toBe(true);
      // pytest is not in the virtual environment: the probe, run inside it, falls back to unittest.
      expect(report.testCommand).toEqual({ command: "python3 -m unittest discover -s tests", source: "detected" });
      expect(report.tests.before?.passed).toBe(false);
      expect(report.status).toBe("success");
      expect(report.changedFiles.map((f) => f.path)).toEqual(["flagcalc/__init__.py"]);
    } finally {
      await index.close();
    }
  });

  it.each([
    ["a test dependency group (PEP 735) of pyproject.toml, with the group it includes", "group"],
    ["what tox.ini's test environment names, and not its docs environment's", "tox"],
  ] as const)("installs %s", async (_what, declared) => {
    const index = await startFakeIndex([TINYCHECK]);
    try {
      const report = await fixFlagcalc(index, declared);
      expect(report.setup).toMatchObject({
        status: "ok",
        commands: [
          "python3 -m venv .venv",
          ".venv/bin/python -m pip install --progress-bar off -e '.'",
          ".venv/bin/python -m pip install --progress-bar off 'tinycheck'",
        ],
      });
      expect(report.tests.before?.passed).toBe(false);
      expect(report.status).toBe("success");
    } finally {
      await index.close();
    }
  });

  /** The flagcalc project (no index of its own) fixed on a host whose pip configuration is `pipConf`. */
  async function fixWithHostPip(base: string, pipConf: string): Promise<FixReport> {
    const conf = join(base, "pip.conf");
    writeFileSync(conf, pipConf);
    const saved = process.env.PIP_CONFIG_FILE;
    process.env.PIP_CONFIG_FILE = conf;
    try {
      const repo = makeFlagcalcRepo(undefined, "extra");
      repos.push(repo);
      const server = await startFakeOpenAI([block(repo.bug!.path, CALC_BUGGY, CALC_FIXED, "fix: add 32")]);
      servers.push(server);
      // No PATCHSMITH_SETUP_HOSTS: only the host's settings say where packages come from.
      return await runFix(realDeps(server.url), { repo: repo.dir, instruction: "Convert to Fahrenheit correctly" });
    } finally {
      process.env.PIP_CONFIG_FILE = saved ?? "";
    }
  }

  const hostPipFolder = (): string => {
    const base = mkdtempSync(join(tmpdir(), "patchsmith-host-pip-"));
    kept.push(base);
    return base;
  };

  it("installs from where the host's pip settings say: a find-links folder of its disk, with no index", async () => {
    const base = hostPipFolder();
    const wheels = join(base, "wheels");
    mkdirSync(wheels);
    await writeWheel(TINYCHECK, wheels);
    // As a host set up for wheels on its disk writes it: the folder on a continuation line.
    const report = await fixWithHostPip(base, `[global]\nno-index = true\n[install]\nfind-links =\n    ${wheels}\n`);
    expect(report.setup).toMatchObject({
      status: "ok",
      commands: ["python3 -m venv .venv", ".venv/bin/python -m pip install --progress-bar off -e '.[test]'"],
    });
    expect(report.setup?.machinePackages).toBeUndefined();
    expect(report.tests.before?.passed).toBe(false);
    expect(report.status).toBe("success");
  });

  it("reaches the index the host's pip settings name, with no allow-list entry for it", async () => {
    const index = await startFakeIndex([TINYCHECK]);
    try {
      // A loopback index is admitted only because the host's settings name it exactly.
      const report = await fixWithHostPip(
        hostPipFolder(),
        `[global]\nindex-url = ${index.url}\ntrusted-host = 127.0.0.1\n`,
      );
      expect(index.requests.some((r) => r.startsWith("GET /files/tinycheck"))).toBe(true);
      expect(report.setup).toMatchObject({ status: "ok" });
      expect(report.setup?.machinePackages).toBeUndefined();
      expect(report.status).toBe("success");
    } finally {
      await index.close();
    }
  });

  it("goes on over the machine's packages when no index has what pip needs, with the clone's code on the path", async () => {
    const index = await startFakeIndex([TINYCHECK]);
    try {
      const repo = makeRepoFrom("patchsmith-nobackend-", {
        ".gitignore": "__pycache__/\n.venv/\n",
        ".github/patchsmith.yml": `env:\n  PIP_INDEX_URL: ${index.url}\n  PIP_TRUSTED_HOST: 127.0.0.1\n`,
        // A build backend no index here has (a mirror without the version a project pins behaves so).
        "pyproject.toml":
          '[build-system]\nrequires = ["patchsmith-absent-backend>=3"]\nbuild-backend = "patchsmith_absent_backend"\n\n[project]\nname = "srccalc"\nversion = "1.0.0"\n',
        "src/srccalc/__init__.py": `def to_fahrenheit(value):\n${CALC_BUGGY}\n`,
        "tests/__init__.py": "",
        "tests/test_calc.py": calcUnittest("srccalc"),
      });
      repos.push(repo);
      const server = await startFakeOpenAI([block("src/srccalc/__init__.py", CALC_BUGGY, CALC_FIXED, "fix: add 32")]);
      servers.push(server);
      const hosts = parseEgressRules(index.host).rules;
      const report = await runFix(realDeps(server.url, { PATCHSMITH_SETUP_HOSTS: hosts }), {
        repo: repo.dir,
        instruction: "Convert to Fahrenheit correctly",
      });
      expect(index.requests).toContain("GET /simple/patchsmith-absent-backend/");
      expect(report.setup).toMatchObject({ status: "ok", machinePackages: "patchsmith-absent-backend>=3" });
      expect(report.setup?.commands.slice(2, 4)).toEqual([
        "python3 -m venv --clear --system-site-packages .venv",
        expect.stringMatching(/ --no-build-isolation --no-deps -e \. \|\| .*_patchsmith_clone\.pth/),
      ]);
      // The tests found the clone's package (not nothing): they failed before the change and pass after it.
      expect(report.tests.before?.passed).toBe(false);
      expect(report.tests.before?.failing.some((t) => t.includes("test_boiling"))).toBe(true);
      expect(report.status).toBe("success");
      expect(report.changedFiles.map((f) => f.path)).toEqual(["src/srccalc/__init__.py"]);
    } finally {
      await index.close();
    }
  });

  it("over the machine's packages, installs each requirement of a file alone when pip can get only some of them", async () => {
    const index = await startFakeIndex([TINYCHECK]);
    try {
      const report = await fixFlagcalc(index, "requirements");
      expect(report.setup).toMatchObject({ status: "ok", machinePackages: "patchsmith-absent-tool>=1" });
      expect(report.setup?.commands.at(-1)).toMatch(
        /-r 'requirements-dev\.txt' \|\| \{ .* --retries 0 tinycheck \|\| echo /,
      );
      // tinycheck arrived although the file as a whole could not be installed: the tests ran, failing before.
      expect(report.tests.before?.passed).toBe(false);
      expect(report.tests.before?.failing.some((t) => t.includes("test_boiling"))).toBe(true);
      expect(report.status).toBe("success");
    } finally {
      await index.close();
    }
  });

  const hasBlack = spawnSync("black", ["--version"], { stdio: "ignore" }).status === 0;
  it.skipIf(!hasBlack)(
    "runs a project's pre-commit Black at the hook's version and with its options: a change it rejects is not taken",
    async () => {
      const index = await startFakeIndex([PINNED_BLACK]);
      try {
        const hooks = [
          "repos:",
          "  - repo: https://github.com/psf/black-pre-commit-mirror",
          "    rev: 24.2.0",
          "    hooks:",
          "      - id: black",
          "        args: [--line-length=60]",
          "        exclude: ^legacy/",
          "",
        ].join("\n");
        const py = makePythonRepo({
          files: {
            ".gitignore": "__pycache__/\n.venv/\n",
            ".pre-commit-config.yaml": hooks,
            // Code Black would reformat, in a folder the hook leaves out.
            "legacy/old.py": "x=1\n",
            ".github/patchsmith.yml": `env:\n  PIP_INDEX_URL: ${index.url}\n  PIP_TRUSTED_HOST: 127.0.0.1\n`,
          },
        });
        repos.push(py);
        const bug = py.bug!;
        const RANGE = "    return low <= value <= high";
        // 68 columns: Black's default keeps it on one line, the hook's 60 wraps it.
        const long = "    return low <= value <= high and isinstance(value, (int, float))";
        const server = await startFakeOpenAI([
          [
            block(bug.path, bug.buggy, bug.fixed, "fix(bounds): clamp inside the range"),
            block(bug.path, RANGE, long),
          ].join("\n\n"),
          block(bug.path, long, RANGE),
        ]);
        servers.push(server);
        const report = await runFix(
          realDeps(server.url, { PATCHSMITH_SETUP_HOSTS: parseEgressRules(index.host).rules }),
          {
            repo: py.dir,
            instruction: "clamp() returns the wrong value inside the range",
            keep: true,
          },
        );
        if (report.clonePath !== undefined) kept.push(report.clonePath);
        expect(report.setup?.status).toBe("ok");
        expect(report.setup?.commands.at(-1)).toMatch(
          /^\.venv\/bin\/python -m pip install .* 'black==24\.2\.0' \|\| echo /,
        );
        expect(index.requests).toContain("GET /files/black-24.2.0-py3-none-any.whl");
        const check = "patchsmith-hook-files --exclude '^legacy/' -- black --check --line-length=60";
        expect(report.testCommand?.command.endsWith(`, then ${check}`)).toBe(true);
        // The environment made for the hooks alone sees the machine's packages, as the tests did without it.
        expect(report.setup?.commands[0]).toBe("python3 -m venv --system-site-packages .venv");
        expect(report.testCommand?.command).toMatch(hasPytest() ? /^python3 -m pytest / : /^python3 -m unittest /);
        expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
        expect(report.attempts[0]!.note).toContain(`\`${check}\` passed before the change and fails now`);
        // The model is shown what Black with the hook's options would write.
        const reflection = server.chatRequests[1]!.messages.at(-1)!.content;
        expect(reflection).toContain("black would write calc/bounds.py so:");
        expect(reflection).toContain("+    return low <= value <= high and isinstance(\n");
        expect(report.status).toBe("success");
        // The check ran the Black set-up installed, not only the machine's.
        expect(existsSync(join(report.clonePath!, ".venv", "pinned-black-ran"))).toBe(true);
      } finally {
        await index.close();
      }
    },
  );

  describe("a src-layout Python package, not installed from the clone", () => {
    const srcRepo = (pythonPath: string) =>
      makeRepoFrom("patchsmith-srclayout-", {
        ".github/patchsmith.yml": `env:\n  PYTHONPATH: ${pythonPath}\n`,
        "pyproject.toml": '[project]\nname = "flagcalc"\nversion = "1.0.0"\n',
        "src/flagcalc/__init__.py": `def to_fahrenheit(value):\n${CALC_BUGGY}\n`,
        // Another copy of the package, as one installed on the host would be.
        "installed/flagcalc/__init__.py": `def to_fahrenheit(value):\n${CALC_BUGGY}\n`,
        "tests/__init__.py": "",
        "tests/test_calc.py": calcUnittest("flagcalc"),
      });

    it("stops before the model when the tests would import another copy of it", async () => {
      const repo = srcRepo("installed");
      repos.push(repo);
      const { report, server } = await fix(repo, [block("src/flagcalc/__init__.py", CALC_BUGGY, CALC_FIXED)], {
        setup: false,
        instruction: "Convert to Fahrenheit correctly",
      });
      expect(report.failure?.reason).toBe("tests-cannot-run");
      expect(report.failure?.message).toMatch(
        /they import the repository's package `flagcalc` from \S*\/installed\/flagcalc\/__init__\.py, not from the clone's src\/flagcalc\//,
      );
      expect(server.chatRequests).toHaveLength(0);
    });

    it("goes on when they import the clone's own", async () => {
      const repo = srcRepo("src");
      repos.push(repo);
      const { report } = await fix(repo, [block("src/flagcalc/__init__.py", CALC_BUGGY, CALC_FIXED, "fix: add 32")], {
        setup: false,
        instruction: "Convert to Fahrenheit correctly",
      });
      expect(report.failure).toBeUndefined();
      expect(report.status).toBe("success");
    });
  });

  it("gets the package manager a project declares through corepack, for set-up and for scripts that call it", async () => {
    const buggy = "module.exports = (a, b) => a - b;";
    const fixed = "module.exports = (a, b) => a + b;";
    const repo = makeRepoFrom("patchsmith-pnpm-", {
      "package.json": JSON.stringify({
        name: "adder",
        packageManager: "pnpm@9.0.0",
        scripts: { test: "pnpm run check", check: "node check.js" },
        devDependencies: { "left-pad": "^1.0.0" },
      }),
      "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
      "add.js": `${buggy}\n`,
      "check.js": [
        'const fs = require("node:fs");',
        'if (!fs.existsSync("node_modules/.fake-pnpm")) { console.error("set-up did not run"); process.exit(2); }',
        'if (require("./add.js")(2, 3) !== 5) { console.log("not ok 1 adds"); process.exit(1); }',
        'console.log("ok 1 adds");',
        "",
      ].join("\n"),
      ".github/patchsmith.yml": `env:\n  COREPACK_NPM_REGISTRY: ${registry.url.replace(/\/$/, "")}\n  COREPACK_INTEGRITY_KEYS: 0\n`,
    });
    repos.push(repo);
    const { report } = await fix(repo, [block("add.js", buggy, fixed, "fix: add")], { instruction: "Make add add" });
    expect(report.failure).toBeUndefined();
    expect(report.setup?.commands[0]).toMatch(/^corepack pnpm install --frozen-lockfile --prefer-offline --store-dir/);
    expect(registry.requests).toContain("GET /pnpm/-/pnpm-9.0.0.tgz");
    expect(report.tests.before).toMatchObject({ passed: false, failing: ["adds"] });
    expect(report.status).toBe("success");
  });

  it("a Prettier check the change fails shows the model what Prettier would write, and the next reply passes it", async () => {
    const repo = await makeTapeRepo(registry, { prettier: PRETTIER.version });
    repos.push(repo);
    const unformatted = "    else if (value === 'false') out[key] = false;";
    const { report, server } = await fix(repo, [
      block("index.js", FLAGS_BUGGY, unformatted, "fix: parse --flag=false as false"),
      block("index.js", unformatted, FLAGS_FIXED),
    ]);
    expect(report.tests.before).toMatchObject({ passed: false, failing: ["--flag=false is false"] });
    expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
    const reflection = server.chatRequests[1]!.messages.at(-1)!.content;
    expect(reflection).toContain("What the formatter whose check failed would change (write the files so):");
    expect(reflection).toMatch(
      /prettier would write index\.js so:\n--- a\/index\.js\n\+\+\+ b\/index\.js\n@@ -\d+,5 \+\d+,5 @@/,
    );
    expect(reflection).toContain(`\n-${unformatted}\n+${FLAGS_FIXED}\n`);
    expect(report.status).toBe("success");
    expect(report.diff).toContain(`+${FLAGS_FIXED}`);
  });

  it("runs the project's type check after tests that never check types: a change whose types are wrong is not taken", async () => {
    const repo = await makeTapeRepo(registry, { typescript: TYPESCRIPT.version });
    repos.push(repo);
    const typo = '    else if (value === "null") out[key] = value.lenght === 0;';
    const { report, server } = await fix(repo, [
      block("index.js", FLAGS_BUGGY, `${FLAGS_FIXED}\n${typo}`, "fix: parse --flag=false as false"),
      block("index.js", typo, typo.replace("lenght", "length")),
    ]);
    expect(report.testCommand).toMatchObject({ command: "npm test, then npm run typecheck", source: "detected" });
    expect(report.tests.before).toMatchObject({ passed: false, failing: ["--flag=false is false"] });
    expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
    expect(report.attempts[0]!.tests!.failing).toEqual([]);
    const reflection = server.chatRequests[1]!.messages.at(-1)!.content;
    expect(reflection).toContain("`npm run typecheck` failed (exit code");
    expect(reflection).toContain("index.js(12,49): error TS2551: Property 'lenght' does not exist on type");
    expect(report.status).toBe("success");
  });

  it("runs the project's lint after tests that never lint: a change the linter rejects is not taken", async () => {
    const repo = await makeTapeRepo(registry, { prettier: PRETTIER.version, lintApart: true });
    repos.push(repo);
    const unformatted = "    else if (value === 'false') out[key] = false;";
    const { report, server } = await fix(repo, [
      block("index.js", FLAGS_BUGGY, unformatted, "fix: parse --flag=false as false"),
      block("index.js", unformatted, FLAGS_FIXED),
    ]);
    expect(report.testCommand).toMatchObject({ command: "npm test, then npm run lint", source: "detected" });
    expect(report.tests.before).toMatchObject({ passed: false, failing: ["--flag=false is false"] });
    expect(report.attempts.map((a) => a.accepted)).toEqual([false, true]);
    expect(report.attempts[0]!.tests!.failing).toEqual([]);
    expect(report.attempts[0]!.note).toContain("`npm run lint` passed before the change and fails now");
    const reflection = server.chatRequests[1]!.messages.at(-1)!.content;
    expect(reflection).toContain(`\n-${unformatted}\n+${FLAGS_FIXED}\n`);
    expect(report.status).toBe("success");
  });

  it("leaves out a lint it added that fails before any change: the project does not enforce it", async () => {
    const repo = await makeTapeRepo(registry, { prettier: PRETTIER.version, lintApart: true, lintFailsBefore: true });
    repos.push(repo);
    const unformatted = "    else if (value === 'false') out[key] = false;";
    const { report, server } = await fix(repo, [block("index.js", FLAGS_BUGGY, unformatted, "fix: parse false")]);
    expect(report.testCommand).toMatchObject({ command: "npm test", source: "detected" });
    expect(report.notes).toContain(
      "`npm run lint` failed before any change, so the project does not enforce it here: it was not run again.",
    );
    expect(report.tests.before).toMatchObject({ passed: false, failing: ["--flag=false is false"] });
    expect(report.tests.before?.steps?.map((s) => s.command)).toEqual(["npm test --ignore-scripts"]);
    expect(report.attempts.map((a) => a.accepted)).toEqual([true]);
    expect(report.tests.after?.passed).toBe(true);
    expect(report.status).toBe("success");
    // The baseline's output the model reads ends with the tests, not with the lint left out.
    expect(report.tests.before?.tail).not.toContain("[warn] legacy.js");
    expect(server.chatRequests[0]!.messages.at(-1)!.content).not.toContain("[warn] legacy.js");
  });

  it("keeps a lint it added that fails before when the request is about the lint, and takes the change that passes it", async () => {
    const repo = await makeTapeRepo(registry, {
      bug: false,
      prettier: PRETTIER.version,
      lintApart: true,
      lintFailsBefore: true,
    });
    repos.push(repo);
    const { report, server } = await fix(
      repo,
      [block("legacy.js", "var  legacy=1", "var legacy = 1;", "style: format")],
      {
        instruction: "Fix the lint errors",
      },
    );
    expect(report.testCommand).toMatchObject({ command: "npm test, then npm run lint" });
    expect(report.notes?.join("\n") ?? "").not.toContain("does not enforce");
    expect(report.tests.before).toMatchObject({ passed: false, failing: [] });
    expect(server.chatRequests[0]!.messages.at(-1)!.content).toContain("[warn] legacy.js");
    expect(report.attempts.map((a) => a.accepted)).toEqual([true]);
    expect(report.tests.after?.passed).toBe(true);
    expect(report.status).toBe("success");
  });

  it("installs without install scripts when a dependency's fails to build, runs the tests, fixes, and says so", async () => {
    const repo = await makeTapeRepo(registry, { nativeDependency: true });
    repos.push(repo);
    const { report } = await fix(repo, [FIX]);
    expect(report.setup).toMatchObject({
      status: "ok",
      ignoredScripts: "`zopfli-lite` (`node build.js`)",
    });
    expect(report.tests.before).toMatchObject({ passed: false, failing: ["--flag=false is false"] });
    expect(report.tests.after?.passed).toBe(true);
    expect(report.notes?.join("\n")).toContain(
      "The install script of the dependency `zopfli-lite` (`node build.js`) failed",
    );
    expect(report.status).toBe("success");
  });

  it("runs set-up and tests with what the CI workflow sets for its tests: a suite that needs its time zone passes", async () => {
    const repo = await makeTapeRepo(registry, { ciZone: "Pacific/Auckland" });
    repos.push(repo);
    const { report } = await fix(repo, [FIX]);
    expect(report.tests.before).toMatchObject({ passed: false, failing: ["--flag=false is false"] });
    expect(report.tests.after?.passed).toBe(true);
    expect(report.notes).toContain(
      "Set-up and tests ran with what the CI workflow sets for its tests (.github/workflows/test.yml): TZ=Pacific/Auckland.",
    );
    expect(report.status).toBe("success");
  });

  it("a registry the allow-list does not admit is refused, and the report names it", async () => {
    const repo = await makeTapeRepo(registry);
    repos.push(repo);
    const server = await startFakeOpenAI([FIX]);
    servers.push(server);
    const report = await runFix(realDeps(server.url), { repo: repo.dir, instruction: "fix the flags" });
    expect(report.failure?.reason).toBe("setup-failed");
    expect(report.setup?.refusedHosts).toEqual([registry.host]);
    expect(report.failure?.message).toContain("PATCHSMITH_SETUP_HOSTS");
    expect(server.chatRequests).toHaveLength(0);
  });
});
