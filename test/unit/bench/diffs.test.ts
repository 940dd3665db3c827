import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { applyPatch } from "diff";
import { afterEach, describe, expect, it } from "vitest";
import {
  buildUnifiedDiff,
  countBlock,
  failingLookupScenario,
  fiftyHunksScenario,
  singleEditScenario,
  withoutLineNumbers,
} from "../../../bench/diffs.js";
import type { PatchScenario } from "../../../bench/diffs.js";
import { createRng, generateLines, joinLines } from "../../../bench/generate.js";

describe("generateLines", () => {
  it("gives exactly the asked number of lines, the same for the same seed", () => {
    const a = generateLines(1234, 7);
    expect(a).toHaveLength(1234);
    expect(generateLines(1234, 7)).toEqual(a);
    expect(generateLines(1234, 8)).not.toEqual(a);
  });

  it("looks like code: mostly distinct lines, some repeated ones", () => {
    const lines = generateLines(5000, 1);
    const distinct = new Set(lines).size;
    expect(distinct).toBeGreaterThan(2500);
    expect(distinct).toBeLessThan(5000);
    expect(lines.filter((l) => l === "}").length).toBeGreaterThan(100);
  });

  it("has a PRNG in [0, 1) that depends on the seed", () => {
    const rng = createRng(42);
    const values = Array.from({ length: 1000 }, rng);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(createRng(42)()).toBe(values[0]);
    expect(createRng(43)()).not.toBe(values[0]);
  });
});

describe("buildUnifiedDiff", () => {
  const lines = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n"];

  it("writes git-style hunks whose new-side numbers follow earlier changes", () => {
    const { diff, after } = buildUnifiedDiff("x.txt", lines, [
      { at: 1, remove: 1, add: ["B", "B2"] },
      { at: 10, remove: 1, add: [] },
    ]);
    expect(diff).toBe(
      [
        "diff --git a/x.txt b/x.txt",
        "--- a/x.txt",
        "+++ b/x.txt",
        "@@ -1,5 +1,6 @@",
        " a",
        "-b",
        "+B",
        "+B2",
        " c",
        " d",
        " e",
        "@@ -8,7 +9,6 @@",
        " h",
        " i",
        " j",
        "-k",
        " l",
        " m",
        " n",
        "",
      ].join("\n"),
    );
    expect(after).toBe(joinLines(["a", "B", "B2", ...lines.slice(2, 10), ...lines.slice(11)]));
    expect(applyPatch(joinLines(lines), diff)).toBe(after);
  });

  it("refuses changes whose hunks would share context", () => {
    expect(() =>
      buildUnifiedDiff("x.txt", lines, [
        { at: 2, remove: 1, add: [] },
        { at: 6, remove: 1, add: [] },
      ]),
    ).toThrow(/overlap/);
  });

  it("can drop the line numbers of every hunk header", () => {
    const { diff } = buildUnifiedDiff("x.txt", lines, [{ at: 1, remove: 1, add: ["B"] }]);
    const bare = withoutLineNumbers(diff);
    expect(bare.split("\n").filter((l) => l.startsWith("@@"))).toEqual(["@@ @@"]);
    expect(bare.replace("@@ @@", "@@ -1,5 +1,5 @@")).toBe(diff);
  });

  it("counts whole-line blocks only", () => {
    const content = joinLines(["ab", "c", "b", "c", "b", "c"]);
    expect(countBlock(content, ["b", "c"])).toBe(2);
    expect(countBlock(content, ["ab", "c"])).toBe(1);
    expect(countBlock(content, ["a"])).toBe(0);
  });
});

describe("the speed scenarios", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const gitApply = (scenario: PatchScenario): { status: number | null; output: string } => {
    dir = mkdtempSync(join(tmpdir(), "bench-diffs-"));
    const file = join(dir, "tree", scenario.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, scenario.before);
    writeFileSync(join(dir, "change.diff"), scenario.diff);
    const result = spawnSync("git", ["apply", join(dir, "change.diff")], { cwd: join(dir, "tree") });
    return { status: result.status, output: readFileSync(file, "utf8") };
  };

  it.each([singleEditScenario, fiftyHunksScenario])("%o: jsdiff and git both produce the expected bytes", (build) => {
    const scenario = build();
    expect(scenario.after).toBeDefined();
    expect(scenario.after).not.toBe(scenario.before);
    expect(applyPatch(scenario.before, scenario.diff)).toBe(scenario.after);
    expect(gitApply(scenario)).toEqual({ status: 0, output: scenario.after });
  });

  it("builds the same bytes on every call", () => {
    expect(fiftyHunksScenario().diff).toBe(fiftyHunksScenario().diff);
  });

  it("has 50 hunks in 10,000 lines for (b) and one hunk in 100,000 lines for (a)", () => {
    const b = fiftyHunksScenario();
    expect(b.diff.split("\n").filter((l) => l.startsWith("@@ "))).toHaveLength(50);
    expect(b.before.split("\n")).toHaveLength(10_001);
    const a = singleEditScenario();
    expect(a.diff.split("\n").filter((l) => l.startsWith("@@ "))).toHaveLength(1);
    expect(a.before.split("\n")).toHaveLength(100_001);
  });

  it("makes a failing hunk that resembles the file but that jsdiff and git both refuse", () => {
    const scenario = failingLookupScenario();
    expect(scenario.after).toBeUndefined();
    expect(applyPatch(scenario.before, scenario.diff)).toBe(false);
    const git = gitApply(scenario);
    expect(git.status).not.toBe(0);
    expect(git.output).toBe(scenario.before);
    const hunkLines = scenario.diff.split("\n").filter((l) => /^[ -]/.test(l) && !l.startsWith("---"));
    const fileLines = new Set(scenario.before.split("\n"));
    // Resembles: same indentation style as the file, and some of its lines (braces, returns) are real.
    expect(hunkLines.every((l) => /^[ -]( {2,}|\}|$)/.test(l))).toBe(true);
    expect(hunkLines.some((l) => !fileLines.has(l.slice(1)))).toBe(true);
  });
});
