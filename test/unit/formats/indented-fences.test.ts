/** Fences indented inside list items: their lines lose the opener's indentation, as in CommonMark. */
import { describe, expect, it } from "vitest";
import { parseReply } from "../../../src/formats/registry.js";
import { dedentFences } from "../../../src/formats/shared/fences.js";
import { as, edits, opList, parseOne, problems, reply } from "./helpers.js";

describe("dedentFences", () => {
  it("strips up to the opener's indentation from the block, and leaves other lines alone", () => {
    const lines = ["1. Item:", "", "   ```py", "   a", "     b", " c", "", "   ```", "   after"];
    dedentFences(lines);
    expect(lines).toEqual(["1. Item:", "", "```py", "a", "  b", "c", "", "```", "   after"]);
  });

  it("does not touch the content of a fence at column 0, nested indented fences included", () => {
    const lines = ["README.md", "```markdown", "- step", "   ```sh", "   make", "   ```", "```"];
    const before = [...lines];
    dedentFences(lines);
    expect(lines).toEqual(before);
  });

  it("inside a patch's body, a context line that reads as a fence neither closes the block nor opens one", () => {
    // A diff of a Markdown file: " ```" is context. CommonMark would close the block there, and the list item's
    // indentation would then be stripped from the wrong lines.
    const diff = ["@@ -1,3 +1,3 @@", " ```", "-a", "+b", " ```", "@@ -9,2 +9,2 @@", "  x", "-y", "+z"];
    const lines = ["1. Fix:", "   ```diff", ...diff.map((l) => `   ${l}`), "   ```", "   after"];
    dedentFences(lines);
    expect(lines).toEqual(["1. Fix:", "```diff", ...diff, "```", "   after"]);
    const envelope = ["*** Begin Patch", "*** Update File: a.md", "@@", " ```", "-a", "+b", " ```", "*** End Patch"];
    const patch = ["  ```", ...envelope.map((l) => `  ${l}`), "  ```", "  after"];
    dedentFences(patch);
    expect(patch).toEqual(["```", ...envelope, "```", "  after"]);
  });

  it("de-indents an unclosed indented block to the end of the reply", () => {
    const lines = ["  ```", "  a", "    b"];
    dedentFences(lines);
    expect(lines).toEqual(["```", "a", "  b"]);
  });
});

describe("indented fences in replies", () => {
  it("reads a unified diff in an indented ```diff fence", () => {
    const text = reply(
      "1. First change:",
      "",
      "   ```diff",
      "   --- a/m.py",
      "   +++ b/m.py",
      "   @@ -1,3 +1,3 @@",
      "    a = 1",
      "   -b = 2",
      "   +b = 20",
      "    c = 3",
      "   ```",
    );
    const edit = parseOne(text);
    expect(edit.path).toBe("m.py");
    expect(opList(edit)).toEqual(["c:a = 1", "-:b = 2", "+:b = 20", "c:c = 3"]);
  });

  it("reads an apply_patch in an indented fence", () => {
    const text = reply(
      "1. Apply this:",
      "",
      "   ```",
      "   *** Begin Patch",
      "   *** Update File: w.txt",
      "   @@",
      "    x",
      "   -y",
      "   +Y",
      "   *** End Patch",
      "   ```",
    );
    expect(opList(parseOne(text))).toEqual(["c:x", "-:y", "+:Y"]);
  });

  it("creates and rewrites files without the list item's indentation", () => {
    const text = reply(
      "1. Create `n.py`:",
      "",
      "   n.py",
      "   ```python",
      "   <<<<<<< SEARCH",
      "   =======",
      "   def f():",
      "       return 1",
      "   >>>>>>> REPLACE",
      "   ```",
      "",
      "2. Replace `m.py`:",
      "",
      "   m.py",
      "   ```python",
      "   a = 2",
      "   ```",
    );
    const items = parseReply(text);
    expect(problems(items)).toEqual([]);
    const [created, rewritten] = edits(items);
    expect(as(created, "create").content).toBe("def f():\n    return 1\n");
    expect(as(rewritten, "rewrite").content).toBe("a = 2\n");
    expect(rewritten?.origin.line).toBe(15);
  });
});
