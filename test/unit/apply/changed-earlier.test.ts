import { describe, expect, it } from "vitest";
import { editKey, explainChangedEarlier, resentEdits } from "../../../src/apply/changed-earlier.js";
import { planReply } from "../../../src/apply/plan-reply.js";
import type { EditResult } from "../../../src/core/result.js";
import { applyEdits } from "../../../src/engine.js";

const PATH = "src/cart.js";

const EARLIER = [
  "// The cart.",
  "export function total(items) {",
  "  let sum = 0;",
  "  for (const item of items) sum += item.price;",
  "  return sum;",
  "}",
  "",
  "export function count(items) {",
  "  return items.length;",
  "}",
  "",
].join("\n");

/** The earlier version after the model's first, unaccepted edits: a line added on top, the loop rewritten. */
const CURRENT = EARLIER.replace("// The cart.\n", "// The cart.\nimport { round } from './round.js';\n").replace(
  "item.price;",
  "item.price * item.quantity;",
);

const searchReplace = (search: string[], replace: string[]): string =>
  [PATH, "```js", "<<<<<<< SEARCH", ...search, "=======", ...replace, ">>>>>>> REPLACE", "```", ""].join("\n");

async function failedOn(current: string, reply: string): Promise<EditResult[]> {
  const { results } = await applyEdits(reply, (p) => (p === PATH ? current : undefined), { partial: true });
  return results;
}

async function explained(reply: string, earlier = EARLIER, current = CURRENT): Promise<EditResult[]> {
  return explainChangedEarlier(await failedOn(current, reply), new Map([[PATH, { earlier, current }]]));
}

const messageOf = (result: EditResult | undefined): string => (result?.ok === false ? result.message : "");

describe("an edit written against the file before the model's own earlier edits", () => {
  it("is told which lines those edits changed, and how they read now (numbered as the file is now)", async () => {
    const reply = searchReplace(
      ["  for (const item of items) sum += item.price;", "  return sum;"],
      ["  for (const item of items) sum += item.price * (item.quantity ?? 1);", "  return sum;"],
    );
    const [result] = await explained(reply);
    expect(result?.ok).toBe(false);
    expect(messageOf(result)).toBe(
      [
        `${PATH} (edit at reply line 3): the SEARCH text stood at lines 4-5 of ${PATH} before your earlier edits, ` +
          "which changed those lines and are still in the file (not undone). Those lines now read (lines 3-8 of 11):",
        "3 | export function total(items) {",
        "4 |   let sum = 0;",
        "5 |   for (const item of items) sum += item.price * item.quantity;",
        "6 |   return sum;",
        "7 | }",
        "8 | ",
        "Write the edit's old lines as they read now (copied exactly, without the line numbers) and send it again.",
      ].join("\n"),
    );
  });

  it("that resends a change those edits made is told the change is made", async () => {
    const reply = searchReplace(
      ["  for (const item of items) sum += item.price;"],
      ["  for (const item of items) sum += item.price * item.quantity;"],
    );
    const message = messageOf((await explained(reply))[0]);
    expect(message).toContain("They already read as this edit would leave them (lines 3-7 of 11):");
    expect(message).toContain("This change is made: do not send it again.");
  });

  it("quotes where the lines stood when those edits removed them", async () => {
    const current = EARLIER.replace("  let sum = 0;\n  for (const item of items) sum += item.price;\n", "");
    const reply = searchReplace(["  let sum = 0;"], ["  let sum = 0n;"]);
    const message = messageOf((await explained(reply, EARLIER, current))[0]);
    expect(message).toContain("stood at lines 3-3 of src/cart.js before your earlier edits");
    expect(message).toContain(
      [
        "Those lines now read (lines 1-4 of 8):",
        "1 | // The cart.",
        "2 | export function total(items) {",
        "3 |   return sum;",
      ].join("\n"),
    );
  });

  it("names a diff hunk's old lines so", async () => {
    const reply = [
      "```diff",
      `--- a/${PATH}`,
      `+++ b/${PATH}`,
      "@@ -3,3 +3,3 @@",
      "   let sum = 0;",
      "-  for (const item of items) sum += item.price;",
      "+  for (const item of items) sum += Number(item.price);",
      "   return sum;",
      "```",
      "",
    ].join("\n");
    const [result] = await explained(reply);
    expect(result?.ok === false && result.reason).toBe("hunk-context-mismatch");
    expect(messageOf(result)).toContain("the hunk's context and removed lines stood at lines 3-5 of src/cart.js");
  });
});

