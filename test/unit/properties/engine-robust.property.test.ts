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
});
