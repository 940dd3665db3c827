import { describe, expect, it } from "vitest";
import type { LineOp } from "../../../src/core/edit.js";
import { parseText } from "../../../src/core/text.js";
import { alignFuzzyWindow, type FuzzyAlignment } from "../../../src/matcher/fuzzy-align.js";
import { MIN_PAIR_SIMILARITY } from "../../../src/matcher/fuzzy-pairings.js";
import { oldSide } from "../../../src/matcher/old-side.js";
import { applyOps, lines } from "./helpers.js";

const c = (text: string): LineOp => ({ op: "context", text });
const r = (text: string): LineOp => ({ op: "remove", text });
const a = (text: string): LineOp => ({ op: "add", text });

const klass = [
  "class LineDiff extends Diff {",
  "    constructor() {",
  "        super(...arguments);",
  "        this.tokenize = tokenize;",
  "    }",
  "    equals(left, right, options) {",
  "        // If we're ignoring whitespace, we need to normalise lines by stripping",
  "        // whitespace before checking equality. (This has an annoying interaction",
  "        return super.equals(left, right, options);",
  "    }",
  "}",
];
const klassFile = lines(...klass);

const tests = [
  'test("symbol schema", () => {',
  '  symbolSchema.parse(Symbol("foo"));',
  "  expect(() => symbolSchema.parse(new Date())).toThrow();",
  "  expect(() => symbolSchema.parse(undefined)).toThrow();",
  "  expect(() => symbolSchema.parse(null)).toThrow();",
  "});",
  "",
  'test("undefined schema", () => {',
  "  undefinedSchema.parse(undefined);",
  "});",
];
const testsFile = lines(...tests);

/** Aligns the ops with the file window [start, end) (0-based), as the fuzzy rung does once it chose that window. */
const align = (content: string, ops: LineOp[], start: number, end: number): FuzzyAlignment =>
  alignFuzzyWindow(parseText(content), ops, oldSide(ops), start, end);

/** The 0-based file lines each non-add op covers. */
const covered = (aligned: FuzzyAlignment): [number, number][] =>
  aligned.ok ? aligned.alignment.map((x) => [x.start, x.end]) : [];

