import { describe, expect, it } from "vitest";
import { bracketContinued } from "../../../src/matcher/bracket-continuation.js";

const continued = (lines: readonly string[], path: string): number[] =>
  [...bracketContinued((i) => lines[i]!, 0, lines.length, path)].sort((a, b) => a - b);

describe("bracketContinued", () => {
  it("marks the lines inside a ( or [ an earlier line left open, up to the line that closes it", () => {
    const lines = ["return fn.apply(ctx,", "    [data, helpers]);", "next();", "const xs = [", "  1,", "];", "go();"];
    expect(continued(lines, "src/a.js")).toEqual([1, 4, 5]);
    expect(continued(["rows = load(conn,", "           (month,))", "total = 0"], "app/r.py")).toEqual([1]);
  });

  it("does not count braces: a block's body is nesting", () => {
    expect(continued(["if (ok) {", "  run();", "}"], "a.ts")).toEqual([]);
  });

  it("skips brackets in one-line strings and line comments", () => {
    expect(continued(['print("(")', "x = 1  # see (a", "y = 2"], "a.py")).toEqual([]);
    expect(continued(["const s = '[' + `(`; // (", "f();", "g(/* ( */ 1);", "h();"], "a.js")).toEqual([]);
    expect(continued(["call('it\\'s (',", "  arg)"], "a.js")).toEqual([1]);
  });

  it("stops reading where a string or comment runs on past the line, and in languages it does not know", () => {
    expect(continued(['doc = """(', "  text", '"""', "f(", "  x)"], "a.py")).toEqual([]);
    expect(continued(["const t = `(", "  ${x}`;", "f(", "  x)"], "a.ts")).toEqual([]);
    expect(continued(["/* (", "*/", "f(", "  x)"], "a.c")).toEqual([]);
    expect(continued(["See the list (below", "  - one"], "README.md")).toEqual([]);
    expect(continued(["f(", "  x)"], "Makefile")).toEqual([]);
  });
});
