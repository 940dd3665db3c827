import { describe, expect, it } from "vitest";
import { pathsToRead, planEdits } from "../../../src/apply/plan.js";
import {
  copy,
  create,
  del,
  executable,
  hunk,
  missing,
  mode,
  reasons,
  rename,
  script,
  searchReplace,
  snap,
} from "./plan-items.js";

describe("planEdits: sequential edits", () => {
  it("applies edits in order, each against the result of the earlier ones, and writes the file once", () => {
    const plan = planEdits(
      [searchReplace("a.ts", ["let x = 1;"], ["let x = 2;"]), searchReplace("a.ts", ["let x = 2;"], ["let x = 3;"])],
      snap({ "a.ts": "let x = 1;\nlet y = 1;\n" }),
    );
    expect(reasons(plan.results)).toEqual(["ok:exact", "ok:exact"]);
    expect(plan.results[1]).toMatchObject({ before: "let x = 2;\nlet y = 1;\n", after: "let x = 3;\nlet y = 1;\n" });
    expect(plan.writes).toEqual(new Map([["a.ts", "let x = 3;\nlet y = 1;\n"]]));
    expect(plan.applied).toBe(true);
    expect(plan.summary).toBe("2 edits applied");
  });

  it("serialises an applied replace like a plain result, versions included, and shows no internals", () => {
    const plan = planEdits([searchReplace("a.ts", ["b"], ["B"])], snap({ "a.ts": "a\nb\n" }));
    const result = plan.results[0]!;
    expect(JSON.parse(JSON.stringify(result))).toMatchObject({
      ok: true,
      path: "a.ts",
      before: "a\nb\n",
      after: "a\nB\n",
      strategy: "exact",
      lines: { start: 2, end: 2 },
      found: { start: 2, end: 2 },
    });
    expect(Object.keys(result).sort()).toEqual(["edit", "found", "lines", "ok", "path", "strategy"]);
  });

  it("reports the changed lines of a replace edit (1-based)", () => {
    const plan = planEdits([searchReplace("a.ts", ["b"], ["B1", "B2"])], snap({ "a.ts": "a\nb\nc\n" }));
    expect(plan.results[0]).toMatchObject({ ok: true, lines: { start: 2, end: 3 } });
  });

  it("shifts a hint line that falls on the context an earlier hunk kept after its change", () => {
    // The first hunk removes "drop" and keeps "x", "y" as context; the second hunk's line 3 is the first "x".
    const original = ["a", "drop", "x", "y", "b", "x", "y", ""].join("\n");
    const first = hunk(
      "a.ts",
      [
        { op: "remove", text: "drop" },
        { op: "context", text: "x" },
        { op: "context", text: "y" },
      ],
      2,
    );
    const second = hunk(
      "a.ts",
      [
        { op: "context", text: "x" },
        { op: "remove", text: "y" },
      ],
      3,
    );
    const plan = planEdits([first, second], snap({ "a.ts": original }));
    expect(reasons(plan.results)).toEqual(["ok:exact", "ok:exact"]);
    expect(plan.writes.get("a.ts")).toBe(["a", "x", "b", "x", "y", ""].join("\n"));
  });

  it("shifts later hint lines by what earlier hunks of the same file added", () => {
    // Two identical blocks; only the hint line tells them apart. The first hunk adds 3 lines above both.
    const block = ["function f() {", "  return 1;", "}"];
    const original = ["// header", ...block, "", ...block, ""].join("\n");
    const plan = planEdits(
      [
        hunk(
          "a.ts",
          [
            { op: "context", text: "// header" },
            { op: "add", text: "// one" },
            { op: "add", text: "// two" },
            { op: "add", text: "// three" },
          ],
          1,
        ),
        hunk(
          "a.ts",
          [
            { op: "context", text: "function f() {" },
            { op: "remove", text: "  return 1;" },
            { op: "add", text: "  return 2;" },
            { op: "context", text: "}" },
          ],
          6,
        ),
      ],
      snap({ "a.ts": original }),
    );
    expect(reasons(plan.results)).toEqual(["ok:exact", "ok:exact"]);
    const after = plan.writes.get("a.ts")!.split("\n");
    expect(after.slice(4, 7)).toEqual(["function f() {", "  return 1;", "}"]);
    expect(after.slice(8, 11)).toEqual(["function f() {", "  return 2;", "}"]);
  });
});

