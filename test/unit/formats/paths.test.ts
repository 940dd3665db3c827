import { describe, expect, it } from "vitest";
import { cleanPath, looksLikePath, pathFromInfo, pathFromLine } from "../../../src/formats/shared/paths.js";

describe("cleanPath", () => {
  it.each([
    ["`src/a.py`", "src/a.py"],
    ["**src/a.py**", "src/a.py"],
    ["*src/a.py*", "src/a.py"],
    ["### src/a.py", "src/a.py"],
    ["# src/a.py", "src/a.py"],
    ["./src/a.py", "src/a.py"],
    ["src/a.py:", "src/a.py"],
    ['"src/a.py"', "src/a.py"],
    ["'src/a.py'", "src/a.py"],
    ["File: src/a.py", "src/a.py"],
    ["Path: src/a.py", "src/a.py"],
    ["**File:** `src/a.py`", "src/a.py"],
    ["### **`./src/a.py`**:", "src/a.py"],
    ["Filename: web\\src\\app.ts", "web/src/app.ts"],
    ["src/new.py (new file)", "src/new.py"],
    ["  src/a.py  ", "src/a.py"],
  ])("cleans %j to %j", (raw, clean) => {
    expect(cleanPath(raw)).toBe(clean);
  });

  it("keeps unsafe paths as written (the planner judges them)", () => {
    expect(cleanPath("`../etc/passwd`")).toBe("../etc/passwd");
    expect(cleanPath("/etc/hosts:")).toBe("/etc/hosts");
    expect(cleanPath("C:\\Windows\\x.ini")).toBe("C:/Windows/x.ini");
  });

  it("is idempotent", () => {
    for (const raw of ["**`a/b.ts`**:", "### File: ./x.md", "plain"])
      expect(cleanPath(cleanPath(raw))).toBe(cleanPath(raw));
  });
});

describe("looksLikePath", () => {
  it("accepts names with a slash, an extension, dotfiles and well-known names", () => {
    for (const p of ["src/a", "a.py", ".env", ".github/workflows/ci.yml", "Makefile", "Dockerfile", "LICENSE"]) {
      expect(looksLikePath(p), p).toBe(true);
    }
  });

  it("rejects prose, versions, URLs and headings", () => {
    for (const p of ["", "Here is the fix", "v2.0", "1.5", "e.g.", "https://x.y/z", "Build", "License", "```", "..."]) {
      expect(looksLikePath(p), p).toBe(false);
    }
  });

  it("accepts anything listed in knownPaths, spaces included", () => {
    const known = new Set(["docs/My Notes.md", "build"]);
    expect(looksLikePath("docs/My Notes.md", known)).toBe(true);
    expect(looksLikePath("build", known)).toBe(true);
    expect(looksLikePath("build")).toBe(false);
  });
});

describe("pathFromLine and pathFromInfo", () => {
  it("reads a prose line that ends by naming a path", () => {
    expect(pathFromLine("Update `src/app.ts`:")).toBe("src/app.ts");
    expect(pathFromLine("Here is **lib/util.js**:")).toBe("lib/util.js");
    expect(pathFromLine("Run `npm test`:")).toBeUndefined();
    expect(pathFromLine("Now change the function.")).toBeUndefined();
  });

  it("reads the path from fence info strings", () => {
    expect(pathFromInfo("src/a.py")).toBe("src/a.py");
    expect(pathFromInfo("python src/a.py")).toBe("src/a.py");
    expect(pathFromInfo('python title="src/a.py"')).toBe("src/a.py");
    expect(pathFromInfo("python:src/a.py")).toBe("src/a.py");
    expect(pathFromInfo("python")).toBeUndefined();
    expect(pathFromInfo("makefile")).toBeUndefined();
    expect(pathFromInfo("Dockerfile")).toBeUndefined();
    expect(pathFromInfo("Dockerfile", new Set(["Dockerfile"]))).toBe("Dockerfile");
    expect(pathFromInfo("")).toBeUndefined();
  });
});
