import { describe, expect, it } from "vitest";
import { buildNoEditsPrompt, buildSystemPrompt, describeTests } from "../../../src/agent/build-prompt.js";
import { FORMAT_NAMES } from "../../../src/core/edit.js";
import { parseReply } from "../../../src/formats/registry.js";

/** The example each dialect's teaching shows, as a reply of its own: it must parse in that dialect. */
const example = (prompt: string): string => prompt.slice(prompt.indexOf("Example:") + "Example:".length);

describe("the dialect the model is taught", () => {
  it.each(FORMAT_NAMES)("teaches %s in the system prompt and after a reply without edits", (format) => {
    const system = buildSystemPrompt({ forbidden: [], reproduce: false, format });
    const again = buildNoEditsPrompt(true, format);
    for (const prompt of [system, again]) {
      const items = parseReply(example(prompt), { format });
      expect(items.length, `${format}: the example teaches an edit`).toBeGreaterThan(0);
      expect(items.every((item) => item.type === "edit")).toBe(true);
    }
    // Only the chosen dialect is taught: one model, one way to write edits.
    for (const other of FORMAT_NAMES.filter((f) => f !== format)) {
      const marker = { editblock: "<<<<<<< SEARCH", udiff: "+++ b/", patch: "*** Begin Patch", whole: "ENTIRE" }[other];
      expect(system, `${format} prompt mentions ${other}`).not.toContain(marker);
    }
  });
});

describe("the tests before the change, as the model reads them", () => {
  it("says what limit of the sandbox ended them, which their output shows only as a kill signal", () => {
    const summary = {
      command: "node --test",
      passed: false,
      exitCode: 1,
      timedOut: false,
      failing: ["test/ids.test.js"],
      tail: "not ok 1 - test/ids.test.js\n  signal: 'SIGKILL'\n",
      durationMs: 66_000,
      limit: { kind: "memory" as const, message: "the command used more than 4 GiB of memory" },
    };
    const text = describeTests("node --test", summary, (t) => t);
    expect(text).toContain(
      "Failing: test/ids.test.js.\nThe sandbox stopped them: the command used more than 4 GiB of memory.",
    );
    const { limit: _limit, ...unlimited } = summary;
    expect(describeTests("node --test", unlimited, (t) => t)).not.toContain("sandbox");
  });
});