describe("other failures keep their message", () => {
  it("an edit that fits neither version", async () => {
    const reply = searchReplace(["  return items.size;"], ["  return items.length;"]);
    const before = await failedOn(CURRENT, reply);
    expect(await explained(reply)).toEqual(before);
  });

  it("a file the model's earlier edits did not change", async () => {
    const reply = searchReplace(["  return items.size;"], ["  return items.length;"]);
    const before = await failedOn(CURRENT, reply);
    expect(explainChangedEarlier(before, new Map([[PATH, { earlier: CURRENT, current: CURRENT }]]))).toEqual(before);
    expect(explainChangedEarlier(before, new Map())).toEqual(before);
  });
});

describe("an insertion sent again as the model first wrote it, beside the lines its earlier edit inserted", () => {
  const path = "src/camel.js";
  const earlier = [
    "export function camel(input) {",
    "  if (input.length === 0) {",
    "    return '';",
    "  }",
    "",
    "  const lower = input.toLowerCase();",
    "  const upper = input.toUpperCase();",
    "  return lower + upper;",
    "}",
    "",
  ].join("\n");
  const inserted = [
    "  // Keep a leading underscore",
    "  const prefix = input.match(/^_*/)[0];",
    "  input = input.slice(prefix.length);",
    "",
    "  if (input.length === 0) {",
    "    return prefix;",
    "  }",
    "",
  ];
  // The earlier, unaccepted edit inserted the block (a lint then failed on its `var` and missing semicolon).
  const current = earlier.replace(
    "  }\n\n  const lower",
    `  }\n\n${inserted.join("\n").replace("const prefix", "var prefix").replace("[0];", "[0]")}\n  const lower`,
  );
  const reply = [
    path,
    "```diff",
    `--- a/${path}`,
    `+++ b/${path}`,
    "@@ -3,5 +3,13 @@ export function camel(input) {",
    "     return '';",
    "   }",
    " ",
    ...inserted.map((line) => `+${line}`),
    "   const lower = input.toLowerCase();",
    "   const upper = input.toUpperCase();",
    "```",
    "",
  ].join("\n");
  const readState = (content: string) => (p: string) =>
    Promise.resolve(p === path ? ({ kind: "text", content } as const) : ({ kind: "missing" } as const));

  it("fits the file now only loosely, and is refused rather than written a second time", async () => {
    const loose = await planReply(reply, readState(current), { partial: true });
    const [result] = loose.results;
    // On its own the engine lands it loosely, which would write the block twice.
    expect(result).toMatchObject({ ok: true, strategy: "fuzzy" });
    expect(loose.files.get(path)?.split("leading underscore").length).toBe(3);

    const resent = resentEdits(loose.results, new Map([[path, { earlier, current }]]));
    expect([...resent.keys()]).toEqual([editKey(result!.edit!)]);
    const refused = await planReply(reply, readState(current), {
      partial: true,
      refuse: (edit) => resent.get(editKey(edit)),
    });
    expect(refused.files.size).toBe(0);
    expect(refused.results[0]).toMatchObject({ ok: false, reason: "hunk-context-mismatch" });
    expect(messageOf(refused.results[0])).toContain("before your earlier edits, which changed those lines");
    expect(messageOf(refused.results[0])).toContain("  var prefix = input.match(/^_*/)[0]");
  });

  it("is not refused where the earlier edits changed nothing it touches", async () => {
    const elsewhere = earlier.replace("return lower + upper;", "return `${lower}${upper}`;");
    const { results } = await planReply(reply, readState(elsewhere), { partial: true });
    expect(results[0]?.ok).toBe(true);
    expect(resentEdits(results, new Map([[path, { earlier, current: elsewhere }]])).size).toBe(0);
  });
});
