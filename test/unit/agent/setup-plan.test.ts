import { describe, expect, it } from "vitest";
import { cacheEnv, chooseSetup, testCacheEnv, detectEnvironment } from "../../../src/agent/setup-plan.js";
import { pythonExtras, pythonTestGroups } from "../../../src/agent/python-setup.js";

function facts(files: Record<string, string>) {
  return { paths: Object.keys(files), read: (path: string) => files[path] };
}

const pkg = (value: object): string => JSON.stringify(value);
const DEV = pkg({ name: "x", devDependencies: { tape: "^5" } });

describe("detectEnvironment: Node", () => {
  it.each([
    [{ "package.json": DEV, "package-lock.json": "{}" }, ["npm ci --prefer-offline"]],
    [{ "package.json": DEV, "npm-shrinkwrap.json": "{}" }, ["npm ci --prefer-offline"]],
    [{ "package.json": DEV }, ["npm install --prefer-offline"]],
    [
      { "package.json": DEV, "yarn.lock": "" },
      ["corepack yarn install --frozen-lockfile --prefer-offline --non-interactive"],
    ],
    [{ "package.json": DEV, "yarn.lock": "", ".yarnrc.yml": "" }, ["corepack yarn install --immutable"]],
    [
      { "package.json": DEV, "pnpm-lock.yaml": "" },
      [
        'corepack pnpm install --frozen-lockfile --prefer-offline --store-dir "${PATCHSMITH_CACHE:-$HOME/.cache}/pnpm-store"',
      ],
    ],
  ])("%j → %j", (files, commands) => {
    expect(detectEnvironment(facts(files), "/clone").commands).toEqual(commands);
  });

  it("follows the declared package manager over the lockfiles, and puts it on PATH through corepack", () => {
    const yarnBerry = pkg({ packageManager: "yarn@4.1.0", devDependencies: { a: "1" } });
    const detected = detectEnvironment(facts({ "package.json": yarnBerry, "yarn.lock": "" }), "/clone");
    expect(detected.commands).toEqual(["corepack yarn install --immutable"]);
    expect(detected.environment.shims).toEqual({ yarn: "corepack yarn" });
    const pnpm = pkg({ packageManager: "pnpm@9.12.0+sha512.abc", devDependencies: { a: "1" } });
    expect(detectEnvironment(facts({ "package.json": pnpm }), "/clone").environment.shims).toEqual({
      pnpm: "corepack pnpm",
    });
  });

  it("builds tap with the plugins the project names, at set-up where the registry is in reach", () => {
    const tap = (extra: object) => pkg({ devDependencies: { tap: "^21" }, ...extra });
    const named = tap({ tap: { plugin: ["@tapjs/clock"] } });
    expect(detectEnvironment(facts({ "package.json": named, "package-lock.json": "{}" }), "/c").commands).toEqual([
      "npm ci --prefer-offline",
      "npm exec --no -- tap build",
    ]);
    const rc = facts({ "package.json": tap({}), ".taprc": "timeout: 60\nplugin:\n  - '@tapjs/nock'\n" });
    expect(detectEnvironment(rc, "/c").commands).toEqual([
      "npm install --prefer-offline",
      "npm exec --no -- tap build",
    ]);
    const pnpmFiles = facts({ "package.json": named, "pnpm-lock.yaml": "" });
    expect(detectEnvironment(pnpmFiles, "/c").commands[1]).toBe("corepack pnpm exec tap build");
    expect(detectEnvironment(facts({ "package.json": named, "yarn.lock": "" }), "/c").commands[1]).toBe(
      "corepack yarn tap build",
    );
    // Without plugins named, or without tap, there is nothing to build.
    expect(detectEnvironment(facts({ "package.json": tap({ tap: { timeout: 60 } }) }), "/c").commands).toHaveLength(1);
    const noTap = pkg({ devDependencies: { ava: "6" }, tap: { plugin: ["x"] } });
    expect(detectEnvironment(facts({ "package.json": noTap }), "/c").commands).toHaveLength(1);
  });

  it("runs the Yarn release a Berry project commits (yarnPath), without corepack, for set-up and as `yarn`", () => {
    const files = {
      "package.json": pkg({ packageManager: "yarn@4.1.0", devDependencies: { vitest: "1" } }),
      "yarn.lock": "",
      ".yarnrc.yml": 'nodeLinker: node-modules\nyarnPath: ".yarn/releases/yarn-4.1.0.cjs"\n',
      ".yarn/releases/yarn-4.1.0.cjs": "",
    };
    const detected = detectEnvironment(facts(files), "/clone");
    expect(detected.commands).toEqual(["node '/clone/.yarn/releases/yarn-4.1.0.cjs' install --immutable"]);
    expect(detected.environment.shims).toEqual({ yarn: "node '/clone/.yarn/releases/yarn-4.1.0.cjs'" });
    // Named but not committed: corepack brings the declared version.
    const { ".yarn/releases/yarn-4.1.0.cjs": _release, ...uncommitted } = files;
    expect(detectEnvironment(facts(uncommitted), "/clone").commands).toEqual(["corepack yarn install --immutable"]);
    // Without a lockfile: Berry, immutable by default under CI=true, must be let write one.
    const { "yarn.lock": _lock, ...unlocked } = uncommitted;
    expect(detectEnvironment(facts(unlocked), "/clone").commands).toEqual(["corepack yarn install --no-immutable"]);
  });

  it("installs nothing for a package without dependencies, but keeps the declared manager's shim", () => {
    expect(detectEnvironment(facts({ "package.json": pkg({ name: "x" }) }), "/clone").commands).toEqual([]);
    const declared = detectEnvironment(facts({ "package.json": pkg({ packageManager: "pnpm@9.0.0" }) }), "/c");
    expect(declared).toMatchObject({ commands: [], environment: { shims: { pnpm: "corepack pnpm" } } });
  });
});

