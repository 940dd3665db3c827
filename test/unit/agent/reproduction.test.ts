import { describe, expect, it } from "vitest";
import { looksLikeBugReport } from "../../../src/agent/reproduction.js";

describe("looksLikeBugReport", () => {
  it.each([
    "parse() throws on an empty string",
    "The mean of 2, 4, 6 should be 4",
    "--verbose is ignored when given after the command",
    "a boolean option's aliases are not considered when its long form has a value",
    "Sorting by date gives the oldest first instead of the newest",
    "the retry option no longer works since 2.0",
    "Unexpected newline in the generated header",
  ])("%s: a bug", (instruction) => {
    expect(looksLikeBugReport(instruction)).toBe(true);
  });

  it.each(["Add a --json flag to the list command", "Rename getUser to fetchUser", "Document the config file"])(
    "%s: not a bug",
    (instruction) => {
      expect(looksLikeBugReport(instruction)).toBe(false);
    },
  );
});
