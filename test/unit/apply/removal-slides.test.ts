import { describe, expect, it } from "vitest";
import { slidRemovals } from "../../../src/apply/removal-slides.js";
import type { LineOp } from "../../../src/core/edit.js";
import { applyEdits } from "../../../src/index.js";
import { srBlock } from "../formats/helpers.js";

const kinds = (ops: readonly LineOp[]): string => ops.map((o) => o.op[0]).join("");

describe("which of two equal lines a block removes", () => {
  it("slides a removed run over an equal unchanged line beside it, up or down, kinds only", () => {
    const ops: LineOp[] = [
      { op: "context", text: "a" },
      { op: "context", text: "#" },
      { op: "remove", text: "#" },
      { op: "context", text: "b" },
    ];
    expect(slidRemovals(ops).map((s) => kinds(s.ops))).toEqual(["crcc"]);
    const run: LineOp[] = [
      { op: "remove", text: "x" },
      { op: "remove", text: "y" },
      { op: "context", text: "x" },
      { op: "add", text: "z" },
    ];
    expect(slidRemovals(run).map((s) => kinds(s.ops))).toEqual(["crra"]);
    expect(slidRemovals(run)[0]!.ops.map((o) => o.text)).toEqual(["x", "y", "x", "z"]);
    expect(slidRemovals(ops)[0]!.swapped).toEqual([1, 2]);
    expect(slidRemovals(run)[0]!.swapped).toEqual([0, 2]);
  });

  it("has nothing to slide when the lines beside a removal differ from it", () => {
    const ops: LineOp[] = [
      { op: "context", text: "a" },
      { op: "remove", text: "b" },
      { op: "add", text: "c" },
      { op: "context", text: "d" },
    ];
    expect(slidRemovals(ops)).toEqual([]);
  });

  const file = [
    "#!/bin/sh",
    "set -eu",
    "",
    "# Everything below runs from the repository root, whatever the caller's directory.",
    'cd "$(dirname "$0")/.."',
    "#",
    "# Paths",
    "#",
    'RELEASE_DIR="$PWD/dist/release"',
    'CHECKSUM_FILE="$RELEASE_DIR/SHA256SUMS"',
    "",
  ].join("\n");
  const block = (search: string[], replace: string[]): string =>
    `${srBlock("scripts/setup.sh", search, replace, "```sh").join("\n")}\n`;
  const head = [
    "# Everything below runs from the repository root, whatever the caller's directory.",
    'cd "$(dirname "$0")/.."',
  ];
  const tail = ['RELEASE_DIR="$PWD/dist/release"', 'CHECKSUM_FILE="$RELEASE_DIR/SHA256SUMS"'];

  it("refuses a block whose two copies stand apart in the file: which one goes is not said", async () => {
    // The SEARCH left out the line between the two `#`; its REPLACE keeps one `#`.
    const reply = block([...head, "#", "#", ...tail], [...head, "#", ...tail]);
    const out = await applyEdits(reply, () => file);
    expect(out.results).toMatchObject([{ ok: false, reason: "ambiguous-match" }]);
    expect(out.results[0]!.ok ? "" : out.results[0]!.message).toContain("Quote the lines between them");
  });

  const diff = (lines: string[]): string =>
    ["```diff", "--- a/scripts/setup.sh", "+++ b/scripts/setup.sh", "@@ -4,6 +4,5 @@", ...lines, "```", ""].join("\n");
  const context = (lines: string[]) => lines.map((l) => ` ${l}`);

  it("refuses a diff that marks the first of two copies the match finds apart", async () => {
    const reply = diff([...context(head), "-#", " #", ...context(tail)]);
    const out = await applyEdits(reply, () => file);
    expect(out.results).toMatchObject([{ ok: false, reason: "ambiguous-match" }]);
  });

  it("applies a diff's marked removal where the copies are neighbours, also when they differ in the file", async () => {
    const adjacent = file.replace("#\n# Paths\n#\n", "#  \n#\n");
    const out = await applyEdits(diff([...context(head), "-#", " #", ...context(tail)]), () => adjacent);
    expect(out.results.map((r) => r.ok)).toEqual([true]);
    expect(out.files.get("scripts/setup.sh")).toBe(file.replace("#\n# Paths\n#\n", "#\n"));
  });

  it("applies it where the copies are neighbours, as the SEARCH has them", async () => {
    const adjacent = file.replace("#\n# Paths\n#\n", "#\n#\n");
    const out = await applyEdits(block([...head, "#", "#", ...tail], [...head, "#", ...tail]), () => adjacent);
    expect(out.results.map((r) => r.ok)).toEqual([true]);
    expect(out.files.get("scripts/setup.sh")).toBe(file.replace("#\n# Paths\n#\n", "#\n"));
  });
});
