import { describe, expect, it } from "vitest";
import {
  classifyPushFailure,
  parseGrepCountZ,
  parseLog,
  parseNulList,
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
  });

  it("reads grep counts", () => {
    expect(parseGrepCountZ("src/a.js\u00003\nweird:name.js\u00001\n")).toEqual([
      ["src/a.js", 3],
      ["weird:name.js", 1],
    ]);
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
