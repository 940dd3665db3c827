import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createFileQueue, type FileQueue, type FileQueueOptions } from "../../../src/adapters/file-queue.js";
import { hashOf, jobFileName } from "../../../src/adapters/file-queue-store.js";
import { PROJECT_ROOT } from "../../global-build.js";

const DAY = 24 * 60 * 60 * 1000;
const parseString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

const temps: string[] = [];
const queues: FileQueue<string>[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  // A failed assertion must not leave a child process hanging on a job that never ends.
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const queue of queues.splice(0)) await queue.close();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "patchsmith-fq-"));
  temps.push(dir);
  return dir;
}

async function open(dir: string, options: Partial<FileQueueOptions<string>> = {}): Promise<FileQueue<string>> {
  const queue = await createFileQueue<string>({ dir, parse: parseString, ...options });
  queues.push(queue);
  return queue;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Polls a condition that depends on asynchronous file work (no timing is asserted; vitest's timeout bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Starts a queue that records each job it runs and finishes at once. */
function record(queue: FileQueue<string>, errors: string[] = []): string[] {
  const log: string[] = [];
  queue.start(
    (job) => {
      log.push(job);
      return Promise.resolve();
    },
    (error, job) => errors.push(`${job}: ${(error as Error).message}`),
  );
  return log;
}

const jobFiles = (dir: string): string[] => readdirSync(path.join(dir, "jobs"));

describe("file queue: the memory queue's semantics", () => {
  it("runs one job at a time per group, in order, and other groups alongside", async () => {
    const dir = tempDir();
    const queue = await open(dir, { concurrency: 2 });
    const log: string[] = [];
    const gates = new Map(["a1", "a2", "b1", "c1"].map((name) => [name, deferred()]));
    queue.start(
      async (job) => {
        log.push(`start ${job}`);
        await gates.get(job)!.promise;
        log.push(`end ${job}`);
      },
      () => undefined,
    );
    // Not awaited one by one: the queue must still keep call order within a group (groups add side by side, so
    // the order between groups is the order their adds finish: awaited here to make it the call order).
    await Promise.all([queue.add("a1", { id: "a1", group: "A" }), queue.add("a2", { id: "a2", group: "A" })]);
    await queue.add("b1", { id: "b1", group: "B" });
    await queue.add("c1", { id: "c1", group: "C" });
    expect(log).toEqual(["start a1", "start b1"]);
    expect(await queue.pending("A")).toBe(2);
    expect(await queue.pending("C")).toBe(1);
    expect(jobFiles(dir)).toHaveLength(4);

    gates.get("a1")!.resolve();
    await until(() => log.length === 4);
    // Round robin: A goes to the back once a1 ends, so waiting group C gets the free slot before a2.
    expect(log.slice(2)).toEqual(["end a1", "start c1"]);
    expect(jobFiles(dir)).toHaveLength(3);
    gates.get("c1")!.resolve();
    await until(() => log.length === 6);
    expect(log.slice(4)).toEqual(["end c1", "start a2"]);
    for (const gate of gates.values()) gate.resolve();
    await queue.idle();
    expect(log.filter((line) => line.startsWith("end"))).toHaveLength(4);
    expect(log.indexOf("end a1")).toBeLessThan(log.indexOf("start a2"));
    expect(await queue.pending("A")).toBe(0);
    expect(jobFiles(dir)).toEqual([]);
  });

  it("adds an id only once and keeps claims with their owner, also across a new instance on the same folder", async () => {
    const dir = tempDir();
    const first = await open(dir);
    expect(await first.add("x", { id: "1", group: "g" })).toBe(true);
    expect(await first.add("x again", { id: "1", group: "g" })).toBe(false);
    expect(await first.claim("command-1", "delivery-a")).toBe("delivery-a");
    expect(await first.claim("command-1", "delivery-b")).toBe("delivery-a");
    expect(await first.claim("command-1", "delivery-a")).toBe("delivery-a");
    await first.close();

    const second = await open(dir);
    expect(await second.add("x third", { id: "1", group: "g" })).toBe(false);
    expect(await second.claim("command-1", "delivery-c")).toBe("delivery-a");
    expect(await second.recall("command-1")).toBe("delivery-a");
    expect(await second.recall("command-3")).toBeUndefined();
    expect(await second.claim("command-2", "delivery-c")).toBe("delivery-c");
    // Finished jobs stay deduplicated too (their file is gone, their id marker is not).
    const log = record(second);
    await second.idle();
    expect(log).toEqual(["x"]);
    expect(await second.add("x fourth", { id: "1", group: "g" })).toBe(false);
  });

  it("reports handler errors, removes the job's file and keeps going", async () => {
    const dir = tempDir();
    const queue = await open(dir);
    const errors: string[] = [];
    const done: string[] = [];
    queue.start(
      (job) => {
        if (job === "bad") throw new Error("broken");
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
    expect(jobFiles(dir)).toEqual([]);
  });

  it("waits for the running job on close, takes no new ones, and leaves queued ones on disk", async () => {
    const dir = tempDir();
    const queue = await open(dir, { concurrency: 1 });
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
    await queue.add("two", { id: "2", group: "g" });
    const closing = queue.close();
    expect(await queue.add("three", { id: "3", group: "g" })).toBe(false);
    gate.resolve();
    await closing;
    expect(finished).toBe(true);
    expect(jobFiles(dir)).toHaveLength(1);

    const next = await open(dir);
    expect(next.recovered).toBe(1);
    expect(await next.pending("g")).toBe(1);
    const log = record(next);
    await next.idle();
    expect(log).toEqual(["two"]);
    // "three" was refused, not half-added: its id is still free.
    expect(await next.add("three", { id: "3", group: "g" })).toBe(true);
  });
});

describe("file queue: adds side by side", () => {
  it("keeps each group's call order when adds to many groups are not awaited, also after a restart", async () => {
    const dir = tempDir();
    const first = await open(dir, { concurrency: 4 });
    const calls = Array.from({ length: 200 }, (_, i) => ({
      job: `g${String(i % 10)}-${String(i)}`,
      group: `g${String(i % 10)}`,
    }));
    await Promise.all(calls.map((c) => first.add(c.job, { id: c.job, group: c.group })));
    await first.close();
    // Read back by a new instance: the order on disk is the call order too.
    const second = await open(dir, { concurrency: 4 });
    const ran = record(second);
    await second.idle();
    for (let g = 0; g < 10; g++) {
      const mine = calls.filter((c) => c.group === `g${String(g)}`).map((c) => c.job);
      expect(ran.filter((job) => job.startsWith(`g${String(g)}-`))).toEqual(mine);
    }
    await second.close();
  });
});

describe("file queue: durability", () => {
  it("runs jobs added by an instance that never started, in order, in a new instance", async () => {
    const dir = tempDir();
    const first = await open(dir);
    for (const name of ["a1", "b1", "a2", "a3"]) await first.add(name, { id: name, group: name[0]! });
    await first.close();

    const second = await open(dir, { concurrency: 1 });
    expect(second.recovered).toBe(4);
    expect(await second.pending("a")).toBe(3);
    const log = record(second);
    await second.idle();
    expect(log.filter((name) => name.startsWith("a"))).toEqual(["a1", "a2", "a3"]);
    expect(log.sort()).toEqual(["a1", "a2", "a3", "b1"]);
  });

  it("keeps the folder private", async () => {
    const dir = path.join(tempDir(), "nested", "store");
    await open(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, "jobs")).mode & 0o777).toBe(0o700);
  });

  it("rolls forward an add interrupted after its commit point and discards one interrupted before it", async () => {
    const dir = tempDir();
    await (await open(dir)).close();
    const token = "00000000-0000-4000-8000-000000000001";
    const committed = jobFileName(7, hashOf("late"));
    const body = (id: string): string => JSON.stringify({ id, group: "g", enqueuedAt: 1, job: id });
    writeFileSync(path.join(dir, "tmp", `${committed}.${token}.tmp`), body("late"));
    writeFileSync(path.join(dir, "ids", hashOf("late")), JSON.stringify({ at: Date.now(), token }));
    const uncommitted = jobFileName(8, hashOf("early"));
    writeFileSync(path.join(dir, "tmp", `${uncommitted}.00000000-0000-4000-8000-000000000002.tmp`), body("early"));
    writeFileSync(path.join(dir, "tmp", "0a6e2b7e-0000-4000-8000-000000000003.mark"), "");

    const queue = await open(dir);
    expect(readdirSync(path.join(dir, "tmp"))).toEqual([]);
    expect(queue.recovered).toBe(1);
    const log = record(queue);
    await queue.idle();
    expect(log).toEqual(["late"]);
    expect(await queue.add("early", { id: "early", group: "g" })).toBe(true);
    // The new job's sequence continues after the recovered one's, so restarts keep order.
    expect(jobFiles(dir).every((name) => name > committed)).toBe(true);
  });

  it("quarantines truncated, invalid and stray records, reports them, and still runs the rest", async () => {
    const dir = tempDir();
    const first = await open(dir);
    for (const name of ["j1", "j2", "j3", "j4"]) await first.add(name, { id: name, group: "g" });
    await first.close();
    const [one, two, three] = jobFiles(dir).sort();
    const file = (name: string | undefined): string => path.join(dir, "jobs", name!);
    const text = readFileSync(file(one), "utf8");
    writeFileSync(file(one), text.slice(0, text.length - 5));
    writeFileSync(file(two), JSON.stringify({ id: "j2", group: "g", enqueuedAt: 1, job: 42 }));
    writeFileSync(file(three), JSON.stringify({ id: "someone-else", group: "g", enqueuedAt: 1, job: "j3" }));
    writeFileSync(path.join(dir, "jobs", "notes.txt"), "left here by hand");

    const reports: string[] = [];
    const second = await open(dir, { onCorrupt: (found) => reports.push(found.reason) });
    expect(second.corrupt).toBe(4);
    expect(reports).toEqual([
      expect.stringContaining("truncated or invalid JSON"),
      expect.stringContaining("rejected by parse"),
      expect.stringContaining("does not match"),
      expect.stringContaining("not a job file name"),
    ]);
    expect(readdirSync(path.join(dir, "corrupt"))).toHaveLength(4);
    const log = record(second);
    await second.idle();
    expect(log).toEqual(["j4"]);
    expect(jobFiles(dir)).toEqual([]);
  });

  it("sweeps keys and finished ids past the retention, but keeps recent ones and ids of pending jobs", async () => {
    const dir = tempDir();
    let clock = 0;
    const now = (): number => clock;
    const first = await open(dir, { now });
    await first.claim("old-key", "o");
    await first.add("old-done", { id: "old-done", group: "g" });
    const log = record(first);
    await first.idle();
    expect(log).toEqual(["old-done"]);
    await first.close();
    const never = await open(dir, { now });
    await never.add("old-pending", { id: "old-pending", group: "h" });
    await never.close();
    clock = 20 * DAY;
    const middle = await open(dir, { now });
    await middle.claim("recent-key", "o");
    await middle.close();

    clock = 31 * DAY;
    const last = await open(dir, { now, retentionMs: 30 * DAY });
    expect(last.swept).toBe(2);
    expect(await last.claim("old-key", "new")).toBe("new");
    expect(await last.claim("recent-key", "new")).toBe("o");
    expect(await last.add("old-done", { id: "old-done", group: "g" })).toBe(true);
    expect(await last.add("old-pending", { id: "old-pending", group: "h" })).toBe(false);
  });
});

describe("file queue: kill -9", () => {
  const QUEUE_MODULE = pathToFileURL(path.join(PROJECT_ROOT, "src", "adapters", "file-queue.ts")).href;

  /** A child Node process running `body` with `queue` open on argv[2] (tsx compiles it on the fly). */
  function writeChild(dir: string, body: string): string {
    const script = path.join(dir, "child.mts");
    writeFileSync(
      script,
      `import { appendFileSync } from "node:fs";
import { createFileQueue } from ${JSON.stringify(QUEUE_MODULE)};
const [dir, log] = process.argv.slice(2) as [string, string];
const queue = await createFileQueue<string>({ dir, concurrency: 1, parse: (v) => (typeof v === "string" ? v : undefined) });
void appendFileSync;
${body}
`,
    );
    return script;
  }

  /** Runs the child until it prints a line that `stop` accepts, then kills it with SIGKILL; returns its lines. */
  async function killWhen(script: string, args: string[], stop: (lines: string[]) => boolean): Promise<string[]> {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const lines: string[] = [];
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, signal) => {
        resolve(signal);
      }),
    );
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on("line", (line) => {
        lines.push(line);
        if (stop(lines)) resolve();
      });
      void exited.then(() => {
        reject(new Error(`child exited before the kill point:\n${stderr}`));
      });
    });
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    return lines;
  }

  it("reruns the interrupted job and runs every queued one exactly once after a SIGKILL mid-job", async () => {
    const dir = tempDir();
    const store = path.join(dir, "store");
    const runs = path.join(dir, "runs.log");
    const script = writeChild(
      dir,
      `await queue.claim("delivery-1", "first");
for (const [id, group] of [["a1", "A"], ["a2", "A"], ["b1", "B"]]) await queue.add(id, { id, group });
queue.start(async (job) => {
  appendFileSync(log, job + "\\n");
  if (job !== "a2") return;
  await queue.add("a3", { id: "a3", group: "A" });
  await queue.add("b2", { id: "b2", group: "B" });
  console.log("blocked in a2");
  await new Promise(() => undefined);
}, (error) => console.error(error));`,
    );
    await killWhen(script, [store, runs], (lines) => lines.includes("blocked in a2"));
    // Round robin with one slot: a1, then B's turn, then a2, which never ends.
    expect(readFileSync(runs, "utf8")).toBe("a1\nb1\na2\n");

    const queue = await open(store, { concurrency: 1 });
    expect(queue.corrupt).toBe(0);
    expect(queue.recovered).toBe(3);
    const log = record(queue);
    await queue.idle();
    // a1 and b1 finished before the kill and are gone; a2 runs again (at least once); a3 and b2 run once, A in order.
    expect(log.filter((job) => job.startsWith("a"))).toEqual(["a2", "a3"]);
    expect([...log].sort()).toEqual(["a2", "a3", "b2"]);
    expect(await queue.claim("delivery-1", "other")).toBe("first");
    for (const id of ["a1", "a2", "a3", "b1", "b2"]) expect(await queue.add(id, { id, group: "A" })).toBe(false);
    expect(jobFiles(store)).toEqual([]);
  });

  it("loses no acknowledged add and tears no record when killed in the middle of a stream of adds", async () => {
    const dir = tempDir();
    const store = path.join(dir, "store");
    const script = writeChild(
      dir,
      `for (let i = 0; ; i++) {
  const id = "job-" + i;
  if (await queue.add(id, { id, group: "g" + (i % 3) })) console.log(id);
}`,
    );
    const acknowledged = await killWhen(script, [store, ""], (lines) => lines.length >= 40);
    const queue = await open(store, { concurrency: 2 });
    expect(queue.corrupt).toBe(0);
    expect(readdirSync(path.join(store, "tmp"))).toEqual([]);
    const log = record(queue);
    await queue.idle();
    for (const id of acknowledged) expect(log).toContain(id);
    // At most the one add in flight at the kill may have landed without its acknowledgement being printed.
    expect(log.length - acknowledged.length).toBeLessThanOrEqual(2);
    expect(new Set(log).size).toBe(log.length);
    // Each group still ran in the order its jobs were added.
    const order = (group: number): number[] =>
      log.map((id) => Number(id.slice("job-".length))).filter((n) => n % 3 === group);
    for (const group of [0, 1, 2]) expect(order(group)).toEqual([...order(group)].sort((a, b) => a - b));
  });
});