describe("planEdits: transaction", () => {
  const items = [
    searchReplace("a.ts", ["one"], ["ONE"], 1),
    searchReplace("b.ts", ["not there"], ["x"], 5),
    create("c.ts", "new\n"),
  ];
  const files = snap({ "a.ts": "one\n", "b.ts": "two\n", "c.ts": missing });

  it("by default writes nothing when any edit fails and marks the good edits not-applied", () => {
    const plan = planEdits(items, files);
    expect(reasons(plan.results)).toEqual(["not-applied", "search-not-found", "not-applied"]);
    expect(plan.writes.size).toBe(0);
    expect(plan.applied).toBe(false);
    expect(plan.summary).toBe("nothing was written because 1 of 3 edits failed");
    const held = plan.results[0]!;
    expect(held.ok).toBe(false);
    if (!held.ok) {
      expect(held.message).toContain("was not written because another edit in the reply failed");
      expect(held.message).toContain("resend it together with the fixed one");
      expect(held.edit?.kind).toBe("replace");
    }
  });

  it("with partial keeps the successful edits and writes their final contents", () => {
    const plan = planEdits(items, files, { partial: true });
    expect(reasons(plan.results)).toEqual(["ok:exact", "search-not-found", "ok:create"]);
    expect(plan.writes).toEqual(
      new Map([
        ["a.ts", "ONE\n"],
        ["c.ts", "new\n"],
      ]),
    );
    expect(plan.applied).toBe(true);
    expect(plan.summary).toContain("the other 2 edits were applied; resend only the failed ones");
  });

  it("turns parse problems into invalid-format failures", () => {
    const plan = planEdits(
      [{ type: "problem", problem: { path: "x.ts", format: "editblock", line: 9, message: "the block is truncated" } }],
      new Map(),
    );
    expect(plan.results[0]).toMatchObject({ ok: false, reason: "invalid-format", path: "x.ts", edit: undefined });
    expect(!plan.results[0]!.ok && plan.results[0]!.message).toContain("reply line 9");
  });
});

describe("planEdits: creation, deletion, moves", () => {
  it("never overwrites: create or move onto an existing path is file-exists", () => {
    const plan = planEdits([create("a.ts", "x\n"), rename("b.ts", "a.ts")], snap({ "a.ts": "old\n", "b.ts": "b\n" }), {
      partial: true,
    });
    expect(reasons(plan.results)).toEqual(["file-exists", "file-exists"]);
    expect(plan.writes.size).toBe(0);
    expect(plan.results[1]).toMatchObject({ path: "b.ts" });
  });

  it("update, delete or move of a missing path is missing-original", () => {
    const plan = planEdits(
      [searchReplace("a.ts", ["x"], ["y"]), del("b.ts"), rename("c.ts", "d.ts")],
      snap({ "a.ts": missing, "b.ts": missing, "c.ts": missing, "d.ts": missing }),
      { partial: true },
    );
    expect(reasons(plan.results)).toEqual(["missing-original", "missing-original", "missing-original"]);
  });

  it("sees earlier edits: delete then create, move then edit the new path, edit after delete fails", () => {
    const plan = planEdits(
      [
        del("a.ts"),
        create("a.ts", "fresh\n"),
        rename("b.ts", "lib/b.ts"),
        searchReplace("lib/b.ts", ["b"], ["B"]),
        del("c.ts"),
        searchReplace("c.ts", ["c"], ["C"]),
      ],
      snap({ "a.ts": "old\n", "b.ts": "b\n", "lib/b.ts": missing, "c.ts": "c\n" }),
      { partial: true },
    );
    expect(reasons(plan.results)).toEqual([
      "ok:delete",
      "ok:create",
      "ok:rename",
      "ok:exact",
      "ok:delete",
      "missing-original",
    ]);
    expect(plan.writes).toEqual(
      new Map([
        ["a.ts", "fresh\n"],
        ["b.ts", null],
        ["lib/b.ts", "B\n"],
        ["c.ts", null],
      ]),
    );
  });

  it("writes nothing for a file created and deleted in the same reply", () => {
    const plan = planEdits([create("t.ts", "x\n"), del("t.ts")], snap({ "t.ts": missing }));
    expect(reasons(plan.results)).toEqual(["ok:create", "ok:delete"]);
    expect(plan.writes.size).toBe(0);
  });

  it("moving a file onto itself is a harmless no-op", () => {
    const plan = planEdits([rename("a.ts", "./a.ts")], snap({ "a.ts": "x\n" }));
    expect(reasons(plan.results)).toEqual(["ok:rename"]);
    expect(plan.writes.size).toBe(0);
  });

  it("gives created files the project's line endings", () => {
    const crlf = snap({ "a.ts": "a\r\nb\r\n", "b.ts": "c\r\n", "c.ts": "d\n", "new.ts": missing });
    const plan = planEdits([create("new.ts", "one\ntwo\n")], crlf);
    expect(plan.writes.get("new.ts")).toBe("one\r\ntwo\r\n");
    const lf = planEdits([create("new.ts", "one\ntwo\n")], snap({ "new.ts": missing }));
    expect(lf.writes.get("new.ts")).toBe("one\ntwo\n");
  });
});

