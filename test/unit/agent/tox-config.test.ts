import { describe, expect, it } from "vitest";
import { toxCommands, toxTestEnv } from "../../../src/agent/tox-config.js";

describe("toxTestEnv", () => {
  it("reads [testenv]'s deps and extras, values continued on indented lines, comments dropped", () => {
    const ini = [
      "[tox]",
      "envlist = py3, lint",
      "",
      "[testenv]",
      "deps =",
      "    pytest>=7  # the runner",
      "    # a comment line",
      "    hypothesis",
      "    -r requirements/test.txt",
      "    -c{toxinidir}/constraints.txt",
      "extras = testing, yaml",
      "commands = pytest {posargs}",
      "",
      "[testenv:lint]",
      "deps = ruff",
      "extras = docs",
    ].join("\n");
    expect(toxTestEnv(ini)).toEqual({
      deps: [["pytest>=7"], ["hypothesis"], ["-r", "requirements/test.txt"], ["-c", "constraints.txt"]],
      extras: ["testing", "yaml"],
    });
  });

  it("keeps the lines whose factor conditions hold for a test environment, and no Python version's", () => {
    const ini = [
      "[testenv]",
      "deps =",
      "    unit: pytest",
      "    unit: matplotlib; implementation_name != 'pypy'",
      "    doctest: sphinx",
      "    py311: tomli",
      "    lint,test: flake8-free",
      "    !docs: coverage",
      "    !unit: mypy",
      "    unit-py39: old-backport",
      "extras = unit: diagrams",
    ].join("\n");
    expect(toxTestEnv(ini)).toEqual({
      deps: [["pytest"], ["matplotlib; implementation_name != 'pypy'"], ["flake8-free"], ["coverage"]],
      extras: ["diagrams"],
    });
  });

  it("leaves out what only tox can expand or install, and says nothing without the file or the section", () => {
    const ini =
      "[testenv]\ndeps =\n    {[base]deps}\n    pygments=={env:PYGMENTS}\n    -e .\n    --pre\n    git+https://example.test/x.git#egg=x\n";
    expect(toxTestEnv(ini).deps).toEqual([["git+https://example.test/x.git#egg=x"]]);
    expect(toxTestEnv(undefined)).toEqual({ deps: [], extras: [] });
    expect(toxTestEnv("[testenv:py]\ndeps = pytest\n")).toEqual({ deps: [], extras: [] });
  });

  it("gives the commands of every test environment, continued lines included, and of no other section", () => {
    const ini =
      "[tox]\ncommands = not-a-test\n[testenv]\ncommands =\n    python -m unittest\n[testenv:lint]\ncommands = flake8\n";
    expect(toxCommands(ini)).toBe("python -m unittest\nflake8");
    expect(toxCommands(undefined)).toBe("");
  });
});
