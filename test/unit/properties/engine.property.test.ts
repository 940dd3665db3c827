/**
 * Properties of the whole edit engine (applyReply on real temp folders): exact unique edits land and touch
 * nothing else; nothing is ever written outside the root; a refused reply leaves the tree byte-identical.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import fc from "fast-check";
import { afterEach, describe, expect, test } from "vitest";

import { applyReply } from "../../../src/engine.js";
import { diffSnapshots, snapshotTree } from "../../scenarios/corpus.js";

const bases: string[] = [];
afterEach(async () => {
  await Promise.all(bases.splice(0).map((b) => rm(b, { recursive: true, force: true })));
});

/** A temp folder with `root/` (the tree) and a sibling `outside/secret.txt`. */
async function makeBase(files: Readonly<Record<string, string>>): Promise<{ base: string; root: string }> {
  const base = await mkdtemp(join(tmpdir(), "patchsmith-prop-"));
  bases.push(base);
  const root = join(base, "root");
  await mkdir(join(base, "outside"), { recursive: true });
  await writeFile(join(base, "outside", "secret.txt"), "token: do-not-touch\n");
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  await mkdir(root, { recursive: true });
  return { base, root };
}

const editblock = (path: string, search: readonly string[], replace: readonly string[]): string =>
  [path, "```", "<<<<<<< SEARCH", ...search, "=======", ...replace, ">>>>>>> REPLACE", "```"].join("\n");