/** The one-liner that writes the `.pth` file naming the clone's code. */
const PTH_WRITER =
  'import site, sys; open(site.getsitepackages()[0] + "/_patchsmith_clone.pth", "w").write(sys.argv[1] + "\\n")';

describe("detectEnvironment: Python, Go, Rust", () => {
  it("makes a virtual environment in the clone, installs the requirements, then the package with its test extras", () => {
    const pyproject = '[project]\nname = "x"\n[project.optional-dependencies]\ntest = ["pytest"]\ndocs = ["mkdocs"]\n';
    const detected = detectEnvironment(
      facts({ "pyproject.toml": pyproject, "requirements-dev.txt": "pytest\n", "x/__init__.py": "" }),
      "/clone",
    );
    expect(detected.commands).toEqual([
      "python3 -m venv .venv",
      ".venv/bin/python -m pip install --progress-bar off -r 'requirements-dev.txt'",
      ".venv/bin/python -m pip install --progress-bar off -e '.[test]'",
    ]);
    expect(detected.environment.path).toEqual(["/clone/.venv/bin"]);
    expect(detected.environment.env).toEqual({ VIRTUAL_ENV: "/clone/.venv" });
  });

  it("does not install a pyproject.toml that only configures tools", () => {
    const tools = facts({ "pyproject.toml": "[tool.black]\nline-length = 100\n", "a.py": "" });
    expect(detectEnvironment(tools, "/c").commands).toEqual([]);
    const withRequirements = facts({ "pyproject.toml": "[tool.ruff]\n", "requirements.txt": "requests\n" });
    expect(detectEnvironment(withRequirements, "/c").commands).toEqual([
      "python3 -m venv .venv",
      ".venv/bin/python -m pip install --progress-bar off -r 'requirements.txt'",
    ]);
  });

  it("installs a pyproject's test dependency groups, with the groups they include", () => {
    const pyproject = [
      "[project]",
      'name = "x"',
      "[dependency-groups]",
      'dev = ["ruff", "tox"]',
      'tests = ["pytest", { include-group = "coverage" }]',
      'coverage = ["coverage[toml]", "pytest-cov ; python_version >= \'3.9\'"]',
      'docs = ["sphinx"]',
      "",
    ].join("\n");
    expect(detectEnvironment(facts({ "pyproject.toml": pyproject }), "/c").commands).toEqual([
      "python3 -m venv .venv",
      ".venv/bin/python -m pip install --progress-bar off -e '.'",
      String.raw`.venv/bin/python -m pip install --progress-bar off 'pytest' 'coverage[toml]' 'pytest-cov ; python_version >= '\''3.9'\'''`,
    ]);
    // `dev` only when no test group exists; a pyproject with groups alone (no package) still gets them.
    const devOnly = '[tool.ruff]\n[dependency-groups]\ndev = ["pytest"]\ndocs = ["sphinx"]\n';
    expect(pythonTestGroups(facts({ "pyproject.toml": devOnly }))).toEqual(["pytest"]);
    expect(detectEnvironment(facts({ "pyproject.toml": devOnly }), "/c").commands).toEqual([
      "python3 -m venv .venv",
      ".venv/bin/python -m pip install --progress-bar off 'pytest'",
    ]);
    expect(pythonTestGroups(facts({ "pyproject.toml": "[dependency-groups\n" }))).toEqual([]);
  });

  it("installs what tox.ini's test environment names, its extras with the package's, and pytest where it is configured", () => {
    const ini =
      "[testenv]\ndeps =\n    unit: pytest\n    -r requirements-dev.txt\n    -r requirements/extra.txt\n    doctest: sphinx\nextras = unit: diagrams\n";
    const pyproject = '[project]\nname = "x"\n[project.optional-dependencies]\ntest = ["hypothesis"]\n';
    const files = { "tox.ini": ini, "pyproject.toml": pyproject, "requirements-dev.txt": "", "conftest.py": "" };
    expect(detectEnvironment(facts(files), "/c").commands).toEqual([
      "python3 -m venv .venv",
      ".venv/bin/python -m pip install --progress-bar off -r 'requirements-dev.txt'",
      ".venv/bin/python -m pip install --progress-bar off -e '.[test,diagrams]'",
      ".venv/bin/python -m pip install --progress-bar off 'pytest' '-r' 'requirements/extra.txt'",
    ]);
    // tox.ini alone (no package, no requirements file) still makes the environment its tests need.
    expect(
      detectEnvironment(facts({ "tox.ini": "[testenv]\ndeps = pytest\n", "test_a.py": "" }), "/c").commands,
    ).toEqual(["python3 -m venv .venv", ".venv/bin/python -m pip install --progress-bar off 'pytest'"]);
    // pytest configured and named nowhere: installed after the package.
    const configured = facts({ "setup.py": "setup(name='x')", "pytest.ini": "[pytest]\n" });
    expect(detectEnvironment(configured, "/c").commands).toEqual([
      "python3 -m venv .venv",
      ".venv/bin/python -m pip install --progress-bar off -e '.'",
      ".venv/bin/python -m pip install --progress-bar off 'pytest'",
    ]);
  });

  it("reads test extras from setup.cfg and setup.py", () => {
    const cfg = "[metadata]\nname = x\n[options.extras_require]\ntesting =\n    pytest\ndocs = sphinx\n";
    expect(pythonExtras(facts({ "setup.cfg": cfg }))).toEqual(["testing"]);
    const py = "setup(name='x', extras_require={'tests': ['pytest'], 'dev': ['black']})";
    expect(pythonExtras(facts({ "setup.py": py }))).toEqual(["tests", "dev"]);
  });

  it("in the stand-in, tries each requirement of a set alone when the set cannot be installed whole", () => {
    const files = {
      "requirements-dev.txt": "-c constraints.txt\npytest\nno-such-tool>=1\n",
      "requirements.txt": "attrs==23.1.0 --hash=sha256:0123\nsix\n",
      "pyproject.toml": '[dependency-groups]\ntests = ["hypothesis", "coverage"]\n',
    };
    const commands = detectEnvironment(facts(files), "/clone").pythonFallback?.commands ?? [];
    const pip = ".venv/bin/python -m pip install --progress-bar off --retries 0";
    const standIn = "; the machine'\\''s packages stand in'";
    const alone = (args: string): string =>
      `${pip} ${args.replace("no-such-tool>=1", "'no-such-tool>=1'")} || echo 'patchsmith: pip could not install ${args}${standIn};`;
    expect(commands.slice(2)).toEqual([
      // Pinned by hash: pip checks hashes only for the whole file, which is then not split.
      `${pip} -r 'requirements.txt' || echo 'patchsmith: pip could not install all of these${standIn}`,
      `${pip} -r 'requirements-dev.txt' || { ${alone("-c constraints.txt pytest")} ${alone("-c constraints.txt no-such-tool>=1")} }`,
      `${pip} 'hypothesis' 'coverage' || { ${alone("hypothesis")} ${alone("coverage")} }`,
    ]);
  });

  it("plans a stand-in over the machine's packages, for when pip cannot get one", () => {
    const pyproject =
      '[build-system]\nrequires = ["flit_core<4"]\n[project]\nname = "x"\n[dependency-groups]\ntests = ["pytest"]\n';
    const hooks =
      "repos:\n  - repo: https://github.com/psf/black-pre-commit-mirror\n    rev: 24.2.0\n    hooks:\n      - id: black\n";
    const files = {
      "pyproject.toml": pyproject,
      "requirements.txt": "attrs\n",
      "src/x/__init__.py": "",
      ".pre-commit-config.yaml": hooks,
    };
    const detected = detectEnvironment(facts(files), "/clone");
    const pip = ".venv/bin/python -m pip install --progress-bar off";
    expect(detected.pythonFallback?.replaces).toEqual(detected.commands);
    const onPath = `.venv/bin/python -c '${PTH_WRITER}' '/clone/src'`;
    expect(detected.pythonFallback?.commands).toEqual([
      "python3 -m venv --clear --system-site-packages .venv",
      `${pip} --no-build-isolation --no-deps -e . || ${onPath}`,
      `${pip} --retries 0 -r 'requirements.txt' || echo 'patchsmith: pip could not install all of these; the machine'\\''s packages stand in'`,
      `${pip} --retries 0 'pytest' || echo 'patchsmith: pip could not install all of these; the machine'\\''s packages stand in'`,
      detected.commands.at(-1),
    ]);
    expect(detected.commands.at(-1)).toMatch(/'black==24\.2\.0' \|\| echo /);
    // A flat layout puts the clone itself on the path; requirements alone, with no package, only that.
    const flat = detectEnvironment(facts({ "requirements.txt": "attrs\n", "x/__init__.py": "" }), "/clone");
    expect(flat.pythonFallback?.commands.slice(0, 2)).toEqual([
      "python3 -m venv --clear --system-site-packages .venv",
      `.venv/bin/python -c '${PTH_WRITER}' '/clone'`,
    ]);
    // Only for what set-up detected itself.
    expect(
      chooseSetup(undefined, ["make deps"], detected.commands, detected.pythonFallback)?.pythonFallback,
    ).toBeUndefined();
    expect(chooseSetup(undefined, undefined, detected.commands, detected.pythonFallback)?.pythonFallback).toBe(
      detected.pythonFallback,
    );
  });

  it("downloads Go modules and Cargo crates, after the other ecosystems", () => {
    const detected = detectEnvironment(
      facts({ "go.mod": "module x", "Cargo.toml": "[package]", "package.json": DEV }),
      "/c",
    );
    expect(detected.commands).toEqual(["npm install --prefer-offline", "go mod download", "cargo fetch"]);
  });
});

