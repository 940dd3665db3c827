import { describe, expect, it } from "vitest";
import {
  foreignOrigin,
  pathSettingFiles,
  runsPythonDirectly,
  setsImportPath,
  srcPackages,
} from "../../../src/agent/python-origin.js";

describe("the origin of a src-layout Python package", () => {
  it("finds the packages of a src layout only", () => {
    expect(srcPackages(["src/click/__init__.py", "src/click/core.py", "tests/test_a.py", "lib/x/__init__.py"])).toEqual(
      ["click"],
    );
    expect(srcPackages(["flask/__init__.py", "src/app.js"])).toEqual([]);
  });

  it("asks only for test commands that run Python in the run's environment", () => {
    for (const command of [
      "python3 -m pytest",
      ".venv/bin/python -m pytest -x",
      "python -m unittest discover",
      "pytest",
    ])
      expect(runsPythonDirectly(command), command).toBe(true);
    for (const command of ["tox -e py311", "nox -s tests", "make test", "npm test", "pytest-watch"])
      expect(runsPythonDirectly(command), command).toBe(false);
  });

  it("is not looked up where the repository puts folders on the import path for pytest itself", () => {
    expect(pathSettingFiles(["conftest.py", "tests/conftest.py", "pyproject.toml", "src/a/__init__.py"])).toEqual([
      "conftest.py",
      "tests/conftest.py",
      "pyproject.toml",
    ]);
    expect(setsImportPath(['[tool.pytest.ini_options]\npythonpath = ["src"]\n'])).toBe(true);
    expect(setsImportPath(["import sys, os\nsys.path.insert(0, os.path.abspath('src'))\n"])).toBe(true);
    expect(setsImportPath(['[tool.pytest.ini_options]\ntestpaths = ["tests"]\n', "import pytest\n"])).toBe(false);
  });

  it("tells an import from the clone's src from one elsewhere, or none", () => {
    const names = ["click"];
    expect(foreignOrigin("click /clone/src/click/__init__.py\n", names, "/clone")).toBeUndefined();
    expect(foreignOrigin("click /usr/lib/python3/site-packages/click/__init__.py\n", names, "/clone")).toBe(
      "they import the repository's package `click` from /usr/lib/python3/site-packages/click/__init__.py, not from the clone's src/click/, so no change to the clone can show in them",
    );
    expect(
      foreignOrigin("click /clone/.venv/lib/python3.11/site-packages/click/__init__.py", names, "/clone"),
    ).toContain("not from the clone's src/click/");
    expect(foreignOrigin("click -\n", names, "/clone")).toContain("cannot be imported");
    expect(foreignOrigin("Traceback (most recent call last):\n", names, "/clone")).toBeUndefined();
  });
});
