import { describe, expect, it } from "vitest";
import { createMemoryQueue } from "../../../src/adapters/memory-queue.js";
import { createPushLedger } from "../../../src/jobs/push-ledger.js";

const sha = (c: string): string => c.repeat(40);

describe("push ledger", () => {
  it("follows patchsmith's own pushes back to the SHA a command saw", async () => {
    const ledger = createPushLedger(createMemoryQueue());
    await ledger.record("acme/widgets", sha("a"), sha("b"));
    await ledger.record("acme/widgets", sha("b"), sha("c"));
    expect(await ledger.onlyOwnPushes("acme/widgets", sha("a"), sha("b"))).toBe(true);
    expect(await ledger.onlyOwnPushes("acme/widgets", sha("a"), sha("c"))).toBe(true);
    // Repository names are case-insensitive on GitHub.
    expect(await ledger.onlyOwnPushes("Acme/Widgets", sha("a"), sha("c"))).toBe(true);
  });

  it("does not vouch for a SHA it did not push, a chain that misses the start, or another repository", async () => {
    const ledger = createPushLedger(createMemoryQueue());
    await ledger.record("acme/widgets", sha("a"), sha("b"));
    expect(await ledger.onlyOwnPushes("acme/widgets", sha("a"), sha("d"))).toBe(false);
    expect(await ledger.onlyOwnPushes("acme/widgets", sha("e"), sha("b"))).toBe(false);
    expect(await ledger.onlyOwnPushes("fork/widgets", sha("a"), sha("b"))).toBe(false);
  });

  it("stops following a chain after a bounded number of pushes, and on a cycle", async () => {
    const ledger = createPushLedger(createMemoryQueue());
    const shas = Array.from({ length: 30 }, (_, i) => i.toString(16).padStart(40, "0"));
    for (let i = 1; i < shas.length; i++) await ledger.record("acme/w", shas[i - 1]!, shas[i]!);
    expect(await ledger.onlyOwnPushes("acme/w", shas[25]!, shas[29]!)).toBe(true);
    expect(await ledger.onlyOwnPushes("acme/w", shas[0]!, shas[29]!)).toBe(false);
    await ledger.record("acme/w", sha("f"), sha("e"));
    await ledger.record("acme/w", sha("e"), sha("f"));
    expect(await ledger.onlyOwnPushes("acme/w", sha("a"), sha("e"))).toBe(false);
  });
});
