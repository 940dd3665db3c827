import { describe, expect, it } from "vitest";
import { workflowChecks } from "../../../src/agent/workflow-checks.js";
import { detectTestCommand, type Detection } from "../../../src/agent/test-command.js";

/** A workflow as Python projects write them: set-up steps, the checkers, the tests, lines that are not checks. */
const CI = `
name: CI
on: [push, pull_request]
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pip install flake8 black isort mypy ruff
      - name: Lint with flake8
        run: |
          # stop the build on syntax errors or undefined names
          flake8 . --count --select=E9,F63,F7,F82 --show-source --statistics
          # only warnings
          flake8 . --count --exit-zero --max-complexity=10 --max-line-length=127 --statistics
      - run: poetry run black --check --diff .
      - run: python -m isort --check-only --profile black src tests
      - run: black .
      - run: ruff src
      - run: ruff check --fix .
      - run: ruff format --check
      - run: ruff rule F401
      - run: |
          mypy \\
            --strict src
      - run: mypy \${{ matrix.target }}
      - run: flake8 src | tee lint.log
  test:
    runs-on: ubuntu-latest
    steps:
      - run: python -m pytest
      - run: uv run flake8 . --count --select=E9,F63,F7,F82 --show-source --statistics
`;

const commands = (text: string) =>
  Object.fromEntries([...workflowChecks(new Map([["ci.yml", text]]))].map(([id, c]) => [id, c.map((x) => x.command)]));

describe("workflowChecks", () => {
  it("takes each checker's calls as CI runs them, without runner prefixes, and leaves out what is no check", () => {
    expect(commands(CI)).toEqual({
      flake8: ["flake8 . --count --select=E9,F63,F7,F82 --show-source --statistics --extend-exclude .venv"],
      black: ["black --check --diff ."],
      isort: ["isort --check-only --profile black src tests"],
      ruff: ["ruff check src"],
      "ruff-format": ["ruff format --check"],
      mypy: ["mypy --strict src"],
    });
    for (const text of ["", "jobs: [", "jobs:\n  a:\n    steps: 3\n", "on: push\n"]) expect(commands(text)).toEqual({});
  });

  it("replaces what a Python project's configuration or hook would run for the same checker", () => {
    const addedOf = (detection: Detection) => (detection.kind === "python" ? detection.added : undefined);
    const files: Record<string, string> = {
      "pkg/calc.py": "",
      "tests/test_calc.py": "",
      ".flake8": "[flake8]\n",
      "mypy.ini": "[mypy]\n",
      ".github/workflows/ci.yml": "jobs:\n  l:\n    steps:\n      - run: flake8 pkg\n",
    };
    const facts = { paths: Object.keys(files), read: (p: string) => files[p] };
    expect(addedOf(detectTestCommand(facts))).toEqual([
      { command: "flake8 pkg --extend-exclude .venv", checks: "lint" },
      { command: "mypy", checks: "types" },
    ]);
  });
});
