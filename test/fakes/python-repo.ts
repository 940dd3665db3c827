/**
 * A Python project whose tests need a package from an index, installed the way pip installs a project for its
 * tests: `pip install -e '.[test]'` into a virtual environment. Its build backend lives in the repository (PEP 517
 * `backend-path`), so no build tool has to come from the network; the `test` extra names the index's package.
 */
import { git, writeFiles, type TempRepo } from "./git-repos.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FakeIndex } from "./pypi-index.js";

export const CALC_BUGGY = "    return value * 9 / 5 - 32";
export const CALC_FIXED = "    return value * 9 / 5 + 32";

/** A unittest module that checks `to_fahrenheit` of the package `module`. */
export const calcUnittest = (module: string): string =>
  [
    "import unittest",
    `from ${module} import to_fahrenheit`,
    "",
    "class CalcTest(unittest.TestCase):",
    "    def test_boiling(self):",
    "        self.assertEqual(to_fahrenheit(100), 212)",
    "",
  ].join("\n");

const BACKEND = `"""An in-tree PEP 517/660 backend: enough to build this project's wheel and editable wheel."""
import base64, hashlib, os, zipfile

NAME, VERSION = "flagcalc", "1.0.0"
DIST = f"{NAME}-{VERSION}.dist-info"
META = (
    f"Metadata-Version: 2.1\\nName: {NAME}\\nVersion: {VERSION}\\n"
    "Provides-Extra: test\\nRequires-Dist: tinycheck; extra == 'test'\\n"
)


def get_requires_for_build_wheel(config_settings=None):
    return []


get_requires_for_build_editable = get_requires_for_build_wheel


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    os.makedirs(os.path.join(metadata_directory, DIST), exist_ok=True)
    with open(os.path.join(metadata_directory, DIST, "METADATA"), "w") as f:
        f.write(META)
    return DIST


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def _wheel(directory, files):
    files = dict(files)
    files[f"{DIST}/METADATA"] = META
    files[f"{DIST}/WHEEL"] = "Wheel-Version: 1.0\\nGenerator: in-tree\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    files[f"{DIST}/RECORD"] = "\\n".join(record + [f"{DIST}/RECORD,,"]) + "\\n"
    name = f"{NAME}-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, name), "w") as z:
        for path, text in files.items():
            z.writestr(path, text)
    return name


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, {f"_{NAME}_editable.pth": os.getcwd() + "\\n"})


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    src = os.path.join(os.getcwd(), NAME)
    files = {}
    for name in os.listdir(src):
        if name.endswith(".py"):
            with open(os.path.join(src, name)) as f:
                files[f"{NAME}/{name}"] = f.read()
    return _wheel(wheel_directory, files)
`;

/**
 * `index`: the index the repository's own settings name (none: the host's pip settings decide). `declared`: where
 * the test dependency is named: pyproject.toml's optional-dependencies extra (`test`) or PEP 735
 * dependency group (`tests`), or tox.ini's test environment (beside a docs line naming a package no index has).
 */
export function makeFlagcalcRepo(
  index: FakeIndex | undefined,
  declared: "extra" | "group" | "tox" | "requirements" = "extra",
): TempRepo {
  const dir = mkdtempSync(join(tmpdir(), "patchsmith-pyproj-"));
  writeFiles(dir, {
    ".gitignore": "__pycache__/\n*.egg-info/\n.venv/\n",
    // Without an index of its own the project installs from wherever the host's pip settings say.
    ...(index === undefined
      ? {}
      : {
          ".github/patchsmith.yml": ["env:", `  PIP_INDEX_URL: ${index.url}`, "  PIP_TRUSTED_HOST: 127.0.0.1", ""].join(
            "\n",
          ),
        }),
    "pyproject.toml": [
      "[build-system]",
      "requires = []",
      'build-backend = "backend"',
      'backend-path = ["_build"]',
      "",
      "[project]",
      'name = "flagcalc"',
      'version = "1.0.0"',
      "",
      ...(declared === "extra"
        ? ["[project.optional-dependencies]", 'test = ["tinycheck"]']
        : declared === "group"
          ? ["[dependency-groups]", 'tests = [{ include-group = "checks" }]', 'checks = ["tinycheck"]']
          : []),
      "",
    ].join("\n"),
    ...(declared === "tox"
      ? {
          "tox.ini":
            "[tox]\nenvlist = unit, docs\n\n[testenv]\ndeps =\n    unit: tinycheck\n    docs: no-such-doc-tool\n",
        }
      : {}),
    // Beside tinycheck, a requirement no index has: pip then installs neither.
    ...(declared === "requirements" ? { "requirements-dev.txt": "tinycheck\npatchsmith-absent-tool>=1\n" } : {}),
    "_build/backend.py": BACKEND,
    "flagcalc/__init__.py": ['"""Temperatures."""', "", "", "def to_fahrenheit(value):", CALC_BUGGY, ""].join("\n"),
    "tests/__init__.py": "",
    "tests/test_calc.py": [
      "import unittest",
      "",
      "from tinycheck import check_equal",
      "",
      "from flagcalc import to_fahrenheit",
      "",
      "",
      "class CalcTest(unittest.TestCase):",
      "    def test_boiling(self):",
      "        check_equal(to_fahrenheit(100), 212)",
      "",
    ].join("\n"),
  });
  git(dir, ["init", "--quiet", "--initial-branch", "main"]);
  git(dir, ["add", "--all"]);
  git(dir, ["commit", "--quiet", "-m", "Initial commit"]);
  return {
    dir,
    branch: "main",
    headSha: git(dir, ["rev-parse", "HEAD"]).trim(),
    testCommand: "python3 -m unittest discover -s tests",
    bug: { path: "flagcalc/__init__.py", buggy: CALC_BUGGY, fixed: CALC_FIXED, failingTest: "test_boiling" },
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
