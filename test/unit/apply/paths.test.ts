import { describe, expect, it } from "vitest";
import { normalizeRelativePath } from "../../../src/apply/paths.js";

const ok = (raw: string) => normalizeRelativePath(raw);

describe("normalizeRelativePath", () => {
  it.each([
    ["src/a.ts", "src/a.ts"],
    ["./src/a.ts", "src/a.ts"],
    ["src//a.ts", "src/a.ts"],
    ["src\\lib\\a.ts", "src/lib/a.ts"],
    ["src/./lib/../a.ts", "src/a.ts"],
    ["  README.md  ", "README.md"],
    [".github/workflows/ci.yml", ".github/workflows/ci.yml"],
    [".gitignore", ".gitignore"],
    ["a/.gitkeep", "a/.gitkeep"],
    ["..foo/bar", "..foo/bar"],
  ])("normalises %j to %j", (raw, expected) => {
    expect(ok(raw)).toEqual({ ok: true, path: expected });
  });

  it.each([
    ["/etc/passwd", "is absolute"],
    ["//server/share/x", "is absolute"],
    ["\\\\server\\share\\x", "is absolute"],
    ["C:\\Windows\\x.ini", "drive letter"],
    ["c:/x", "drive letter"],
    ["D:x", "drive letter"],
    ["../x", "climbs out"],
    ["src/../../x", "climbs out"],
    ["..", "climbs out"],
    ["a/b/../../../x", "climbs out"],
    ["..\\x", "climbs out"],
    ["", "is empty"],
    ["   ", "is empty"],
    [".", "names the repository root"],
    ["src/..", "names the repository root"],
    ["a\0b", "NUL"],
    ["a\nb", "control character"],
    [".git/config", ".git"],
    ["sub/.git/hooks/pre-commit", ".git"],
    [".GIT/HEAD", ".git"],
    ["./.git/config", ".git"],
    ["~/x", "home"],
    ["src/", "folder"],
  ])("refuses %j (%s)", (raw, why) => {
    const result = ok(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toContain(why);
      expect(result.message).toContain("relative to the repository root");
    }
  });

  it("quotes the path the model wrote in the message", () => {
    const result = ok("../../secrets.txt");
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('"../../secrets.txt"') as unknown });
  });
});
