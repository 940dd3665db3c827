import { describe, expect, it } from "vitest";
import { isElision } from "../../../src/formats/shared/elision.js";

describe("isElision", () => {
  it.each([
    "...",
    "    ...",
    "…",
    "// ... existing code ...",
    "  // ...",
    "# ... rest of file ...",
    "/* ... */",
    "<!-- ... -->",
    "{/* ... */}",
    "-- ...",
    "// rest of the file unchanged",
    "// existing code",
    "// keep the existing handlers ...",
  ])("recognises %j", (line) => {
    expect(isElision(line, "a.ts")).toBe(true);
  });

  it.each([
    "# TODO: fix this...",
    "// Existing code path for legacy clients",
    "# loading more...",
    "x = ...",
    "...rest",
    "foo(...args)",
  ])("leaves the ordinary line %j alone", (line) => {
    expect(isElision(line, "a.ts")).toBe(false);
  });

  it("treats a bare ... as code in Python files but still recognises comment elisions there", () => {
    expect(isElision("    ...", "pkg/a.py")).toBe(false);
    expect(isElision("...", "stubs/a.pyi")).toBe(false);
    expect(isElision("# ... existing code ...", "pkg/a.py")).toBe(true);
  });
});
