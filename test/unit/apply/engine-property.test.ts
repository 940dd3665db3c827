/**
 * Property: whatever mix of valid and broken blocks a reply holds, nothing is ever written outside the root, and a
 * refused reply (all or nothing, any failure) leaves the tree exactly as it was.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyReply } from "../../../src/engine.js";

let base: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "patchsmith-property-"));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Every file under dir, path → content. */
async function readTree(dir: string, prefix = ""): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) for (const [k, v] of await readTree(path.join(dir, entry.name), rel)) tree.set(k, v);
    else tree.set(rel, await readFile(path.join(dir, entry.name), "utf8"));
  }
  return tree;
}

const word = fc.constantFrom("alpha", "beta", "gamma", "delta", "return x;", "}", "const y = 2;", "");
const fileName = fc.constantFrom("a.ts", "b.ts", "src/c.ts", "src/deep/d.ts");
const treeArb = fc.dictionary(fileName, fc.array(word, { minLength: 1, maxLength: 8 }), { minKeys: 1, maxKeys: 4 });

type Block = { path: string; search: readonly string[]; replace: readonly string[] };
const escapingPath = fc.constantFrom(
  "../outside/x.ts",
  "@ABS@",
  "src/../../outside/y.ts",
  "..\\outside\\z.ts",
  ".git/config",
);

const blockArb = (files: Record<string, string[]>): fc.Arbitrary<Block> => {
  const names = Object.keys(files);
  const existing = fc.constantFrom(...names);
  return fc.oneof(
    // Valid-looking: a real line of a real file.
    existing.chain((p) =>
      fc.record({
        path: fc.constant(p),
        search: fc.constantFrom(...files[p]!.map((l) => [l])),
        replace: fc.array(word, { maxLength: 3 }),
      }),
    ),
    // Not in the file.
    fc.record({
      path: existing,
      search: fc.constant(["no such line at all"]),
      replace: fc.array(word, { maxLength: 2 }),
    }),
    // Creation (empty SEARCH) on a new or an existing path.
    fc.record({
      path: fc.oneof(existing, fc.constantFrom("new.ts", "src/new/e.ts")),
      search: fc.constant([]),
      replace: fc.array(word, { minLength: 1, maxLength: 3 }),
    }),
    // Paths that try to leave the root.
    fc.record({ path: escapingPath, search: fc.constant([]), replace: fc.constant(["pwned"]) }),
  );
};

/** "@ABS@" becomes an absolute path inside the run's folder, so an escape would show up in its listing. */
const render = (b: Block, dir: string) =>
  `${b.path.replace("@ABS@", path.join(dir, "abs.ts"))}\n\`\`\`\n<<<<<<< SEARCH\n${b.search.join("\n")}${b.search.length > 0 ? "\n" : ""}=======\n${b.replace.join("\n")}${
    b.replace.length > 0 ? "\n" : ""
  }>>>>>>> REPLACE\n\`\`\`\n`;

let runId = 0;
/** How many runs wrote something and how many were refused: both must happen for the property to mean much. */
const seen = { wrote: 0, refused: 0 };

describe("applyReply property", () => {
  it("never writes outside the root; a refusal never changes the tree", async () => {
    const scenario = treeArb.chain((files) =>
      fc.record({
        files: fc.constant(files),
        blocks: fc.array(blockArb(files), { minLength: 1, maxLength: 5 }),
        partial: fc.boolean(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(scenario, async ({ files, blocks, partial }) => {
        const dir = path.join(base, `run-${runId++}`);
        const root = path.join(dir, "root");
        const outside = path.join(dir, "outside");
        await mkdir(outside, { recursive: true });
        await writeFile(path.join(outside, "keep.txt"), "untouched\n");
        for (const [name, lines] of Object.entries(files)) {
          await mkdir(path.dirname(path.join(root, name)), { recursive: true });
          await writeFile(path.join(root, name), lines.join("\n") + "\n");
        }
        const before = await readTree(root);
        const report = await applyReply(blocks.map((b) => render(b, dir)).join("\nand then\n\n"), { root, partial });
        expect(await readTree(outside)).toEqual(new Map([["keep.txt", "untouched\n"]]));
        expect((await readdir(dir)).sort()).toEqual(["outside", "root"]);
        const failed = report.results.some((r) => !r.ok);
        if (report.written.length > 0) seen.wrote++;
        if (failed && !partial) {
          seen.refused++;
          expect(await readTree(root)).toEqual(before);
          expect(report.written).toEqual([]);
        }
        if (!failed) expect(report.results.length).toBeGreaterThan(0);
        await rm(dir, { recursive: true, force: true });
      }),
      { numRuns: 60 },
    );
    expect(seen.wrote).toBeGreaterThan(5);
    expect(seen.refused).toBeGreaterThan(5);
  });
});
