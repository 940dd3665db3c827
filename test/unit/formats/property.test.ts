import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newLines, oldLines } from "../../../src/core/edit.js";
import { parseReply } from "../../../src/formats/registry.js";
import { as, edits, problems, reply } from "./helpers.js";

// Text that can be neither a marker, a fence, a path, an elision nor a Roo position line.
const safeLine = fc.stringMatching(/^[a-zA-Z0-9 (){};,_\t]{0,12}$/);
const safeLines = fc.array(safeLine, { maxLength: 12 });

// Lines that exercise every dialect's markers, mixed with noise.
const markerLine = fc.oneof(
  fc.constantFrom(
    "<<<<<<< SEARCH",
    "=======",
    ">>>>>>> REPLACE",
    "```",
    "```python",
    "~~~",
    "````",
    "*** Begin Patch",
    "*** End Patch",
    "*** Update File: a.py",
    "*** Add File: b.py",
    "*** Delete File: c.py",
    "*** Move to: d.py",
    "*** End of File",
    "@@",
    "@@ -1,2 +1,2 @@",
    "@@ anchor",
    "diff --git a/x b/x",
    "--- a/x",
    "+++ b/x",
    "--- /dev/null",
    "+++ /dev/null",
    "rename from x",
    "rename to y",
    "new file mode 100644",
    "GIT binary patch",
    "\\ No newline at end of file",
    "src/a.py",
    "...",
    "// ... existing code ...",
    ":start_line:3",
    "-------",
    "apply_patch <<'EOF'",
    "EOF",
    "",
    " ",
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ maxLength: 6 }).map((s) => `+${s}`),
  fc.string({ maxLength: 6 }).map((s) => `-${s}`),
  fc.string({ maxLength: 6 }).map((s) => ` ${s}`),
);

describe("parseReply properties", () => {
  it("never throws on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        expect(Array.isArray(parseReply(text))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("never throws on marker-rich replies, in any format, and always reports 1-based lines inside the reply", () => {
    const format = fc.constantFrom("auto", "editblock", "udiff", "patch", "whole" as const);
    fc.assert(
      fc.property(fc.array(markerLine, { maxLength: 60 }), format, fc.boolean(), (lines, fmt, crlf) => {
        const text = lines.join(crlf ? "\r\n" : "\n");
        const items = parseReply(text, { format: fmt });
        for (const p of problems(items)) {
          expect(p.line).toBeGreaterThanOrEqual(1);
          expect(p.line).toBeLessThanOrEqual(lines.length);
        }
        for (const e of edits(items)) {
          expect(e.origin.line).toBeGreaterThanOrEqual(1);
          expect(e.origin.line).toBeLessThanOrEqual(lines.length);
          if (fmt !== "auto") expect(e.origin.format).toBe(fmt);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("a SEARCH/REPLACE block round-trips: old side equals SEARCH, new side equals REPLACE", () => {
    fc.assert(
      fc.property(safeLines, safeLines, fc.boolean(), (search, replace, fenced) => {
        const body = ["<<<<<<< SEARCH", ...search, "=======", ...replace, ">>>>>>> REPLACE"];
        const text = reply("Change:", "src/mod.c", ...(fenced ? ["```c", ...body, "```"] : body));
        const items = parseReply(text);
        expect(problems(items)).toEqual([]);
        expect(items).toHaveLength(1);
        const edit = edits(items)[0]!;
        expect(edit.path).toBe("src/mod.c");
        if (search.every((l) => l.trim() === "")) {
          expect(as(edit, "create").content).toBe(replace.length === 0 ? "" : `${replace.join("\n")}\n`);
          return;
        }
        const ops = as(edit, "replace").ops;
        expect(oldLines(ops)).toEqual(search);
        expect(newLines(ops)).toEqual(replace);
        if (search.join("\n") === replace.join("\n")) expect(ops.every((o) => o.op === "context")).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("paired elisions stay paired around random edits", () => {
    fc.assert(
      fc.property(safeLines, safeLines, (before, changed) => {
        const search = [...before, "// ... existing code ...", "end"];
        const replace = [...changed, "...", "end"];
        const edit = as(
          edits(parseReply(reply("x.ts", "<<<<<<< SEARCH", ...search, "=======", ...replace, ">>>>>>> REPLACE")))[0],
          "replace",
        );
        expect(edit.ops.filter((o) => o.op === "elision")).toHaveLength(1);
        expect(oldLines(edit.ops)).toEqual(search);
      }),
      { numRuns: 200 },
    );
  });

  it("a unified-diff hunk round-trips its ops", () => {
    const op = fc.tuple(
      fc.constantFrom(" ", "-", "+"),
      safeLine.filter((s) => s !== ""),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 15 }), (ops) => {
        fc.pre(ops.some(([p]) => p !== " "));
        const text = reply("```diff", "--- a/f.txt", "+++ b/f.txt", "@@ @@", ...ops.map(([p, t]) => p + t), "```");
        const edit = as(edits(parseReply(text))[0], "replace");
        expect(edit.ops.map((o) => ({ context: " ", remove: "-", add: "+", elision: "?" })[o.op] + o.text)).toEqual(
          ops.map(([p, t]) => p + t),
        );
      }),
      { numRuns: 300 },
    );
  });
});
