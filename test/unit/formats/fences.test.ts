import { describe, expect, it } from "vitest";
import { parseReply } from "../../../src/formats/registry.js";
import { linesOutsideFences, parseFenceLine, scanFence } from "../../../src/formats/shared/fences.js";
import { as, parseOne, reply } from "./helpers.js";

/** Scans the block opened at line 0 of `lines`, offering every line to `stop` only when `stops` names it. */
function scan(lines: string[], stops: number[] = [], nested = true) {
  const opener = parseFenceLine(lines[0]!);
  if (opener === undefined) throw new Error("line 0 is no fence");
  const offered: number[] = [];
  const result = scanFence(
    lines,
    0,
    opener,
    (j) => {
      offered.push(j);
      return stops.includes(j);
    },
    nested,
  );
  return { ...result, offered };
}

describe("scanFence", () => {
  it("a shorter bare fence inside a longer one is content, not a nested opener (CommonMark)", () => {
    expect(scan(["````ts", " * ```ts", " ```", "x", "````"]).end).toBe(4);
    expect(scan(["````", "```", "````"]).end).toBe(2);
    expect(scan(["~~~~", "~~~", "~~~~"]).end).toBe(2);
  });

  it("a shorter nested block left open cannot keep the longer block open", () => {
    expect(scan(["````markdown", "```python", "print(1)", "````", "after"]).end).toBe(3);
  });

  it("keeps the model habit with same-length fences: an info string opens a nested block", () => {
    expect(scan(["```markdown", "```bash", "npm i", "```", "Done.", "```"]).end).toBe(5);
    expect(scan(["```markdown", "```bash", "```js", "```", "```", "```"]).end).toBe(5);
  });

  it("a longer bare fence does not close while a same-length nested block is open", () => {
    // The nested ``` block is at least as long as the opener, so the bare ```` ends it, not the outer block.
    expect(scan(["```md", "```js", "x", "````", "```"]).end).toBe(4);
  });

  it("a bare fence that cannot close (too indented) is content rather than a nested opener", () => {
    expect(scan(["```", "    ```", "x", "```"]).end).toBe(3);
  });

  it("a bare fence indented deeper than the opener is content (a diff's ' ```' context line, a list item's fence)", () => {
    expect(scan(["```diff", " ```", "-a", "+b", " ```", "```"]).end).toBe(5);
    expect(scan(["```markdown", "   ```", "   npm publish", "   ```", "```"]).end).toBe(4);
    // An indented opener closes at its own column or less.
    expect(scan(["   ```", "   a", "   ```"]).end).toBe(2);
    expect(scan(["  ```", "a", "```"]).end).toBe(2);
  });

  it("reports an unclosed block", () => {
    expect(scan(["````", "```js", "x", "```"])).toMatchObject({ end: undefined, stop: undefined });
  });

  it("offers only own-level lines when nested is false, and never the opener's kind of fence lines", () => {
    const lines = ["````md", "a", "```", "b", "```js", "c", "```", "~~~", "d", "````"];
    // A stray ``` (index 2) is content but a fence line: not offered. Inside ```js (5) nothing is offered.
    expect(scan(lines, [], false)).toMatchObject({ end: 9, offered: [1, 3, 7, 8] });
    expect(scan(lines, [], true)).toMatchObject({ end: 9, offered: [1, 3, 5, 7, 8] });
    expect(scan(lines, [3])).toMatchObject({ end: undefined, stop: 3 });
  });
});

describe("fences in whole-file replies", () => {
  it("a ```` whole file with a stray ``` line (a JSDoc example's end) is the whole file", () => {
    const body = ["/**", " * ```typescript", " const git = simpleGit();", " ```", " */", "export class E {}"];
    const edit = as(parseOne(reply("git-error.d.ts", "````typescript", ...body, "````")), "rewrite");
    expect(edit.content).toBe(`${body.join("\n")}\n`);
  });

  it("examples inside a ```` file stay documentation: no blocks parsed, no elisions suspected", () => {
    const body = ["# Usage", "```text", "<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE", "```"];
    const more = ["```js", "// ... existing code ...", "```", "Done."];
    const items = parseReply(reply("docs/usage.md", "````markdown", ...body, ...more, "````"));
    expect(items).toHaveLength(1);
    const edit = as(items[0]?.type === "edit" ? items[0].edit : undefined, "rewrite");
    expect(edit.content).toBe(`${[...body, ...more].join("\n")}\n`);
    expect(edit).not.toHaveProperty("suspectedElisions");
  });

  it("an elision after a stray shorter fence is still suspected (the stray fence hides nothing)", () => {
    const edit = as(parseOne(reply("a.ts", "````ts", "```", "// ... existing code ...", "x();", "````")), "rewrite");
    expect(edit.suspectedElisions).toEqual([1]);
  });
});

describe("linesOutsideFences", () => {
  it("skips each block up to its own closing fence, a longer fence holding shorter ones", () => {
    const text = ["COMMIT: a", "````md", "```", "COMMIT: inside", "```", "````", "COMMIT: b", "~~~", "x"].join("\n");
    expect(linesOutsideFences(text)).toEqual(["COMMIT: a", "COMMIT: b"]);
  });

  it("a diff's context line that reads as a fence stays inside the block", () => {
    const text = ["COMMIT: a", "```diff", "@@ -1,2 +1,2 @@", " ```", "-x", "+y", " ```", "```", "COMMIT: b"].join("\n");
    expect(linesOutsideFences(text)).toEqual(["COMMIT: a", "COMMIT: b"]);
  });
});
