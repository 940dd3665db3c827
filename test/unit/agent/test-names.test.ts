import { describe, expect, it } from "vitest";
import { testNames } from "../../../src/agent/test-names.js";

describe("testNames", () => {
  it("names the first tests, and says there are more", () => {
    expect(testNames(["a", "b", "c"], 2)).toBe("a, b, …");
    expect(testNames(["a", "b"], 2)).toBe("a, b");
  });

  it("shows a data-driven title of hundreds of characters by its start and its end", () => {
    const long = `4.17.0+${"a".repeat(300)}3 => 4.17.0, parsing both yields same result`;
    const shown = testNames([long], 5);
    expect(shown.length).toBe(100);
    expect(shown.startsWith("4.17.0+aaa")).toBe(true);
    expect(shown.endsWith("both yields same result")).toBe(true);
    expect(shown).toContain("…");
  });
});
