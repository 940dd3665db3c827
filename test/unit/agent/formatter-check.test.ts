import { describe, expect, it } from "vitest";
import { formatterComplaints, MAX_FORMATTED_FILES, showCommand } from "../../../src/agent/formatter-check.js";

describe("formatterComplaints", () => {
  it("reads the files Prettier 3's and Prettier 2's checks name, not their closing warning", () => {
    const prettier3 = [
      "> eslint . && prettier -c src test",
      "Checking formatting...",
      "[warn] src/utils.ts",
      "[warn] src/parse.ts",
      "[warn] Code style issues found in 2 files. Run Prettier with --write to fix.",
    ].join("\n");
    expect(formatterComplaints(prettier3)).toEqual([
      { formatter: "prettier", paths: ["src/utils.ts", "src/parse.ts"] },
    ]);
    const prettier2 =
      "Checking formatting...\n[warn] lib/a.js\n[warn] Code style issues found in the above file(s). Forgot to run Prettier?\n";
    expect(formatterComplaints(prettier2)).toEqual([{ formatter: "prettier", paths: ["lib/a.js"] }]);
  });

  it("reads Black's absolute paths as paths in the clone, and leaves out what lies outside it", () => {
    const output = [
      "would reformat /tmp/clone/calc/bounds.py",
      "would reformat /etc/passwd",
      "would reformat ../outside.py",
      "",
      "Oh no! 💥 💔 💥",
      "3 files would be reformatted, 1 file would be left unchanged.",
    ].join("\n");
    expect(formatterComplaints(output, "/tmp/clone")).toEqual([{ formatter: "black", paths: ["calc/bounds.py"] }]);
  });

  it("keeps the first files of a check that names many, each once, and finds nothing in a passing run", () => {
    const many = Array.from({ length: 10 }, (_, i) => `[warn] src/f${String(i % 5)}.js`).join("\n");
    expect(formatterComplaints(many)[0]!.paths).toHaveLength(MAX_FORMATTED_FILES);
    expect(formatterComplaints(many)[0]!.paths).toEqual(["src/f0.js", "src/f1.js", "src/f2.js"]);
    expect(formatterComplaints("Checking formatting...\nAll matched files use Prettier code style!\n")).toEqual([]);
  });
});

describe("a pre-commit hook's options", () => {
  it("are read from the check that failed and given to the command showing the changes", () => {
    const black = formatterComplaints("would reformat calc/x.py\n", "/c", "black --check --line-length=100 .");
    expect(black).toEqual([{ formatter: "black", paths: ["calc/x.py"], options: "--line-length=100" }]);
    expect(showCommand("black", ["calc/x.py"], black[0]!.options)).toBe(
      "black --diff --quiet --no-color --line-length=100 -- 'calc/x.py' 2>/dev/null",
    );
    const isortOutput = "ERROR: /c/calc/x.py Imports are incorrectly sorted and/or formatted.\n";
    const isort = formatterComplaints(isortOutput, "/c", "isort --check-only --profile black .");
    expect(showCommand("isort", isort[0]!.paths, isort[0]!.options)).toBe(
      "isort --diff --quiet --profile black -- 'calc/x.py' 2>/dev/null",
    );
    const ruffOutput = "Would reformat: calc/x.py\n1 file would be reformatted, 3 files already formatted\n";
    const ruff = formatterComplaints(ruffOutput, "/c", "ruff format --check --line-length=100");
    expect(ruff).toEqual([{ formatter: "ruff", paths: ["calc/x.py"], options: "--line-length=100" }]);
    expect(showCommand("ruff", ruff[0]!.paths, ruff[0]!.options)).toBe(
      "ruff format --diff --no-cache --line-length=100 -- 'calc/x.py' 2>/dev/null",
    );
    // Through the shim that picks a hook's files, the options are the checker's.
    const shimmed = "patchsmith-hook-files --exclude '^docs/' -- black --check --line-length=100";
    expect(formatterComplaints("would reformat calc/x.py\n", "/c", shimmed)[0]!.options).toBe("--line-length=100");
    expect(
      formatterComplaints("would reformat calc/x.py\n", "/c", "patchsmith-hook-files --files x -- black --check")[0]!
        .options,
    ).toBeUndefined();
    // A check without options, or one the project's own script runs, gives none.
    expect(formatterComplaints("would reformat calc/x.py\n", "/c", "black --check .")[0]!.options).toBeUndefined();
    expect(formatterComplaints("would reformat calc/x.py\n", "/c", "make lint")[0]!.options).toBeUndefined();
    expect(formatterComplaints(ruffOutput, "/c", "ruff format --check")[0]!.options).toBeUndefined();
  });
});

describe("showCommand", () => {
  it("quotes every path, so a file name cannot run a command", () => {
    expect(showCommand("black", ["a b.py", "x';rm -rf ~;'.py"])).toBe(
      `black --diff --quiet --no-color -- 'a b.py' 'x'\\'';rm -rf ~;'\\''.py' 2>/dev/null`,
    );
    expect(showCommand("prettier", ["src/$(id).ts"])).toBe(
      `node_modules/.bin/prettier --no-color -- 'src/$(id).ts' 2>/dev/null`,
    );
  });
});