describe("fuzzy alignment: pairing drifted lines", () => {
  it("pairs only lines at least MIN_PAIR_SIMILARITY alike", () => {
    expect(MIN_PAIR_SIMILARITY).toBeGreaterThanOrEqual(0.75);
    expect(MIN_PAIR_SIMILARITY).toBeLessThan(1);
  });

  it("a removed line whose slot holds a dissimilar line refuses instead of deleting that line", () => {
    // The window one line short, from `this.tokenize` on: the changed stretch is one line on each side.
    const ops = [r(klass[2]!), ...klass.slice(4, 7).map(c)];
    const aligned = align(klassFile, ops, 3, 7);
    expect(aligned).toEqual({
      ok: false,
      note: 'the line to remove "super(...arguments);" has no counterpart in the similar lines 5-7',
    });
  });

  it("a removed line with a typo in its slot is paired and covers that line", () => {
    const ops = [c(klass[1]!), r(klass[2]!.replace("arguments", "argumnets")), c(klass[3]!)];
    expect(covered(align(klassFile, ops, 1, 4))).toEqual([
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
  });

  it("pairs by similarity, not by position: an unrelated line before a drifted one stays unpaired", () => {
    // Old [init(), super'] against window [super, this.tokenize]: in order, super' would take this.tokenize.
    const ops = [c(klass[1]!), c("        init();"), r("        super(...argumnets);")];
    expect(covered(align(klassFile, ops, 1, 4))).toEqual([
      [1, 2],
      [2, 2],
      [2, 3],
    ]);
  });

  it("end to end: a drifted removal after an invented line deletes its own line, never the next one", () => {
    const ops = [c(klass[1]!), c("        init();"), r("        super(...argumnets);"), ...klass.slice(3, 8).map(c)];
    const applied = applyOps(klassFile, ops);
    expect(applied).toMatchObject({ ok: true, result: { match: { strategy: "fuzzy" } } });
    expect(applied.ok && applied.after).toBe(klassFile.replace("        super(...arguments);\n", ""));
  });
});

describe("fuzzy alignment: placing added lines", () => {
  const probe = a('logDrift("probe");');

  it("refuses an insertion after an old line left unpaired at the edge of the match", () => {
    const ops = [c(tests[2]!), c(tests[3]!), c("});"), probe];
    expect(align(testsFile, ops, 2, 4)).toEqual({
      ok: false,
      note: 'the edit adds lines next to "});", which is not in the similar lines 3-4: where the added lines go is unclear; quote the lines around the insertion exactly',
      // The lines pair: the reading is unclear, not impossible.
      placed: [2, 3, -1],
    });
  });

  it("an insertion right after a paired line lands, whatever the model invented beyond it", () => {
    const ops = [c(tests[1]!), c(tests[2]!), probe, c("  expect(() => symbolSchema.parse(1n)).toThrow();")];
    expect(covered(align(testsFile, ops, 1, 3))).toEqual([
      [1, 2],
      [2, 3],
      [3, 3],
    ]);
  });

  it("refuses an insertion anchored on one side when a line on its other side is further down the file", () => {
    // `});` is line 6: the SEARCH may have left out the two lines before it, and the insertion belong after them.
    const ops = [c(tests[1]!), c(tests[2]!), probe, c("});")];
    expect(align(testsFile, ops, 1, 3)).toEqual({
      ok: false,
      note: 'the edit adds lines before "});", which is not in the similar lines 2-3 but further down the file: where the added lines go is unclear; quote the lines around the insertion exactly',
      placed: [1, 2, -1],
    });
  });

  it("an insertion beside a line invented between two adjacent paired lines lands between them", () => {
    const ops = [
      c(tests[2]!),
      c("  expect(() => symbolSchema.parse(1n)).toThrow();"),
      probe,
      c(tests[3]!),
      c(tests[4]!),
    ];
    expect(covered(align(testsFile, ops, 2, 5))).toEqual([
      [2, 3],
      [3, 3],
      [3, 4],
      [4, 5],
    ]);
  });

  it("refuses an insertion where the file has a line the SEARCH left out", () => {
    // The model dropped `expect(... undefined ...)`: the new line could go on either side of it.
    const ops = [c(tests[1]!), c(tests[2]!), probe, c(tests[4]!), c(tests[5]!)];
    const aligned = align(testsFile, ops, 1, 6);
    expect(aligned.ok).toBe(false);
    expect(!aligned.ok && aligned.note).toMatch(
      /^line 4 of the file is not in the SEARCH and sits where the edit adds/,
    );
  });

  it("a replaced line places its replacement even next to a line the SEARCH left out", () => {
    const ops = [c(tests[1]!), r(tests[2]!), a("  changed();"), c(tests[4]!), c(tests[5]!)];
    expect(covered(align(testsFile, ops, 1, 6))).toEqual([
      [1, 2],
      [2, 3],
      [3, 5],
      [5, 6],
    ]);
  });

  it("a replacement beside a line the SEARCH left out refuses when it adds a line that reads as that one", () => {
    // The file's t3 (`undefined`), left out, sits between the removed t2 and the context t4: the edit adds a line
    // that reads as t3 there, so the model may have moved t3 rather than added a second one.
    const before = [c(tests[1]!), r(tests[2]!), a("  changed();"), a(tests[3]!), c(tests[4]!), c(tests[5]!)];
    const aligned = align(testsFile, before, 1, 6);
    expect(aligned.ok).toBe(false);
    expect(!aligned.ok && aligned.note).toContain('line 4 of the file ("expect(() => symbolSchema.parse(undefined))');
    // And on the other side: t3 stays with the context t1 before it, and the replacement of t4 starts with t3.
    const after = [
      c(tests[1]!),
      c(tests[2]!),
      r(tests[4]!),
      a(`    ${tests[3]!.trim()}`),
      a("  changed();"),
      c(tests[5]!),
    ];
    expect(align(testsFile, after, 1, 6).ok).toBe(false);
    // Anywhere in the lines added there, not only the nearest.
    const inside = [c(tests[1]!), r(tests[2]!), a(tests[3]!), a("  changed();"), c(tests[4]!), c(tests[5]!)];
    expect(align(testsFile, inside, 1, 6).ok).toBe(false);
    // Blank lines read as nothing: a blank line added beside a blank the SEARCH left out is fine.
    const spaced = ["a();", "", "b();", "c();"];
    const blank = [c("a();"), r("b();"), a(""), a("B();"), c("c();")];
    expect(align(lines(...spaced), blank, 0, 4).ok).toBe(true);
  });
});

describe("fuzzy alignment: a window that stopped short", () => {
  // Old [t1, t2, t4, t5] against the window [t1, t2, t3]: t4 (`null`) pairs with its look-alike t3 (`undefined`)
  // and `});` is left over, although it is the file's next line but one.
  const ops = [c(tests[1]!), c(tests[2]!), a("  extra();"), c(tests[4]!), c(tests[5]!)];

  it("reports an unpaired edge line that the file has just past the edge: another reading to weigh", () => {
    const aligned = align(testsFile, ops, 1, 4);
    expect(aligned.ok && aligned.sightings).toContainEqual({ line: 3, at: 5 });
  });

  it("end to end: neither the insertion nor a removal lands a line off", () => {
    expect(applyOps(testsFile, ops).ok).toBe(false);
    const removal = applyOps(testsFile, [c(tests[1]!), c(tests[2]!), r(tests[4]!), c(tests[5]!)]);
    if (removal.ok) expect(removal.after).toBe(testsFile.replace(`${tests[4]!}\n`, ""));
  });
});
