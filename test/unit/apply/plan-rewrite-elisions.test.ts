import { describe, expect, it } from "vitest";
import { planEdits } from "../../../src/apply/plan.js";
import { parseReply } from "../../../src/formats/registry.js";
import { item, missing, reasons, searchReplace, snap } from "./plan-items.js";

const REFUSAL =
  "a whole-file reply must contain the entire file; '...' would delete the lines it stands for; use SEARCH/REPLACE blocks for partial changes";

/** A whole-file reply for `path`: path line, fence, body, closing fence (the body starts at reply line 3). */
const wholeReply = (path: string, body: string[]): string => [path, "```", ...body, "```", ""].join("\n");

const messageOf = (plan: ReturnType<typeof planEdits>, i = 0): string => {
  const r = plan.results[i]!;
  return r.ok ? "" : r.message;
};

describe("planEdits: suspected elisions in whole-file rewrites", () => {
  it("a suspected line the file holds verbatim (trimmed) is content: the rewrite applies", () => {
    const before = "def f(ov):\n    if ov:\n        # ... except on Windows 8\n        return 1\n    return None\n";
    const body = ["def f(ov):", "    if ov:", "      # ... except on Windows 8  ", "        return 1", "    return 0"];
    const plan = planEdits(parseReply(wholeReply("w.py", body)), snap({ "w.py": before }));
    expect(reasons(plan.results)).toEqual(["ok:rewrite"]);
    expect(plan.writes.get("w.py")).toBe(`${body.join("\n")}\n`);
  });

  it("a suspected line the file does not hold is refused with the model-readable message, at its reply line", () => {
    const before = "import x from 'x';\nconst a = 1;\nconst b = 2;\nexport {};\n";
    const body = ["import x from 'x';", "// ... existing code ...", "export { a };"];
    const plan = planEdits(parseReply(wholeReply("src/a.ts", body)), snap({ "src/a.ts": before }));
    expect(reasons(plan.results)).toEqual(["invalid-format"]);
    expect(plan.results[0]).toMatchObject({ path: "src/a.ts", edit: { kind: "rewrite" } });
    expect(messageOf(plan)).toBe(
      `src/a.ts (reply line 4): ${REFUSAL}. Nothing from this block was applied; resend it in a valid format.`,
    );
    expect(plan.writes.size).toBe(0);
  });

  it("checks every suspected line and names the first one the file lacks", () => {
    const before = "// ... see below\nkeep();\n";
    const body = ["// ... see below", "keep();", "// ... rest of the file ..."];
    const plan = planEdits(parseReply(wholeReply("a.ts", body)), snap({ "a.ts": before }));
    expect(reasons(plan.results)).toEqual(["invalid-format"]);
    expect(messageOf(plan)).toContain("a.ts (reply line 5): a whole-file reply must contain the entire file");
  });

  it("one more copy of a suspected line than the file holds is still an elision", () => {
    const before = "a();\n// ...\nb();\nc();\n";
    const lazy = planEdits(
      parseReply(wholeReply("a.ts", ["a();", "// ...", "// ...", "c();"])),
      snap({ "a.ts": before }),
    );
    expect(reasons(lazy.results)).toEqual(["invalid-format"]);
    expect(messageOf(lazy)).toContain("a.ts (reply line 5): a whole-file reply must contain the entire file");
    const full = planEdits(
      parseReply(wholeReply("a.ts", ["a();", "// ...", "b();", "d();"])),
      snap({ "a.ts": before }),
    );
    expect(reasons(full.results)).toEqual(["ok:rewrite"]);
  });

  it("a new file with a suspected elision is refused; one without is created", () => {
    const refused = planEdits(parseReply(wholeReply("n.ts", ["a();", "// ..."])), snap({ "n.ts": missing }));
    expect(reasons(refused.results)).toEqual(["invalid-format"]);
    expect(messageOf(refused)).toContain("n.ts (reply line 4): a whole-file reply must contain the entire file");
    const created = planEdits(parseReply(wholeReply("n.ts", ["a();"])), snap({ "n.ts": missing }));
    expect(created.results[0]).toMatchObject({ ok: true, strategy: "create", after: "a();\n" });
  });

  it("checks against the file as earlier edits of the same reply left it", () => {
    const rewrite = item({
      kind: "rewrite",
      path: "a.ts",
      content: "// ... (legacy) ...\nb();\n",
      origin: { format: "whole", line: 10 },
      suspectedElisions: [0],
    });
    const added = searchReplace("a.ts", ["a();"], ["// ... (legacy) ...", "a();"]);
    const kept = planEdits([added, rewrite], snap({ "a.ts": "a();\n" }));
    expect(reasons(kept.results)).toEqual(["ok:exact", "ok:rewrite"]);
    const removed = searchReplace("a.ts", ["// ... (legacy) ...", "a();"], ["a();"]);
    const refused = planEdits([removed, rewrite], snap({ "a.ts": "// ... (legacy) ...\na();\n" }));
    expect(reasons(refused.results)).toEqual(["not-applied", "invalid-format"]);
    expect(messageOf(refused, 1)).toContain("a.ts (reply line 11): a whole-file reply");
  });

  it("a rewrite without suspected elisions is not checked against the file's lines", () => {
    const rewrite = item({ kind: "rewrite", path: "a.ts", content: "new();\n", origin: { format: "whole", line: 1 } });
    expect(reasons(planEdits([rewrite], snap({ "a.ts": "old();\n" })).results)).toEqual(["ok:rewrite"]);
  });
});
