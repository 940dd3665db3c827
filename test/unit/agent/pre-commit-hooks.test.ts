import { describe, expect, it } from "vitest";
import { preCommitHooks } from "../../../src/agent/pre-commit-hooks.js";
import { detectTestCommand, type Detection } from "../../../src/agent/test-command.js";
import { detectEnvironment } from "../../../src/agent/setup-plan.js";

/** A configuration as Python projects write it: hooks of released checkers, fixers, a local hook. */
const CONFIG = `
ci:
  autofix_prs: false
repos:
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v4.5.0
    hooks:
      - id: trailing-whitespace
      - id: end-of-file-fixer
  - repo: https://github.com/psf/black-pre-commit-mirror
    rev: 24.2.0
    hooks:
      - id: black
        args: [--line-length=100]
  - repo: https://github.com/pycqa/isort
    rev: 5.13.2
    hooks:
      - id: isort
        args: ["--profile", "black"]
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.4.1
    hooks:
      - id: ruff
        args: [--fix, --exit-non-zero-on-fix]
      - id: ruff-format
  - repo: https://github.com/pycqa/flake8
    rev: 7.0.0
    hooks:
      - id: flake8
        additional_dependencies: [flake8-bugbear==24.2.6, "flake8-docstrings"]
  - repo: https://github.com/pre-commit/mirrors-mypy
    rev: 3c2d7b5a10ab4a2d6bbd3a41a1f8c9a1b5e2c3d4
    hooks:
      - id: mypy
        additional_dependencies: [types-requests]
  - repo: local
    hooks:
      - id: black
        name: black from the project
        entry: black
        language: system
`;

/** The checks a detection runs after pytest. */
const addedOf = (detection: Detection) => (detection.kind === "python" ? detection.added : undefined);

const facts = (files: Record<string, string>) => ({ paths: Object.keys(files), read: (path: string) => files[path] });

