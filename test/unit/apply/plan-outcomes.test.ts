import { describe, expect, it } from "vitest";
import { planEdits } from "../../../src/apply/plan.js";
import { hunk, missing, reasons, rewrite, searchReplace, snap } from "./plan-items.js";

describe("planEdits: whole-file rewrites", () => {
  const long = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

  it("refuses a rewrite that looks like an excerpt of a long file", () => {
    const plan = planEdits([rewrite("a.ts", "line 3\n\nline 4\n")], snap({ "a.ts": long }));
    expect(reasons(plan.results)).toEqual(["invalid-format"]);
    expect(!plan.results[0]!.ok && plan.results[0]!.message).toContain(
      "this looks like an excerpt, not the whole file",
    );
  });

  it("accepts a short rewrite that brings new lines, and full rewrites", () => {
    expect(reasons(planEdits([rewrite("a.ts", "line 3\nbrand new\n")], snap({ "a.ts": long })).results)).toEqual([
      "ok:rewrite",
    ]);
    const short = "a\nb\n";
    expect(reasons(planEdits([rewrite("a.ts", "a\n")], snap({ "a.ts": short })).results)).toEqual(["ok:rewrite"]);
  });

  it("keeps the file's BOM, line endings and missing final newline", () => {
    const plan = planEdits([rewrite("a.ts", "x\ny\n")], snap({ "a.ts": "\uFEFFa\r\nb" }));
    expect(plan.writes.get("a.ts")).toBe("\uFEFFx\r\ny");
  });

  it("a rewrite of a missing file is a creation", () => {
    const plan = planEdits([rewrite("n.ts", "x\n")], snap({ "n.ts": missing }));
    expect(plan.results[0]).toMatchObject({ ok: true, strategy: "create", before: "", after: "x\n" });
  });
});

describe("planEdits: matcher outcomes become reasons and messages", () => {
  it("ambiguity lists every candidate line", () => {
    const plan = planEdits(
      [searchReplace("a.ts", ["x = 1;"], ["x = 2;"])],
      snap({ "a.ts": "x = 1;\ny = 0;\nx = 1;\n" }),
    );
    expect(reasons(plan.results)).toEqual(["ambiguous-match"]);
    expect(!plan.results[0]!.ok && plan.results[0]!.message).toContain("lines 1, 3");
  });

  it("a diff hunk that does not match is hunk-context-mismatch and quotes real lines with numbers", () => {
    const file = "alpha\nbeta\ngamma\ndelta\n";
    const plan = planEdits(
      [
        hunk(
          "a.ts",
          [
            { op: "context", text: "beta" },
            { op: "remove", text: "gamma ray" },
            { op: "add", text: "GAMMA" },
          ],
          2,
        ),
      ],
      snap({ "a.ts": file }),
    );
    expect(reasons(plan.results)).toEqual(["hunk-context-mismatch"]);
    const message = !plan.results[0]!.ok ? plan.results[0]!.message : "";
    expect(message).toContain("approximate");
    expect(message).toMatch(/\d \| (alpha|beta|gamma|delta)/);
  });

  it("a SEARCH that is not found but whose REPLACE is already there says so", () => {
    const plan = planEdits(
      [searchReplace("a.ts", ["const total = subtract(a, b);"], ["const total = a + b;"])],
      snap({ "a.ts": "const a = 1;\nconst b = 2;\nconst total = a + b;\nexport { total };\n" }),
    );
    expect(reasons(plan.results)).toEqual(["search-not-found"]);
    expect(!plan.results[0]!.ok && plan.results[0]!.message).toContain("already in a.ts");
  });
});
