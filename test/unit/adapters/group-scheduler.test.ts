import { describe, expect, it } from "vitest";
import { createGroupScheduler } from "../../../src/adapters/group-scheduler.js";

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("group scheduler", () => {
  it("holds jobs until started, then runs at most `concurrency` groups and one job per group", async () => {
    const scheduler = createGroupScheduler<string>({ concurrency: 2 });
    const gates = new Map(["a1", "a2", "b1", "c1"].map((name) => [name, deferred()]));
    const started: string[] = [];
    for (const [group, job] of [
      ["A", "a1"],
      ["A", "a2"],
      ["B", "b1"],
      ["C", "c1"],
    ] as const)
      expect(scheduler.enqueue(group, job)).toBe(true);
    let idle = false;
    void scheduler.idle().then(() => (idle = true));
    await turn();
    expect(idle).toBe(false);
    expect(scheduler.pending("A")).toBe(2);

    scheduler.start(
      async (job) => {
        started.push(job);
        await gates.get(job)!.promise;
      },
      () => undefined,
    );
    expect(started).toEqual(["a1", "b1"]);
    expect(scheduler.pending("A")).toBe(2);
    expect(scheduler.pending("C")).toBe(1);
    gates.get("b1")!.resolve();
    await turn();
    expect(started).toEqual(["a1", "b1", "c1"]);
    for (const gate of gates.values()) gate.resolve();
    await scheduler.idle();
    expect(idle).toBe(true);
    expect(started).toEqual(["a1", "b1", "c1", "a2"]);
    expect(scheduler.pending("A")).toBe(0);
  });

  it("settles each job after its handler and before the group's next job, reporting failures of either", async () => {
    const events: string[] = [];
    const scheduler = createGroupScheduler<string>({
      concurrency: 1,
      settle: (job) => {
        events.push(`settle ${job}`);
        return job === "two" ? Promise.reject(new Error("disk full")) : Promise.resolve();
      },
    });
    scheduler.start(
      (job) => {
        events.push(`run ${job}`);
        return job === "one" ? Promise.reject(new Error("broken")) : Promise.resolve();
      },
      (error, job) => events.push(`error ${job}: ${(error as Error).message}`),
    );
    scheduler.enqueue("g", "one");
    scheduler.enqueue("g", "two");
    scheduler.enqueue("g", "three");
    await scheduler.idle();
    expect(events).toEqual([
      "run one",
      "error one: broken",
      "settle one",
      "run two",
      "settle two",
      "error two: disk full",
      "run three",
      "settle three",
    ]);
  });

  it("keeps going when the error sink itself throws", async () => {
    const scheduler = createGroupScheduler<string>({ concurrency: 1 });
    const done: string[] = [];
    scheduler.start(
      (job) => {
        if (job === "bad") return Promise.reject(new Error("broken"));
        done.push(job);
        return Promise.resolve();
      },
      () => {
        throw new Error("logger down");
      },
    );
    scheduler.enqueue("g", "bad");
    scheduler.enqueue("g", "good");
    await scheduler.idle();
    expect(done).toEqual(["good"]);
  });

  it("on close drops queued jobs, refuses new ones, and waits for the running job and its settle", async () => {
    const gate = deferred();
    const events: string[] = [];
    const scheduler = createGroupScheduler<string>({
      concurrency: 1,
      settle: (job) => {
        events.push(`settle ${job}`);
        return Promise.resolve();
      },
    });
    scheduler.start(
      async (job) => {
        events.push(`run ${job}`);
        await gate.promise;
      },
      () => undefined,
    );
    scheduler.enqueue("g", "one");
    scheduler.enqueue("h", "queued");
    const closing = scheduler.close();
    expect(scheduler.isClosed()).toBe(true);
    expect(scheduler.enqueue("g", "late")).toBe(false);
    expect(scheduler.pending("h")).toBe(0);
    gate.resolve();
    await closing;
    expect(events).toEqual(["run one", "settle one"]);
  });

  it("wakes idle waiters when closed before it was ever started", async () => {
    const scheduler = createGroupScheduler<string>({ concurrency: 1 });
    scheduler.enqueue("g", "never");
    const idle = scheduler.idle();
    await scheduler.close();
    await idle;
    expect(scheduler.pending("g")).toBe(0);
  });

  it("after pause, starts no further job but lets the running one finish and still takes new jobs", async () => {
    const scheduler = createGroupScheduler<string>({ concurrency: 1 });
    const gate = deferred();
    const started: string[] = [];
    scheduler.start(
      async (job) => {
        started.push(job);
        if (job === "a1") await gate.promise;
      },
      () => undefined,
    );
    scheduler.enqueue("A", "a1");
    scheduler.enqueue("B", "b1");
    expect(started).toEqual(["a1"]);
    scheduler.pause();
    expect(scheduler.enqueue("C", "c1")).toBe(true);
    gate.resolve();
    await turn();
    await turn();
    expect(started).toEqual(["a1"]);
    expect(scheduler.pending("B")).toBe(1);
    expect(scheduler.pending("C")).toBe(1);
    await scheduler.close();
  });

  it("runs at most `max` jobs of one key (an installation) at a time, while other keys' groups go on", async () => {
    const gates = new Map<string, { promise: Promise<void>; resolve: () => void }>();
    const started: string[] = [];
    const scheduler = createGroupScheduler<string>({
      concurrency: 4,
      perKey: { keyOf: (job) => job.split(":")[0], max: 1 },
    });
    scheduler.start(
      async (job) => {
        started.push(job);
        const gate = deferred();
        gates.set(job, gate);
        await gate.promise;
      },
      () => undefined,
    );
    // Three threads of installation "org1", one of "org2".
    scheduler.enqueue("A", "org1:a");
    scheduler.enqueue("B", "org1:b");
    scheduler.enqueue("C", "org2:c");
    scheduler.enqueue("D", "org1:d");
    await turn();
    expect(started).toEqual(["org1:a", "org2:c"]);
    gates.get("org1:a")!.resolve();
    await turn();
    await turn();
    expect(started).toEqual(["org1:a", "org2:c", "org1:b"]);
    gates.get("org1:b")!.resolve();
    await turn();
    await turn();
    expect(started.at(-1)).toBe("org1:d");
    for (const gate of gates.values()) gate.resolve();
    await scheduler.idle();
    await scheduler.close();
  });

  it("says how many wait and run, and when the oldest waiting job came", async () => {
    const gate = deferred();
    const scheduler = createGroupScheduler<string>({ concurrency: 1 });
    scheduler.enqueue("A", "a1", 1_000);
    scheduler.enqueue("A", "a2", 3_000);
    scheduler.enqueue("B", "b1", 2_000);
    expect(scheduler.depth()).toEqual({ queued: 3, running: 0, oldestQueuedAt: 1_000 });
    scheduler.start(
      () => gate.promise,
      () => undefined,
    );
    await turn();
    // a1 runs: the oldest waiting is now b1 (A's next, a2, came later).
    expect(scheduler.depth()).toEqual({ queued: 2, running: 1, oldestQueuedAt: 2_000 });
    gate.resolve();
    await scheduler.idle();
    expect(scheduler.depth()).toEqual({ queued: 0, running: 0 });
    await scheduler.close();
  });
});