describe("preCommitHooks", () => {
  it("reads the checkers' hooks: pinned to the rev where it is a version, with their arguments and dependencies", () => {
    const hooks = preCommitHooks(CONFIG);
    expect(hooks.requirements).toEqual([
      "black==24.2.0",
      "isort==5.13.2",
      "ruff==0.4.1",
      "flake8==7.0.0",
      // A commit is no version: the tool is installed unpinned.
      "mypy",
      "flake8-bugbear==24.2.6",
      "flake8-docstrings",
      "types-requests",
    ]);
    expect(Object.fromEntries(hooks.args)).toEqual({
      black: ["--line-length=100"],
      isort: ["--profile", "black"],
      // The arguments that make Ruff rewrite files are not the check's.
      ruff: [],
      "ruff-format": [],
      flake8: [],
      // mypy's hook repository passes this when the hook gives no arguments.
      mypy: ["--ignore-missing-imports"],
    });
  });

  it("reads the release a frozen rev's comment names", () => {
    const frozen = [
      "repos:",
      "  - repo: https://github.com/astral-sh/ruff-pre-commit",
      "    rev: c60c980e561ed3e73101667fe8365c609d19a438  # frozen: v0.15.9",
      "    hooks:",
      "      - id: ruff-check",
      "  - repo: https://github.com/psf/black-pre-commit-mirror",
      "    rev: 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567 # a comment, not a release",
      "    hooks:",
      "      - id: black",
      "",
    ].join("\n");
    expect(preCommitHooks(frozen).requirements).toEqual(["ruff==0.15.9", "black"]);
  });

  it("reads ruff-check as Ruff's check, and nothing from a file that is not a configuration", () => {
    const ruff =
      "repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.9.1\n  hooks:\n  - id: ruff-check\n";
    expect(preCommitHooks(ruff).args).toEqual(new Map([["ruff", []]]));
    expect(preCommitHooks(ruff).requirements).toEqual(["ruff==0.9.1"]);
    for (const text of [undefined, "", "repos: [", "- just\n- a list\n", "repos: none\n"]) {
      const none = preCommitHooks(text);
      expect([none.args.size, none.filters.size, none.requirements.length]).toEqual([0, 0, 0]);
    }
  });

  it("runs a hook whose files or exclude patterns leave files out on the files they leave, as pre-commit does", () => {
    const filtered = [
      "exclude: ^docs/",
      "repos:",
      "  - repo: https://github.com/psf/black-pre-commit-mirror",
      "    rev: 24.2.0",
      "    hooks:",
      "      - id: black",
      "        exclude: ^(legacy|vendor)/",
      "  - repo: https://github.com/astral-sh/ruff-pre-commit",
      "    rev: v0.4.1",
      "    hooks:",
      "      - id: ruff-format",
      "        files: ^src/",
      "  - repo: https://github.com/pycqa/isort",
      "    rev: 5.13.2",
      "    hooks:",
      "      - id: isort",
      "",
    ].join("\n");
    const project = { "src/calc.py": "", "tests/test_calc.py": "", ".pre-commit-config.yaml": filtered };
    expect(addedOf(detectTestCommand(facts(project)))?.map((c) => c.command)).toEqual([
      "patchsmith-hook-files --files '^src/' --exclude '^docs/' -- ruff format --check --force-exclude",
      "patchsmith-hook-files --exclude '^docs/' --exclude '^(legacy|vendor)/' -- black --check",
      // isort's hook passes --filter-files when it gives no arguments.
      "patchsmith-hook-files --exclude '^docs/' -- isort --check-only --filter-files",
    ]);
    // Without patterns, the checker finds the files itself.
    const plain = { ...project, ".pre-commit-config.yaml": filtered.replace("exclude: ^docs/\n", "") };
    expect(addedOf(detectTestCommand(facts(plain)))?.map((c) => c.command)).toContain(
      "isort --check-only --filter-files .",
    );
  });

  it("runs the hooks' checkers after a Python project's tests, with the hooks' arguments", () => {
    const project = { "pkg/calc.py": "", "tests/test_calc.py": "", ".pre-commit-config.yaml": CONFIG };
    expect(addedOf(detectTestCommand(facts(project)))).toEqual([
      // Ruff's hooks pass --force-exclude.
      { command: "ruff check --force-exclude", checks: "lint" },
      { command: "ruff format --check --force-exclude", checks: "lint" },
      { command: "flake8 --extend-exclude .venv", checks: "lint" },
      { command: "black --check --line-length=100 .", checks: "lint" },
      { command: "isort --check-only --profile black .", checks: "lint" },
      { command: "mypy --ignore-missing-imports .", checks: "types" },
    ]);
    // A configured checker the hooks do not run keeps its own command.
    const configured = { ...project, ".pre-commit-config.yaml": "repos: []\n", "mypy.ini": "[mypy]\nfiles = pkg\n" };
    expect(addedOf(detectTestCommand(facts(configured)))).toEqual([{ command: "mypy", checks: "types" }]);
  });

  it("installs the hooks' checkers in the virtual environment after the project, never stopping set-up", () => {
    const project = {
      "pkg/calc.py": "",
      "tests/test_calc.py": "",
      "requirements.txt": "requests\n",
      ".pre-commit-config.yaml": CONFIG,
    };
    const pip = ".venv/bin/python -m pip install --progress-bar off";
    expect(detectEnvironment(facts(project), "/c").commands).toEqual([
      "python3 -m venv .venv",
      `${pip} -r 'requirements.txt'`,
      `${pip} 'black==24.2.0' 'isort==5.13.2' 'ruff==0.4.1' 'flake8==7.0.0' 'mypy' 'flake8-bugbear==24.2.6' ` +
        `'flake8-docstrings' 'types-requests' || echo 'patchsmith: the pre-commit hooks'\\''` +
        ` checkers were not installed at their versions'`,
    ]);
    // The hooks alone make a virtual environment for them, which sees what the tests saw without it (the machine's
    // pytest) and installs nothing more; without Python files there is nothing to check.
    const bare = { "pkg/calc.py": "", "pytest.ini": "[pytest]\n", ".pre-commit-config.yaml": CONFIG };
    const { commands, environment } = detectEnvironment(facts(bare), "/c");
    expect(commands).toHaveLength(2);
    expect(commands[0]).toBe("python3 -m venv --system-site-packages .venv");
    expect(commands[1]).toMatch(
      /^\.venv\/bin\/python -m pip install --progress-bar off 'black==24\.2\.0' .* \|\| echo /,
    );
    expect(environment.path).toEqual(["/c/.venv/bin"]);
    expect(detectEnvironment(facts({ "index.js": "", ".pre-commit-config.yaml": CONFIG }), "/c").commands).toEqual([]);
    // Nor after `npm test`, which runs no Python check.
    const node = { "package.json": JSON.stringify({ scripts: { test: "node --test" } }), "scripts/gen.py": "" };
    expect(detectEnvironment(facts({ ...node, ".pre-commit-config.yaml": CONFIG }), "/c").commands).toEqual([]);
  });
});
