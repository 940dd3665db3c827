import { describe, expect, it } from "vitest";
import { hasOddIndentation, plainIndented, plainIndentedLines } from "../../../src/apply/plain-indentation.js";
import { applyEdits } from "../../../src/index.js";

const NBSP = "\u00a0";
const nbsp = (text: string): string => text.replace(/^ +/gm, (run) => NBSP.repeat(run.length));

const PYTHON = [
  "def charge(order, amount):",
  "    if amount <= 0:",
  '        raise ValueError("amount must be positive")',
  "    order.paid += amount",
  "    return order",
  "",
].join("\n");

const block = (file: string, search: string, replace: string): string =>
  `${file}\n\`\`\`\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;

describe("indentation written with spaces outside ASCII", () => {
  it("reads only the indentation: a no-break space inside a line is text", () => {
    expect(hasOddIndentation(`${NBSP}${NBSP}x = 1`)).toBe(true);
    expect(hasOddIndentation(` \t\u2007x`)).toBe(true);
    expect(hasOddIndentation(`x =${NBSP}1`)).toBe(false);
    expect(plainIndented(`\t${NBSP} x =${NBSP}1`)).toBe(`\t  x =${NBSP}1`);
  });

  it("is kept as written where the file indents a line that way itself", () => {
    const file = [`${NBSP}${NBSP}- item`];
    expect(plainIndentedLines([`${NBSP}${NBSP}- item`], 1, (i) => file[i]!)).toBeUndefined();
    expect(plainIndentedLines(["- item"], 1, (i) => file[i]!)).toBeUndefined();
    expect(plainIndentedLines([`${NBSP}- x`], 1, () => "- x")).toEqual([" - x"]);
  });

  it("lands a SEARCH/REPLACE block copied with no-break spaces, and writes plain spaces", async () => {
    const search = '    if amount <= 0:\n        raise ValueError("amount must be positive")\n    order.paid += amount';
    const replace =
      '    if amount <= 0:\n        raise ValueError("amount must be positive")\n    order.paid = round(order.paid + amount, 2)';
    const out = await applyEdits(block("billing.py", nbsp(search), nbsp(replace)), () => PYTHON);
    expect(out.results.map((r) => r.ok)).toEqual([true]);
    expect(out.files.get("billing.py")).toBe(
      PYTHON.replace("order.paid += amount", "order.paid = round(order.paid + amount, 2)"),
    );
  });

  it("lands a unified diff and a whole file indented that way", async () => {
    const diff = [
      "```diff",
      "--- a/billing.py",
      "+++ b/billing.py",
      "@@ -3,3 +3,4 @@",
      ` ${NBSP.repeat(8)}raise ValueError("amount must be positive")`,
      `-${NBSP.repeat(4)}order.paid += amount`,
      `+${NBSP.repeat(4)}order.paid += amount`,
      `+${NBSP.repeat(4)}order.log("paid")`,
      ` ${NBSP.repeat(4)}return order`,
      "```",
      "",
    ].join("\n");
    const out = await applyEdits(diff, () => PYTHON);
    expect(out.results.map((r) => r.ok)).toEqual([true]);
    expect(out.files.get("billing.py")).toBe(
      PYTHON.replace("    order.paid += amount\n", '    order.paid += amount\n    order.log("paid")\n'),
    );
    const whole = `billing.py\n\`\`\`python\n${nbsp(PYTHON.replace("return order", "return order.paid"))}\`\`\`\n`;
    const rewritten = await applyEdits(whole, () => PYTHON);
    expect(rewritten.results.map((r) => r.ok)).toEqual([true]);
    expect(rewritten.files.get("billing.py")).toBe(PYTHON.replace("return order", "return order.paid"));
  });
});
