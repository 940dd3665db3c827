import { describe, expect, it } from "vitest";
import { isElision, isSuspectedElision } from "../../../src/formats/shared/elision.js";

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
    "// ... rest of the code",
    "# ... other handlers",
    "// ... (omitted)",
    "// ... same as before",
    "// ... previous methods",
    "# ... except on Windows 8 ...",
    "// …",
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
    "# ... except on Windows 8 and later, where",
    "// ...and then the handler runs",
    "/* ... see RFC 9110 */",
  ])("leaves the ordinary line %j alone", (line) => {
    expect(isElision(line, "a.ts")).toBe(false);
  });

  it("treats a bare ... as code in Python files but still recognises comment elisions there", () => {
    expect(isElision("    ...", "pkg/a.py")).toBe(false);
    expect(isElision("...", "stubs/a.pyi")).toBe(false);
    expect(isElision("# ... existing code ...", "pkg/a.py")).toBe(true);
  });

  it("suspects (for whole files) every comment that opens with an ellipsis, and every elision", () => {
    for (const line of [
      "# ... except on Windows 8 and later, where",
      "// ... keep as is",
      "// ... existing code ...",
    ]) {
      expect(isSuspectedElision(line, "a.ts")).toBe(true);
    }
    for (const line of ["# loading more...", "foo(...args)", "x = ...", "// see ... below"]) {
      expect(isSuspectedElision(line, "a.ts")).toBe(false);
    }
    expect(isSuspectedElision("    ...", "a.py")).toBe(false);
  });
});
