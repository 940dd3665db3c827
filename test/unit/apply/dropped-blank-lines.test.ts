import { describe, expect, it } from "vitest";
import { applyEdits } from "../../../src/engine.js";

const FILE = [
  "def main():",
  "    dims = len(lengths)",
  "",
  "    # sort by length",
  "    order = sorted(dims)",
  "",
].join("\n");

const block = (search: string[], replace: string[]): string =>
  ["app.py", "```python", "<<<<<<< SEARCH", ...search, "=======", ...replace, ">>>>>>> REPLACE", "```", ""].join("\n");

async function apply(reply: string): Promise<string | undefined> {
  const result = await applyEdits(reply, (p) => (p === "app.py" ? FILE : undefined));
  return result.files.get("app.py") ?? undefined;
}

describe("a SEARCH that dropped the blank line between two of its lines", () => {
  const search = ["    dims = len(lengths)", "    # sort by length"];

  it("lands when the lines it adds there have a blank line on each side: one of them is the file's", async () => {
    const added = ["    dims = len(lengths)", "", "    if not dims:", "        return", "", "    # sort by length"];
    expect(await apply(block(search, added))).toBe(
      FILE.replace("lengths)\n\n", "lengths)\n\n    if not dims:\n        return\n\n"),
    );
  });

  it("is refused when they have one on one side only: they could belong on either side of the file's", async () => {
    for (const added of [
      ["    dims = len(lengths)", "    if not dims:", "        return", "", "    # sort by length"],
      ["    dims = len(lengths)", "", "    if not dims:", "        return", "    # sort by length"],
      ["    dims = len(lengths)", "    if not dims:", "        return", "    # sort by length"],
    ]) {
      expect(await apply(block(search, added))).toBeUndefined();
    }
  });

  it("is found as written first, where the file has the lines without the blank line", async () => {
    const twice = `${FILE}\ndef other():\n    dims = len(lengths)\n    # sort by length\n`;
    const result = await applyEdits(
      block(search, ["    dims = len(lengths)", "", "    x = 1", "", "    # sort by length"]),
      (p) => (p === "app.py" ? twice : undefined),
    );
    expect(result.files.get("app.py")).toBe(
      twice.replace("other():\n    dims = len(lengths)\n", "other():\n    dims = len(lengths)\n\n    x = 1\n\n"),
    );
  });
});
