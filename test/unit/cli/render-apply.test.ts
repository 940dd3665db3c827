import { describe, expect, it } from "vitest";
import { renderHuman, renderJson } from "../../../src/cli/render-apply.js";
import type { ReplaceEdit } from "../../../src/core/edit.js";
import type { EditResult, FailedEdit } from "../../../src/core/result.js";
import type { ApplyReport } from "../../../src/engine.js";

const edit: ReplaceEdit = {
  kind: "replace",
  path: "src/a.ts",
  ops: [],
  hint: {},
  explicitOps: false,
  origin: { format: "editblock", line: 1 },
};

const applied: EditResult = {
  ok: true,
  path: "src/a.ts",
  edit,
  before: "one\ntwo\nthree\n",
  after: "one\nTWO\nthree\n",
  strategy: "exact",
  lines: { start: 2, end: 2 },
};
const failed: FailedEdit = {
  ok: false,
  path: "src/b.ts",
  edit: { ...edit, path: "src/b.ts" },
  reason: "search-not-found",
  message: "src/b.ts: the SEARCH text was not found.\n 3 | real line",
};

const report = (results: EditResult[], extra: Partial<ApplyReport> = {}): ApplyReport => ({
  results,
  written: results.every((r) => r.ok) ? results.map((r) => r.path) : [],
  changes: new Map(),
  dryRun: false,
  summary: "the summary",
  ...extra,
});

describe("renderHuman", () => {
  it("prints a ✓ line with the strategy and a unified diff of the change", () => {
    const out = renderHuman(report([applied]), { color: false });
    expect(out).toContain("✓ src/a.ts  exact");
    expect(out).toContain("--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three");
    expect(out).not.toContain("====");
    expect(out).toContain("the summary; 1 file changed");
    expect(out).not.toContain("\u001b[");
  });

  it("shows one diff per file, from before its first edit to after its last", () => {
    const second: EditResult = { ...applied, before: "one\nTWO\nthree\n", after: "one\nTWO\nTHREE\n" };
    const out = renderHuman(report([applied, second]), { color: false });
    expect(out.match(/^--- a\/src\/a\.ts$/gm)).toHaveLength(1);
    expect(out).toContain("@@ -1,3 +1,3 @@\n one\n-two\n-three\n+TWO\n+THREE");
    expect(out.match(/^✓ src\/a\.ts {2}exact$/gm)).toHaveLength(2);
  });

  it("says of a repeated edit which edit it repeats, and that it was applied once", () => {
    const again: EditResult = { ...applied, before: applied.after, repeatOf: 1 };
    const out = renderHuman(report([applied, again]), { color: false });
    expect(out).toContain("✓ src/a.ts  repeats the edit at reply line 1, applied once");
    expect(out.match(/^--- a\/src\/a\.ts$/gm)).toHaveLength(1);
  });

  it("says of an edit that changes nothing where its lines were found", () => {
    const kept: EditResult = { ...applied, after: applied.before, changesNothing: { at: [3, 9] } };
    const out = renderHuman(report([kept]), { color: false });
    expect(out).toContain("✓ src/a.ts  changes nothing (its old and new lines are the same; found at lines 3, 9)");
  });

  it("prints a ✗ line with the reason and the indented message", () => {
    const out = renderHuman(report([failed]), { color: false });
    expect(out).toContain("✗ src/b.ts  search-not-found\n  src/b.ts: the SEARCH text was not found.\n   3 | real line");
  });

  it("shows creations from /dev/null, renames with an arrow, and the dry-run footer", () => {
    const created: EditResult = {
      ok: true,
      path: "n.ts",
      edit: { kind: "create", path: "n.ts", content: "x\n", origin: { format: "patch", line: 1 } },
      before: "",
      after: "x\n",
      strategy: "create",
    };
    const moved: EditResult = {
      ok: true,
      path: "a.ts",
      edit: { kind: "rename", path: "a.ts", to: "b.ts", origin: { format: "patch", line: 3 } },
      before: "x\n",
      after: "x\n",
      strategy: "rename",
    };
    const out = renderHuman(
      report([created, moved], {
        dryRun: true,
        written: [],
        changes: new Map([
          ["n.ts", "x\n"],
          ["a.ts", null],
          ["b.ts", "x\n"],
        ]),
      }),
      { color: false },
    );
    expect(out).toContain("--- /dev/null\n+++ b/n.ts");
    expect(out).toContain("✓ a.ts → b.ts  rename");
    expect(out).toContain("the summary (3 files would change)");
    expect(out).not.toContain("changed");
  });

  it("colours only when asked", () => {
    expect(renderHuman(report([applied]), { color: true })).toContain("\u001b[");
  });
});

describe("renderJson", () => {
  it("prints the contract's shape: exactly ok, path, reason/message or strategy per result", () => {
    const parsed = JSON.parse(renderJson(report([applied, failed]))) as Record<string, unknown>;
    expect(parsed["results"]).toEqual([
      { ok: true, path: "src/a.ts", strategy: "exact" },
      { ok: false, path: "src/b.ts", reason: "search-not-found", message: failed.message },
    ]);
    expect(parsed).toMatchObject({ written: [], dryRun: false, summary: "the summary" });
  });
});
