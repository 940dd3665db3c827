import { describe, expect, it } from "vitest";
import { isRequirementsFile, splitRequirements } from "../../../src/agent/requirements-file.js";

const reader =
  (files: Record<string, string>) =>
  (path: string): string | undefined =>
    files[path];

describe("splitRequirements", () => {
  it("reads one requirement a line, joining continuations and dropping comments and blank lines", () => {
    const text = [
      "# test tools",
      "pytest>=7  # the runner",
      "",
      "hypothesis[cli] \\",
      "  >=6.0",
      'tomli; python_version < "3.11"',
      "pkg @ https://example.invalid/pkg-1.0.tar.gz#sha256=abc",
    ].join("\n");
    expect(splitRequirements("requirements.txt", reader({ "requirements.txt": text }))).toEqual({
      requirements: [
        ["pytest>=7"],
        ["hypothesis[cli] >=6.0"],
        ['tomli; python_version < "3.11"'],
        ["pkg @ https://example.invalid/pkg-1.0.tar.gz#sha256=abc"],
      ],
      options: [],
    });
  });

  it("follows included files relative to the one naming them, once each, and keeps the file's options", () => {
    const files = {
      "requirements/dev.txt":
        "-r base.txt\n--requirement=./base.txt\n-c ../constraints.txt\n--pre\n-e ./plugin\nblack\n",
      "requirements/base.txt": "--extra-index-url https://mirror.invalid/simple\nattrs\n",
    };
    expect(splitRequirements("requirements/dev.txt", reader(files))).toEqual({
      requirements: [["attrs"], ["-e", "./plugin"], ["black"]],
      options: ["--extra-index-url", "https://mirror.invalid/simple", "-c", "constraints.txt", "--pre"],
    });
  });

  it("keeps a constraint given as an absolute path or a URL as it is", () => {
    const text = "-c /etc/pip/constraints.txt\n--constraint=https://example.invalid/c.txt\nattrs\n";
    expect(splitRequirements("requirements/dev.txt", reader({ "requirements/dev.txt": text }))?.options).toEqual([
      "-c",
      "/etc/pip/constraints.txt",
      "--constraint",
      "https://example.invalid/c.txt",
    ]);
  });

  it("does not split a file pinned by hash, with an option it does not know, or an include it cannot read", () => {
    const split = (text: string): unknown => splitRequirements("r.txt", reader({ "r.txt": text }));
    expect(split("attrs==23.1.0 --hash=sha256:0123\n")).toBeUndefined();
    expect(split("--require-hashes\nattrs\n")).toBeUndefined();
    expect(split("-r missing.txt\nattrs\n")).toBeUndefined();
    expect(split(Array.from({ length: 61 }, (_, i) => `pkg${String(i)}`).join("\n"))).toBeUndefined();
    expect(splitRequirements("absent.txt", reader({}))).toBeUndefined();
  });
});

describe("isRequirementsFile", () => {
  it("names requirement files at the top and in a requirements folder", () => {
    expect(
      ["requirements.txt", "dev-requirements.txt", "requirements_test.txt", "requirements/tests.in"].every(
        isRequirementsFile,
      ),
    ).toBe(true);
    expect(
      ["src/requirements.txt", "requirements/sub/x.txt", "requirements.md", "notes.txt"].some(isRequirementsFile),
    ).toBe(false);
  });
});