// Line text without the characters that make markers, fences, elisions or comments-as-elisions.
const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/);
const codeTail = fc.stringMatching(/^[a-zA-Z0-9_ (){};,+*/:"'-]{0,30}$/).map((s) => s.trimEnd());
const indent = fc.integer({ min: 0, max: 3 }).map((n) => "  ".repeat(n));
/** File lines made unique by their index, so any window of them occurs exactly once. */
const uniqueLines = fc
  .array(fc.tuple(indent, word, codeTail), { minLength: 3, maxLength: 40 })
  .map((parts) => parts.map(([ws, w, tail], i) => `${ws}${w}_${i}${tail === "" ? "" : ` ${tail}`}`));
const replacementLines = fc.array(
  fc.oneof(
    fc.tuple(indent, word, codeTail).map(([ws, w, tail]) => `${ws}${w}${tail === "" ? "" : ` ${tail}`}`),
    fc.constant(""),
  ),
  { maxLength: 6 },
);

describe("engine properties", () => {
  test("an exact SEARCH of a unique window always lands, and changes nothing else", async () => {
    await fc.assert(
      fc.asyncProperty(
        uniqueLines,
        fc.nat(),
        fc.nat(),
        replacementLines,
        fc.boolean(),
        async (lines, x, y, replacement, crlf) => {
          const a = x % lines.length;
          const b = a + 1 + (y % (lines.length - a));
          const window = lines.slice(a, b);
          fc.pre(window.join("\n") !== replacement.join("\n"));
          const eol = crlf ? "\r\n" : "\n";
          const content = lines.join(eol) + eol;
          const { base, root } = await makeBase({
            "src/target.ts": content,
            "src/other.ts": content,
            "README.md": "# x\n",
          });
          const before = await snapshotTree(base);
          const report = await applyReply(
            `Here is the change:\n\n${editblock("src/target.ts", window, replacement)}\n`,
            {
              root,
            },
          );
          expect(report.results.every((r) => r.ok)).toBe(true);
          const expected = [...lines.slice(0, a), ...replacement, ...lines.slice(b)];
          const expectedText = expected.length === 0 ? "" : expected.join(eol) + eol;
          expect(await readFile(join(root, "src/target.ts"), "utf8")).toBe(expectedText);
          const changed = diffSnapshots(before, await snapshotTree(base));
          expect(changed.filter((p) => p !== "root/src/target.ts")).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  test("nothing is ever written outside the root, whatever the path", async () => {
    const segment = fc.constantFrom("..", ".", "src", "link-dir", "link-file", "notes.txt", "a", "..\\..");
    const pathArb = fc.tuple(
      fc.constantFrom("", "/", "BASE/", "./"),
      fc.array(segment, { minLength: 1, maxLength: 5 }),
    );
    const action = fc.constantFrom("create", "add", "whole", "update", "delete", "move", "udiff-create");
    await fc.assert(
      fc.asyncProperty(pathArb, action, async ([prefix, segments], kind) => {
        const { base, root } = await makeBase({
          "src/app.ts": "export const app = 1;\n",
          "notes.txt": "token: do-not-touch\n",
        });
        await symlink("../outside", join(root, "link-dir"));
        await symlink("../outside/secret.txt", join(root, "link-file"));
        const path = (prefix === "BASE/" ? `${base}/` : prefix) + segments.join("/");
        const body = {
          create: editblock(path, [], ["pwned = True"]),
          update: editblock(path, ["token: do-not-touch"], ["token: stolen"]),
          whole: `${path}\n\`\`\`\npwned\n\`\`\``,
          add: ["```", "*** Begin Patch", `*** Add File: ${path}`, "+pwned", "*** End Patch", "```"].join("\n"),
          delete: ["```", "*** Begin Patch", `*** Delete File: ${path}`, "*** End Patch", "```"].join("\n"),
          move: [
            "```",
            "*** Begin Patch",
            "*** Update File: src/app.ts",
            `*** Move to: ${path}`,
            "@@",
            "-export const app = 1;",
            "+export const app = 2;",
            "*** End Patch",
            "```",
          ].join("\n"),
          "udiff-create": ["```diff", "--- /dev/null", `+++ b/${path}`, "@@ -0,0 +1 @@", "+pwned", "```"].join("\n"),
        }[kind];
        const outsideBefore = new Map([...(await snapshotTree(base))].filter(([k]) => !k.startsWith("root/")));
        await applyReply(`Change:\n\n${body}\n`, { root });
        const outsideAfter = new Map([...(await snapshotTree(base))].filter(([k]) => !k.startsWith("root/")));
        expect(diffSnapshots(outsideBefore, outsideAfter), `${kind} ${path}`).toEqual([]);
      }),
      { numRuns: 80 },
    );
  });

  test("a refused reply never changes the tree", async () => {
    const bad = fc.constantFrom(
      editblock("src/a.ts", ["this_line_is_nowhere_0 = 1"], ["x = 2"]),
      editblock("src/missing.ts", ["anything"], ["else"]),
      editblock("src/b.ts", [], ["created = over_existing"]),
      editblock("../escape.ts", [], ["escaped = 1"]),
      ["```", "*** Begin Patch", "*** Delete File: src/nope.ts", "*** End Patch", "```"].join("\n"),
    );
    await fc.assert(
      fc.asyncProperty(
        uniqueLines,
        uniqueLines,
        fc.array(fc.tuple(fc.boolean(), fc.nat(), fc.nat(), replacementLines), { maxLength: 4 }),
        bad,
        fc.nat(),
        async (aLines, bLines, goods, badBlock, at) => {
          // A last line no good edit touches: emptied by the good edits, src/b.ts would rightly take the
          // empty-SEARCH block as its new content, and that block would not be a refused one.
          const kept = "kept_last_line";
          const files = {
            "src/a.ts": `${[...aLines, kept].join("\n")}\n`,
            "src/b.ts": `${[...bLines, kept].join("\r\n")}\r\n`,
          };
          const blocks = goods.map(([onA, x, y, replacement]) => {
            const lines = onA ? aLines : bLines;
            const a = x % lines.length;
            const b = a + 1 + (y % (lines.length - a));
            return editblock(onA ? "src/a.ts" : "src/b.ts", lines.slice(a, b), replacement);
          });
          blocks.splice(at % (blocks.length + 1), 0, badBlock);
          const { base, root } = await makeBase(files);
          const before = await snapshotTree(base);
          const report = await applyReply(`Changes:\n\n${blocks.join("\n\n")}\n`, { root });
          expect(report.results.some((r) => !r.ok)).toBe(true);
          expect(diffSnapshots(before, await snapshotTree(base))).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
