import { describe, expect, it } from "vitest";
import {
  classifyPushFailure,
  parseTermMatches,
  parseTreeSizes,
  parseLog,
  parseNulList,
  parseStatusEntries,
  parseStatusZ,
} from "../../../src/adapters/git-output.js";

describe("git output readers", () => {
  it("reads NUL lists and porcelain status, renames on both sides", () => {
    expect(parseNulList("a\0b c\0")).toEqual(["a", "b c"]);
    expect(parseNulList("")).toEqual([]);
    expect(parseStatusZ(" M src/a.js\0?? new file.txt\0R  new.js\0old.js\0 D gone.md\0")).toEqual([
      "src/a.js",
      "new file.txt",
      "new.js",
      "old.js",
      "gone.md",
    ]);
    expect(parseStatusEntries("?? a b.txt\0R  new.js\0old.js\0 M c.js\0")).toEqual([
      { code: "??", path: "a b.txt" },
      { code: "R ", path: "new.js", source: "old.js" },
      { code: " M", path: "c.js" },
    ]);
  });

  it("counts grep's matches per file and term", () => {
    const output = "src/a.js\u0000Parse\nsrc/a.js\u0000parse\nweird:name.js\u0000flag\nsrc/a.js\u0000other\n";
    expect(parseTermMatches(output, new Set(["parse", "flag"]))).toEqual(
      new Map([
        ["src/a.js", new Map([["parse", 2]])],
        ["weird:name.js", new Map([["flag", 1]])],
      ]),
    );
  });

  it("reads blob sizes from ls-tree", () => {
    const output = "100644 blob abc123     42\tsrc/a b.js\u0000040000 tree def456       -\tsrc\u0000";
    expect(parseTreeSizes(output)).toEqual(new Map([["src/a b.js", 42]]));
  });

  it("reads log records with multi-line bodies", () => {
    const out = "abc\u001fBot\u001fFix\u001fLine 1\n\nTrailer: x\n\u001e\ndef\u001fAlice\u001fInit\u001f\u001e\n";
    expect(parseLog(out)).toEqual([
      { sha: "abc", authorName: "Bot", subject: "Fix", body: "Line 1\n\nTrailer: x" },
      { sha: "def", authorName: "Alice", subject: "Init", body: "" },
    ]);
  });

  it("tells a moved branch from other push failures", () => {
    expect(classifyPushFailure(" ! [rejected]        main -> main (stale info)\nerror: failed to push")).toBe(
      "rejected-stale",
    );
    expect(classifyPushFailure(" ! [rejected]        main -> main (fetch first)")).toBe("rejected-stale");
    expect(classifyPushFailure(" ! [rejected]        main -> main (non-fast-forward)")).toBe("rejected-stale");
    expect(classifyPushFailure(" ! [remote rejected] main -> main (protected branch hook declined)")).toBe("error");
    expect(classifyPushFailure("fatal: Authentication failed")).toBe("error");
  });
});
