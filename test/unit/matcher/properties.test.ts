import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { LinePositions } from "../../../src/core/line-positions.js";
import { stringHash } from "../../../src/core/string-hash.js";
import type { Eol } from "../../../src/core/text.js";
import { parseText, serializeText } from "../../../src/core/text.js";
import { locate } from "../../../src/matcher/ladder.js";
import { LINE_RUNGS } from "../../../src/matcher/line-ladder.js";
import { similarity } from "../../../src/matcher/similarity.js";
import { windowsSharing } from "../../../src/matcher/window-filter.js";
import { CLASS_RECORD, characterWindow, classWindow } from "../../../src/matcher/character-bounds.js";
import { findWindows } from "../../../src/matcher/windows.js";
import { applyOps, opsFromLines } from "./helpers.js";

const lineText = fc.string({ maxLength: 16 }).map((s) => s.replace(/[\r\n]/g, ""));

describe("properties", () => {
  it("an exact SEARCH of a window of distinct lines lands there; the rest stays byte-identical", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(lineText, fc.constantFrom<Eol>("\n", "\r\n")), { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        fc.boolean(),
        fc.nat(),
        fc.nat(),
        fc.array(lineText, { maxLength: 5 }),
        (rows, bom, finalNewline, a, b, replacementTexts) => {
          // Non-empty: an empty last line without a newline cannot be told from no line at all.
          const replacement = replacementTexts.map((t) => `R: ${t}`);
          // A unique tag keeps the lines distinct on every rung.
          const fileLines = rows.map(([text], i) => `L${i}: ${text}`);
          const eols = rows.map(([, eol], i) => (i === rows.length - 1 && !finalNewline ? "" : eol));
          const content = serializeText({ bom, lines: fileLines, eols });
          const start = a % fileLines.length;
          const end = start + 1 + (b % (fileLines.length - start));
          const applied = applyOps(content, opsFromLines(fileLines.slice(start, end), replacement));
          expect(applied.ok).toBe(true);
          if (!applied.ok || applied.result.kind !== "found") return;
          expect(applied.result.match).toMatchObject({ start, end });
          const beforeEols = eols.slice(0, start);
          // Deleting the last lines of a file without a final newline: the new last line takes over that state.
          if (end === fileLines.length && !finalNewline && replacement.length === 0 && start > 0)
            beforeEols[start - 1] = "";
          const before = serializeText({ bom, lines: fileLines.slice(0, start), eols: beforeEols });
          expect(applied.after.startsWith(before)).toBe(true);
          if (end < fileLines.length) {
            const after = serializeText({ bom: false, lines: fileLines.slice(end), eols: eols.slice(end) });
            expect(applied.after.endsWith(after)).toBe(true);
          }
          const result = parseText(applied.after);
          expect(result.lines.length).toBe(fileLines.length - (end - start) + replacement.length);
          expect(result.bom).toBe(bom);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never reports found on rungs exact..unicode for a window whose keys differ", () => {
    const piece = fc.constantFrom(
      "a",
      " a",
      "a ",
      "\ta",
      "b",
      "  b",
      "\u2018a\u2019",
      "'a'",
      "a\u00A0b",
      "a b",
      "",
      " ",
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(piece, fc.constantFrom<Eol>("\n", "\r\n")), { minLength: 1, maxLength: 12 }),
        fc.array(piece, { minLength: 1, maxLength: 3 }),
        (rows, search) => {
          const file = parseText(
            serializeText({ bom: false, lines: rows.map(([t]) => t), eols: rows.map(([, e]) => e) }),
          );
          const ops = search.map((text) => ({ op: "remove" as const, text }));
          const result = locate(file, { ops, hint: {} });
          if (result.kind !== "found") return;
          const rung = LINE_RUNGS.find((r) => r.name === result.match.strategy);
          if (rung === undefined) return;
          const keys = rung.fileKeys(file);
          expect(result.match.end - result.match.start).toBe(search.length);
          search.forEach((text, j) => {
            expect(keys[result.match.start + j]).toBe(rung.modelKey(text));
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("on the exact rung, text written in the file's own style is written unchanged", () => {
    const indented = (unit: string) =>
      fc
        .tuple(
          fc.integer({ min: 0, max: 3 }),
          fc.string({
            unit: fc.constantFrom("a", "b", "c", "x", "(", ")", "{", "}", ";", "="),
            minLength: 1,
            maxLength: 8,
          }),
        )
        .map(([depth, text]) => unit.repeat(depth) + text);
    const scenario = fc
      .constantFrom("\t", "  ", "    ")
      .chain((unit) =>
        fc.tuple(
          fc.array(indented(unit), { minLength: 2, maxLength: 20 }),
          fc.array(indented(unit), { maxLength: 6 }),
          fc.nat(),
        ),
      );
    fc.assert(
      fc.property(scenario, ([body, replacement, seed]) => {
        const fileLines = body.map((l, i) => `${l} // ${i}`);
        const start = seed % fileLines.length;
        const end = Math.min(fileLines.length, start + 2);
        const content = fileLines.map((l) => `${l}\n`).join("");
        const applied = applyOps(content, opsFromLines(fileLines.slice(start, end), replacement));
        expect(applied).toMatchObject({ ok: true, result: { match: { strategy: "exact" } } });
        const expected = [...fileLines.slice(0, start), ...replacement, ...fileLines.slice(end)];
        expect(applied.ok && applied.after).toBe(expected.map((l) => `${l}\n`).join(""));
      }),
      { numRuns: 200 },
    );
  });

  it("an outdented SEARCH is found and the replacement lands at the file's depth, nesting kept", () => {
    // Realistic nesting: each line at most one level deeper than the previous one.
    const depths = fc
      .array(fc.integer({ min: -3, max: 1 }), { minLength: 3, maxLength: 16 })
      .map((steps) => steps.reduce<number[]>((out, step) => [...out, Math.max(0, (out.at(-1) ?? 0) + step)], []));
    const scenario = fc.tuple(
      fc.constantFrom("\t", "    ", "  "),
      depths,
      fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 4 }),
      fc.nat(),
    );
    fc.assert(
      fc.property(scenario, ([unit, fileDepths, newDepths, seed]) => {
        const fileLines = fileDepths.map((d, i) => `${unit.repeat(d)}line${i}();`);
        const start = seed % (fileLines.length - 1);
        const end = start + 2;
        const shift = Math.min(...fileDepths.slice(start, end));
        const model = (d: number, text: string) => unit.repeat(d) + text;
        const search = fileDepths.slice(start, end).map((d, j) => model(d - shift, `line${start + j}();`));
        const base = fileDepths[start]! - shift;
        const added = newDepths.map((d, k) => model(base + d, `added${k}();`));
        const applied = applyOps(fileLines.map((l) => `${l}\n`).join(""), opsFromLines(search, [...search, ...added]));
        expect(applied.ok).toBe(true);
        const expected = [
          ...fileLines.slice(0, end),
          ...newDepths.map((d, k) => `${unit.repeat(base + d + shift)}added${k}();`),
          ...fileLines.slice(end),
        ];
        expect(applied.ok && applied.after).toBe(expected.map((l) => `${l}\n`).join(""));
      }),
      { numRuns: 300 },
    );
  });

  it("the character-count bounds never rule out a window Levenshtein would accept; the exact one is the bag distance's", () => {
    // Two characters past the first 256 that share a counting class, so merged classes are exercised too; `q` and
    // `a` share a class of the per-line counts, and past 255 characters a line's counts are not kept.
    const key = fc.oneof(
      fc.string({ unit: fc.constantFrom("a", "b", "q", " ", "(", "\u00e9", "\u0101", "\u0201"), maxLength: 6 }),
      fc.integer({ min: 250, max: 300 }).map((n) => "a".repeat(n)),
    );
    const bagBound = (a: string, b: string): number => {
      const counts = new Map<string, number>();
      for (const c of a) counts.set(c, (counts.get(c) ?? 0) + 1);
      for (const c of b) counts.set(c, (counts.get(c) ?? 0) - 1);
      let surplus = 0;
      let shortage = 0;
      for (const n of counts.values())
        if (n > 0) surplus += n;
        else shortage -= n;
      return 1 - Math.max(surplus, shortage) / Math.max(a.length, b.length, 1);
    };
    fc.assert(
      fc.property(
        fc.array(key, { minLength: 1, maxLength: 12 }),
        fc.array(key, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        (keys, want, jumps) => {
          const wantText = want.join("\n");
          const core = Math.min(want.length, keys.length) - 1;
          const chars = characterWindow(keys, wantText, core);
          const classes = classWindow(new Uint8Array(keys.length * CLASS_RECORD), keys, wantText, core);
          let start = 0;
          for (const jump of jumps) {
            start = Math.min(keys.length - core - 1, start + (jump % 5));
            for (let size = core; size <= core + 2 && start + size <= keys.length; size++) {
              const text = keys.slice(start, start + size).join("\n");
              const exact = similarity(wantText, text, Infinity)!.similarity;
              const bound = chars.boundAt(start, size, text.length);
              expect(bound).toBeGreaterThanOrEqual(exact - 1e-9);
              expect(classes.boundAt(start, size, text.length)).toBeGreaterThanOrEqual(bound - 1e-9);
              const merged = /[\u0100-\uffff]/.test(text + wantText);
              if (merged) expect(bound).toBeGreaterThanOrEqual(bagBound(wantText, text) - 1e-9);
              else expect(bound).toBeCloseTo(bagBound(wantText, text), 9);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("the class-count bound rules out a window of other characters", () => {
    const keys = ["zzzz", "yyyy", "aaaa", "bbbb"];
    const classes = classWindow(new Uint8Array(keys.length * CLASS_RECORD), keys, "aaaa\nbbbb", 1);
    expect(classes.boundAt(0, 2, 9)).toBeLessThan(0.2);
    expect(classes.boundAt(2, 2, 9)).toBe(1);
  });

  it("the windows sharing lines are exactly those whose multiset intersection with the wanted lines is large enough and whose length is in range", () => {
    const key = fc.constantFrom<string>("", "a", "b", "c", "}");
    fc.assert(
      fc.property(
        fc.array(key, { maxLength: 30 }),
        fc.array(key, { minLength: 1, maxLength: 6 }),
        // No size at all happens too: the fuzzy search asks only for the sizes the file can hold.
        fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { minLength: 0, maxLength: 3 }),
        fc.integer({ min: 1, max: 4 }),
        // Any length range, the unbounded one included.
        fc.oneof(
          fc.constant({ min: 0, max: Infinity }),
          fc.tuple(fc.nat(12), fc.nat(12)).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) })),
        ),
        (keys, want, sizes, atLeast, lengths) => {
          const expected: [number, number, number, number][] = [];
          for (let start = 0; start < keys.length; start++) {
            sizes.forEach((size, k) => {
              if (start + size > keys.length) return;
              const rest = want.filter((key) => key !== "");
              let shared = 0;
              for (const line of keys.slice(start, start + size)) {
                const at = rest.indexOf(line);
                if (at < 0) continue;
                rest.splice(at, 1);
                shared++;
              }
              const length = keys.slice(start, start + size).join("\n").length;
              if (shared >= atLeast && length >= lengths.min && length <= lengths.max) {
                expected.push([start, k, shared, length]);
              }
            });
          }
          const byLength = { lines: keys.map((k) => k.length), sign: (k: string) => k.length };
          const before = [...keys];
          const found = windowsSharing(keys, want, sizes, atLeast, byLength, lengths);
          // Lines found equal to a wanted key may be given one object for it: the text stays the same.
          expect(keys).toEqual(before);
          expect(
            [...found.starts].map((start, w) => [start, found.sizes[w], found.shared[w], found.lengths[w]]),
          ).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("signatures only skip lines: windows and shared lines are the same with them as without", () => {
    const key = fc.constantFrom<string>("", "a", "b", "ab", "ba", "}");
    // A signature with collisions (length), as real signatures may collide.
    const signatures = (keys: readonly string[]) => ({
      lines: keys.map((k) => k.length),
      sign: (k: string) => k.length,
    });
    fc.assert(
      fc.property(fc.array(key, { maxLength: 30 }), fc.array(key, { minLength: 1, maxLength: 5 }), (keys, want) => {
        expect(findWindows(keys, want, 0, keys.length, signatures(keys))).toEqual(findWindows(keys, want));
        // Every line in one bucket: the rarity estimate is useless, the windows must not change.
        const same = { lines: keys.map(() => 0), sign: () => 0 };
        const sizes = [1, 2, 3];
        expect(windowsSharing(keys, want, sizes, 1, signatures(keys))).toEqual(
          windowsSharing(keys, want, sizes, 1, same),
        );
        // Hashed signatures with an index of their lines: the same windows, found without a scan.
        const lines = keys.map(stringHash);
        const index = LinePositions.build(lines);
        const indexed = {
          lines,
          sign: stringHash,
          hashed: true,
          positions: { lines: (n: number) => index.lines(n, lines), estimate: (n: number) => index.estimate(n) },
        };
        expect(findWindows(keys, want, 0, keys.length, indexed)).toEqual(findWindows(keys, want));
        for (const atLeast of [1, 2, 3]) {
          expect(windowsSharing(keys, want, sizes, atLeast, indexed)).toEqual(
            windowsSharing(keys, want, sizes, atLeast, same),
          );
        }
      }),
      { numRuns: 500 },
    );
  });
});
