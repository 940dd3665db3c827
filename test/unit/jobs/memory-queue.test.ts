import { describe, expect, it } from "vitest";
import { createMemoryQueue } from "../../../src/adapters/memory-queue.js";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("memory queue", () => {
  it("runs one job at a time per group, in order, and other groups alongside", async () => {
    const queue = createMemoryQueue<string>({ concurrency: 2 });
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    for (const name of ["a1", "a2", "b1"]) gates.set(name, deferred());
    queue.start(
      async (job) => {
        log.push(`start ${job}`);
        await gates.get(job)!.promise;
        log.push(`end ${job}`);
      },
      () => undefined,
    );
    await queue.add("a1", { id: "a1", group: "A" });
    await queue.add("a2", { id: "a2", group: "A" });
    await queue.add("b1", { id: "b1", group: "B" });
    expect(log).toEqual(["start a1", "start b1"]);
    expect(await queue.pending("A")).toBe(2);
    gates.get("a1")!.resolve();
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(["start a1", "start b1", "end a1", "start a2"]);
    gates.get("a2")!.resolve();
    gates.get("b1")!.resolve();
    await queue.idle();
    expect(log.filter((l) => l.startsWith("end"))).toHaveLength(3);
    expect(await queue.pending("A")).toBe(0);
  });

  it("serves groups round robin, so a waiting group gets a free slot before a busy group's next job", async () => {
    const queue = createMemoryQueue<string>({ concurrency: 1 });
    const log: string[] = [];
    const gates = new Map(["a1", "a2", "b1"].map((name) => [name, deferred()]));
    queue.start(
      async (job) => {
        log.push(`start ${job}`);
        await gates.get(job)!.promise;
        log.push(`end ${job}`);
      },
      () => undefined,
    );
    await queue.add("a1", { id: "a1", group: "A" });
    await queue.add("a2", { id: "a2", group: "A" });
    await queue.add("b1", { id: "b1", group: "B" });
    gates.get("a1")!.resolve();
    await new Promise((r) => setImmediate(r));
    // A went to the back when a1 ended, so B's job runs before a2.
    expect(log).toEqual(["start a1", "end a1", "start b1"]);
    gates.get("b1")!.resolve();
    gates.get("a2")!.resolve();
    await queue.idle();
    expect(log.slice(3)).toEqual(["end b1", "start a2", "end a2"]);
  });

  it("adds an id only once, and keeps a claim with its first owner", async () => {
    const queue = createMemoryQueue<string>();
    expect(await queue.add("x", { id: "1", group: "g" })).toBe(true);
    expect(await queue.add("x again", { id: "1", group: "g" })).toBe(false);
    expect(await queue.claim("command-1", "a")).toBe("a");
    expect(await queue.claim("command-1", "b")).toBe("a");
    expect(await queue.recall("command-1")).toBe("a");
    expect(await queue.recall("command-2")).toBeUndefined();
    // Recalling takes nothing.
    expect(await queue.claim("command-2", "b")).toBe("b");
  });

  it("bounds its memory by forgetting the oldest claims", async () => {
    const queue = createMemoryQueue<string>({ memory: 2 });
    await queue.claim("k1", "a");
    await queue.claim("k2", "a");
    await queue.claim("k3", "a");
    expect(await queue.claim("k3", "b")).toBe("a");
    expect(await queue.claim("k1", "b")).toBe("b");
  });

  it("reports handler errors and keeps going", async () => {
    const queue = createMemoryQueue<string>();
    const errors: string[] = [];
    const done: string[] = [];
    queue.start(
      (job) => {
        if (job === "bad") return Promise.reject(new Error("broken"));
        done.push(job);
        return Promise.resolve();
      },
      (error, job) => errors.push(`${job}: ${(error as Error).message}`),
    );
    await queue.add("bad", { id: "1", group: "g" });
    await queue.add("good", { id: "2", group: "g" });
    await queue.idle();
    expect(errors).toEqual(["bad: broken"]);
    expect(done).toEqual(["good"]);
  });

  it("waits for running jobs on close and takes no new ones", async () => {
    const queue = createMemoryQueue<string>();
    const gate = deferred();
    let finished = false;
    queue.start(
      async () => {
        await gate.promise;
        finished = true;
      },
      () => undefined,
    );
    await queue.add("one", { id: "1", group: "g" });
    const closing = queue.close();
    expect(await queue.add("two", { id: "2", group: "g" })).toBe(false);
    gate.resolve();
    await closing;
    expect(finished).toBe(true);
  });
});