describe("chooseSetup", () => {
  it("takes the request's commands, else the repo config's, else the detected ones", () => {
    expect(chooseSetup(["make deps"], ["npm ci"], ["npm install"])).toEqual({
      commands: ["make deps"],
      source: "request",
    });
    expect(chooseSetup(undefined, ["npm ci"], ["npm install"])).toEqual({
      commands: ["npm ci"],
      source: "repo-config",
    });
    expect(chooseSetup(undefined, undefined, ["npm install"])).toEqual({
      commands: ["npm install"],
      source: "detected",
    });
  });

  it("runs nothing for --no-setup, for `setup: false` in the config, or when nothing is detected", () => {
    expect(chooseSetup(false, ["npm ci"], ["npm install"])).toBeUndefined();
    expect(chooseSetup(undefined, [], ["npm install"])).toBeUndefined();
    expect(chooseSetup(undefined, undefined, [])).toBeUndefined();
  });
});

describe("cacheEnv", () => {
  it("points every package manager at a folder of the repository's cache", () => {
    const env = cacheEnv("/cache");
    for (const value of Object.values(env)) expect(value.startsWith("/cache")).toBe(true);
    expect(env).toMatchObject({
      npm_config_cache: "/cache/npm",
      PIP_CACHE_DIR: "/cache/pip",
      COREPACK_HOME: "/cache/corepack",
    });
  });
  it("leaves npm out of the caches the tests see, and only npm", () => {
    const { npm_config_cache: npm, ...others } = cacheEnv("/cache");
    expect(npm).toBe("/cache/npm");
    expect(testCacheEnv("/cache")).toEqual(others);
  });
});
