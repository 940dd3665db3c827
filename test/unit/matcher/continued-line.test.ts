import { describe, expect, it } from "vitest";
import { parseText } from "../../../src/core/text.js";
import { continues } from "../../../src/matcher/continued-line.js";
import { locate } from "../../../src/matcher/ladder.js";
import { lines, searchReplace } from "./helpers.js";

const makefile = lines("install: build", "\t$(MAKE) -C $(ROOT) \\", "\t\tinstall-script", "", "clean:", "\trm -f x");

const found = (search: string, replace: string) =>
  locate(parseText(makefile), { ops: searchReplace(search, replace), hint: {} });

describe("continued lines", () => {
  it("an odd number of final backslashes continues a line; an even number is an escaped backslash", () => {
    expect(continues("a \\")).toBe(true);
    expect(continues("a \\\\")).toBe(false);
    expect(continues("a \\\\\\")).toBe(true);
    expect(continues("a \\ ")).toBe(false);
  });

  it("lines added after a continued line, whose continuation the edit does not show, are refused with the reason", () => {
    const result = found(
      "install: build\n\t$(MAKE) -C $(ROOT) \\",
      "install: build\n\t$(MAKE) -C $(ROOT) \\\n\t# note",
    );
    expect(result).toMatchObject({ kind: "ambiguous" });
    if (result.kind === "ambiguous") expect(result.note).toMatch(/line 2 ends with a backslash.*line 3/);
  });

  it("lines added before the window, right after an unquoted continued line, are refused too", () => {
    const result = found("\t\tinstall-script\n", "\t# note\n\t\tinstall-script\n");
    expect(result).toMatchObject({ kind: "ambiguous" });
  });

  it("lands when the edit shows the continuation, or the added line continues itself", () => {
    const shown = found(
      "\t$(MAKE) -C $(ROOT) \\\n\t\tinstall-script",
      "\t$(MAKE) -C $(ROOT) \\\n\t\tVERBOSE=1 \\\n\t\tinstall-script",
    );
    expect(shown).toMatchObject({ kind: "found" });
    const continued = found(
      "install: build\n\t$(MAKE) -C $(ROOT) \\",
      "install: build\n\t$(MAKE) -C $(ROOT) \\\n\t\tV=1 \\",
    );
    expect(continued).toMatchObject({ kind: "found", match: { start: 0, end: 2 } });
  });

  it("lands when the edit replaces the continued line itself", () => {
    const replaced = found("\t$(MAKE) -C $(ROOT) \\", "\t$(MAKE) -C $(ROOT) install-script");
    expect(replaced).toMatchObject({ kind: "found", match: { start: 1, end: 2 } });
  });
});
