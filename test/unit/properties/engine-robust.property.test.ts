/**
 * The engine on SEARCH blocks a model could drift anyhow: copied lines, typos, lines from elsewhere, blocks
 * longer than the whole file. Whatever lands or not, it answers every edit and never throws.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";

import { applyEdits } from "../../../src/engine.js";

const PATH = "src/app.ts";

// Few distinct lines, long enough for the fuzzy rung, so that blocks repeat and look alike.
const vocabulary = [
  "  const total = items.reduce((sum, item) => sum + item.price, 0);",
  "  return total;",
  "}",
  "",
  "export function computeTotal(items: readonly Item[]): number {",
  "  if (items.length === 0) throw new Error('no items to total');",
  "  logger.debug(`computed ${items.length} items`);",
];
const line = fc.constantFrom(...vocabulary);

/** One SEARCH line: a line of the file, a vocabulary line, or either with one character changed. */
function searchLine(file: readonly string[]): fc.Arbitrary<string> {
  const copied = fc.nat().map((i) => file[i % file.length]!);
  const typo = fc
    .tuple(fc.oneof(copied, line), fc.nat(), fc.constantFrom("x", " ", "'"))
    .map(([text, at, c]) =>
      text === "" ? c : text.slice(0, at % text.length) + c + text.slice((at % text.length) + 1),
    );
  return fc.oneof(copied, line, typo);
}

describe("engine robustness", () => {
  test("answers every drifted SEARCH block, of any length against any file, without throwing", async () => {
    const drifted = fc
      .array(line, { minLength: 1, maxLength: 12 })
      .chain((file) =>
        fc.tuple(
          fc.constant(file),
          fc.array(fc.array(searchLine(file), { minLength: 1, maxLength: 18 }), { minLength: 1, maxLength: 3 }),
        ),
      );
    await fc.assert(
      fc.asyncProperty(drifted, async ([file, searches]) => {
        const before = `${file.join("\n")}\n`;
        const reply = searches
          .map((search) =>
            [
              PATH,
              "```ts",
              "<<<<<<< SEARCH",
              ...search,
              "=======",
              ...search,
              "  audit();",
              ">>>>>>> REPLACE",
              "```",
            ].join("\n"),
          )
          .join("\n\n");
        const result = await applyEdits(reply, (p) => (p === PATH ? before : undefined), { knownPaths: [PATH] });
        expect(result.results).toHaveLength(searches.length);
        // A reply is applied all or nothing: a refused edit leaves the file as it was.
        if (result.results.some((r) => !r.ok)) expect(result.files.get(PATH) ?? before).toBe(before);
      }),
      { numRuns: 400 },
    );
  });

  test("answers any mix of dialect markers, fences and code lines without throwing", async () => {
    const piece = fc.constantFrom(
      "```",
      "```diff",
      "```ts",
      " ```",
      "  ```",
      "~~~",
      "@@ -1,3 +1,3 @@",
      "@@ -40,0 +41,2 @@",
      "@@ @@",
      "@@ ... @@",
      "--- a/src/app.ts",
      "+++ b/src/app.ts",
      "--- /dev/null",
      "diff --git a/src/app.ts b/src/app.ts",
      "*** Begin Patch",
      "*** Update File: src/app.ts",
      "*** Add File: src/new.ts",
      "*** End of File",
      "*** End Patch",
      "<<<<<<< SEARCH",
      "=======",
      ">>>>>>> REPLACE",
      "src/app.ts",
      "\\ No newline at end of file",
      "+  audit();",
      "-}",
      " }",
      "",
      "...",
      "  // ... existing code ...",
      ...vocabulary,
      ...vocabulary.map((l) => ` ${l}`),
      ...vocabulary.map((l) => `-${l}`),
    );
    const before = `${vocabulary.join("\n")}\n${vocabulary.join("\n")}\n`;
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 40 }), async (lines) => {
        const result = await applyEdits(lines.join("\n"), (p) => (p === PATH ? before : undefined), {
          knownPaths: [PATH],
        });
        if (result.results.some((r) => !r.ok)) expect(result.files.get(PATH) ?? before).toBe(before);
      }),
      { numRuns: 1500 },
    );
  });
});
