import { describe, expect, it } from "vitest";
import { depthRatio, nestingCompatible, type LinePair } from "../../../src/matcher/indent-structure.js";
import type { IndentStyle } from "../../../src/core/indent.js";
import { applySR, lines } from "./helpers.js";

const spaces = (width: number): IndentStyle => ({ kind: "spaces", width });
const TABS: IndentStyle = { kind: "tabs" };
const zip = (model: string[], file: string[]): LinePair[] => model.map((m, i) => ({ model: m, file: file[i]! }));

describe("depthRatio / nestingCompatible", () => {
  it("is 1 when the model wrote in the file's unit, or converted it level for level", () => {
    expect(depthRatio(zip(["if a:", "    x()"], ["if a:", "    x()"]), spaces(4), spaces(4))).toBe(1);
    expect(depthRatio(zip(["if a {", "  x()", "}"], ["\tif a {", "\t\tx()", "\t}"]), spaces(2), TABS)).toBe(1);
    expect(depthRatio(zip(["a", "b"], ["  a", "  b"]), spaces(2), spaces(2))).toBe(1);
  });

  it("accepts one plausible scale for a misread unit (4-space YAML read as 8 against a 2-space file)", () => {
    const model = [
      "        paths-ignore:",
      "                - 'docs/**'",
      "                - '*.md'",
      "    pull_request:",
    ];
    const file = ["    paths-ignore:", "        - 'docs/**'", "        - '*.md'", "  pull_request:"];
    expect(depthRatio(zip(model, file), spaces(8), spaces(2))).toBe(2);
    expect(nestingCompatible(zip(model, file), spaces(8), spaces(2))).toBe(true);
  });

  it("refuses a different nesting, whatever the units", () => {
    const model = ["if a:", "    x()", "y()"];
    const file = ["if a:", "    x()", "    y()"];
    expect(depthRatio(zip(model, file), spaces(4), spaces(4))).toBeUndefined();
    expect(nestingCompatible(zip(model, file), spaces(4), spaces(4))).toBe(false);
    // Deeper on one side, shallower on the other: no positive ratio.
    expect(nestingCompatible(zip(["a", "  b"], ["  a", "b"]), spaces(2), spaces(2))).toBe(false);
  });

  it("refuses an implausible ratio (continuation lines that do not scale with the unit)", () => {
    const model = ["      call(a,", "         b)", "      c()"];
    const file = ["            call(a,", "                 b)", "            c()"];
    // 1.5 model levels against 1.25 file levels: 5/6 is no ratio of two units.
    expect(depthRatio(zip(model, file), spaces(2), spaces(4))).toBeUndefined();
  });

  it("skips blank lines and needs two real lines to judge", () => {
    expect(nestingCompatible(zip(["a", "", "  b"], ["a", "    ", "  b"]), spaces(2), spaces(2))).toBe(true);
    expect(nestingCompatible(zip(["    a"], ["a"]), spaces(4), spaces(4))).toBe(true);
  });
});

describe("the model unit on the indentation rung (a deep first line)", () => {
  // Harness case 1:401 (asyncio/streams.py), reduced: a 4-space file quoted with 2 spaces from 6 columns deep, with
  // string continuation lines; the step 0 -> 6 made the model unit 6 and the nesting check refused the window.
  it("lands a 2-space SEARCH that starts deep in a 4-space file, new line at the file's depth", () => {
    const file = lines(
      "class S:",
      "    def __del__(self):",
      "        if not self.closed:",
      "            context = {",
      "                'message': ('An open stream was collected '",
      "                            'call close().')",
      "            }",
      "            if self._source_traceback:",
      "                context['tb'] = self._source_traceback",
    );
    const search = [
      "      context = {",
      "        'message': ('An open stream was collected '",
      "              'call close().')",
      "      }",
      "      if self._source_traceback:",
    ].join("\n");
    const replace = search.replace("      context = {", '      context = {\n        log_drift("probe")');
    expect(applySR(file, search, replace)).toBe(
      file.replace("            context = {\n", '            context = {\n                log_drift("probe")\n'),
    );
  });

  it("lands a 4-space YAML quote of a 2-space file and writes the new key at the file's depth", () => {
    const file = lines(
      "on:",
      "  push:",
      "    paths-ignore:",
      "        - 'docs/**'",
      "        - '*.md'",
      "  pull_request:",
    );
    const search = [
      "        paths-ignore:",
      "                - 'docs/**'",
      "                - '*.md'",
      "    pull_request:",
    ];
    const replace = [...search, "        branches: [main]"].join("\n");
    expect(applySR(file, search.join("\n"), replace)).toBe(`${file}    branches: [main]\n`);
  });

  it("re-indents added lines with the same scale when the model unit was misread", () => {
    const file = lines("jobs:", "  auto:", "    if: >", "        github.actor == 'bot'", "    needs:", "      - test");
    // 2-space levels written with 4 spaces; the three model lines read as an 8-space unit (ratio 2 to the file).
    const search = ["        if: >", "                github.actor == 'bot'", "        needs:"].join("\n");
    const replace = `${search}\n            - lint`;
    expect(applySR(file, search, replace)).toBe(file.replace("    needs:\n", "    needs:\n      - lint\n"));
  });
});