describe("planEdits: targets that cannot be edited", () => {
  it("refuses binary, unreadable and unsafe files with their own reasons", () => {
    const plan = planEdits(
      [
        searchReplace("img.png", ["x"], ["y"]),
        del("dir"),
        searchReplace("link.ts", ["x"], ["y"]),
        create("dir", "x\n"),
      ],
      snap({
        "img.png": { kind: "binary" },
        dir: { kind: "unreadable", message: "dir is a folder, not a file" },
        "link.ts": { kind: "unsafe", message: "link.ts is a symlink that leads outside the root" },
      }),
      { partial: true },
    );
    expect(reasons(plan.results)).toEqual(["binary-file", "unreadable-file", "unsafe-path", "unreadable-file"]);
    expect(!plan.results[2]!.ok && plan.results[2]!.message).toContain("leads outside the root");
  });

  it("refuses paths that leave the root without reading them", () => {
    const items = [create("../evil.ts", "x"), rename("a.ts", "/etc/passwd"), searchReplace("C:\\x.ts", ["a"], ["b"])];
    expect(pathsToRead(items)).toEqual(["a.ts"]);
    const plan = planEdits(items, snap({ "a.ts": "a\n" }), { partial: true });
    expect(reasons(plan.results)).toEqual(["unsafe-path", "unsafe-path", "unsafe-path"]);
    expect(plan.results.map((r) => r.path)).toEqual(["../evil.ts", "a.ts", "C:\\x.ts"]);
  });

  it("treats a path missing from the snapshot as a bug", () => {
    expect(() => planEdits([del("a.ts")], new Map())).toThrow(/no entry/);
  });
});

describe("planEdits: file modes", () => {
  it("a new script is written executable; a plain new file has no mode entry", () => {
    const plan = planEdits(
      [script("bin/run", "#!/bin/sh\n"), create("a.txt", "a\n")],
      snap({ "bin/run": missing, "a.txt": missing }),
    );
    expect(reasons(plan.results)).toEqual(["ok:create", "ok:create"]);
    expect(plan.modes).toEqual(new Map([["bin/run", true]]));
  });

  it("a moved file keeps its executable bit; one whose mode the reader did not give moves without an entry", () => {
    const moved = planEdits([rename("a.sh", "b.sh")], snap({ "a.sh": executable("x\n"), "b.sh": missing }));
    expect(moved.writes).toEqual(
      new Map([
        ["a.sh", null],
        ["b.sh", "x\n"],
      ]),
    );
    expect(moved.modes).toEqual(new Map([["b.sh", true]]));
    const unknown = planEdits([rename("a.sh", "b.sh")], snap({ "a.sh": "x\n", "b.sh": missing }));
    expect(unknown.modes).toEqual(new Map());
  });

  it("a binary file can be deleted, its bytes unread; any other edit of it is refused", () => {
    const plan = planEdits([del("img.png")], snap({ "img.png": { kind: "binary" } }));
    expect(reasons(plan.results)).toEqual(["ok:delete"]);
    expect(plan.writes).toEqual(new Map([["img.png", null]]));
    expect(
      reasons(
        planEdits([rename("img.png", "b.png")], snap({ "img.png": { kind: "binary" }, "b.png": missing })).results,
      ),
    ).toEqual(["binary-file"]);
  });

  it("a copy keeps its source and the source's mode, and never overwrites", () => {
    const plan = planEdits([copy("a.sh", "b.sh")], snap({ "a.sh": executable("x\n"), "b.sh": missing }));
    expect(reasons(plan.results)).toEqual(["ok:copy"]);
    expect(plan.writes).toEqual(new Map([["b.sh", "x\n"]]));
    expect(plan.modes).toEqual(new Map([["b.sh", true]]));
    const onto = planEdits([copy("a.sh", "b.sh")], snap({ "a.sh": "x\n", "b.sh": "y\n" }));
    expect(reasons(onto.results)).toEqual(["file-exists"]);
    expect(onto.results[0]).toMatchObject({
      message: expect.stringContaining("cannot be copied onto b.sh") as unknown,
    });
  });

  it("a mode change writes the file with its content as it was; setting the mode it has changes nothing", () => {
    const plan = planEdits(
      [mode("run.sh", true)],
      snap({ "run.sh": { kind: "text", content: "x\n", executable: false } }),
    );
    expect(reasons(plan.results)).toEqual(["ok:mode"]);
    expect(plan.writes).toEqual(new Map([["run.sh", "x\n"]]));
    expect(plan.modes).toEqual(new Map([["run.sh", true]]));
    const same = planEdits([mode("run.sh", true)], snap({ "run.sh": executable("x\n") }));
    expect(reasons(same.results)).toEqual(["ok:mode"]);
    expect(same.writes).toEqual(new Map());
  });

  it("a mode change of a missing file is refused, and a deleted file leaves no mode behind", () => {
    const refused = planEdits([mode("gone.sh", true)], snap({ "gone.sh": missing }));
    expect(reasons(refused.results)).toEqual(["missing-original"]);
    const deleted = planEdits([mode("a.sh", true), del("a.sh")], snap({ "a.sh": "x\n" }));
    expect(deleted.writes).toEqual(new Map([["a.sh", null]]));
    expect(deleted.modes).toEqual(new Map());
  });
});
