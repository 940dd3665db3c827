/**
 * The Redis queue against a real `redis-server` on 127.0.0.1: the port's promises (dedupe, claims, one job at a time
 * per group in order, pending counts) across several queue instances as separate workers would hold them, a job
 * handed over twice, a head left without a hand-over, and a worker that dies mid-job.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRedisQueue, type RedisQueue } from "../../../src/adapters/redis-queue.js";
import { startRedis, type RedisServer } from "../../fakes/redis-server.js";

const HANGING_WORKER = fileURLToPath(new URL("../../fakes/redis-hanging-worker.ts", import.meta.url));
let redis: RedisServer;
let n = 0;
const open: Array<RedisQueue<string>> = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
  redis.cleanup();
});
afterEach(async () => {
  for (const queue of open.splice(0)) await queue.close().catch(() => undefined);
});

async function queueNamed(name: string, extra: { lockMs?: number; concurrency?: number } = {}) {
  const queue = await createRedisQueue<string>({
    url: redis.url,
    name,
    concurrency: extra.concurrency ?? 4,
    parse: (value) => (typeof value === "string" ? value : undefined),
    sweepMs: 200,
    ...(extra.lockMs === undefined ? {} : { lockMs: extra.lockMs }),
  });
  open.push(queue);
  return queue;
}

const fresh = (): string => `q${String(++n)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, probe: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(20);
  }
}

describe("the Redis queue", () => {
  it("adds an id once, keeps a claim with its first owner, and counts a group's jobs", async () => {
    const name = fresh();
    const first = await queueNamed(name);
    const second = await queueNamed(name);
    expect(await first.add("a", { id: "1", group: "g" })).toBe(true);
    expect(await second.add("a again", { id: "1", group: "g" })).toBe(false);
    expect(await first.add("b", { id: "2", group: "g" })).toBe(true);
    expect(await second.pending("g")).toBe(2);
    expect(await second.pending("other")).toBe(0);
    expect(await first.claim("command-1", "delivery-a")).toBe("delivery-a");
    expect(await second.claim("command-1", "delivery-b")).toBe("delivery-a");
    expect(await second.recall("command-1")).toBe("delivery-a");
    expect(await second.recall("command-2")).toBeUndefined();
    // Nothing started yet: both wait, the oldest since the first add.
    const depth = await second.depth();
    expect(depth).toMatchObject({ queued: 2, running: 0 });
    expect(Date.now() - depth.oldestQueuedAt!).toBeGreaterThanOrEqual(0);
    expect(Date.now() - depth.oldestQueuedAt!).toBeLessThan(60_000);
    first.start(
      () => Promise.resolve(),
      () => undefined,
    );
    await until("both to run", async () => (await first.pending("g")) === 0);
    expect(await second.depth()).toEqual({ queued: 0, running: 0 });
  });

  it("runs one job at a time per group in order, across workers, and groups side by side", async () => {
    const name = fresh();
    const producer = await queueNamed(name);
    const workers = [await queueNamed(name), await queueNamed(name), await queueNamed(name)];
    const ran: string[] = [];
    let running = new Map<string, number>();
    let overlap = false;
    for (const worker of workers) {
      worker.start(
        async (job) => {
          const group = job.split("-")[0]!;
          running.set(group, (running.get(group) ?? 0) + 1);
          if ((running.get(group) ?? 0) > 1) overlap = true;
          await sleep(5 + Math.floor(Math.random() * 10));
          ran.push(job);
          running.set(group, (running.get(group) ?? 1) - 1);
        },
        () => undefined,
      );
    }
    const groups = ["a", "b", "c", "d", "e"];
    for (let i = 0; i < 20; i++) {
      for (const g of groups) await producer.add(`${g}-${String(i)}`, { id: `${g}-${String(i)}`, group: g });
    }
    await until("all 100 jobs", () => ran.length === 100);
    expect(overlap).toBe(false);
    for (const g of groups) {
      const order = ran.filter((job) => job.startsWith(`${g}-`)).map((job) => Number(job.split("-")[1]));
      expect(order).toEqual([...Array(20).keys()]);
      expect(await producer.pending(g)).toBe(0);
    }
    running = new Map();
  });

  it("hands over a head that was appended but never handed over, and runs a job handed over twice once", async () => {
    const name = fresh();
    const raw = new Redis(redis.url);
    // As a process that died between the append and the hand-over would leave it.
    await raw.rpush(`patchsmith:${name}:group:g`, "orphan");
    await raw.set(`patchsmith:${name}:record:orphan`, JSON.stringify("orphan job"));
    await raw.set(`patchsmith:${name}:id:orphan`, "1");
    await raw.quit();
    const queue = await queueNamed(name);
    const ran: string[] = [];
    queue.start(
      async (job) => {
        ran.push(job);
        await sleep(1);
      },
      () => undefined,
    );
    await until("the orphan to run", () => ran.length === 1);
    expect(ran).toEqual(["orphan job"]);
    // Its group moved on; sweeping again hands nothing over and runs nothing twice.
    expect(await queue.sweep()).toBe(0);
    await queue.add("next", { id: "next", group: "g" });
    await until("the next one", () => ran.length === 2);
    await sleep(600);
    expect(ran).toEqual(["orphan job", "next"]);
  });

  it("gives the job of a worker killed mid-job to another worker, which finishes it, and the group goes on", async () => {
    const name = fresh();
    const producer = await queueNamed(name);
    await producer.add("first", { id: "first", group: "g" });
    await producer.add("second", { id: "second", group: "g" });
    const dying = spawn(process.execPath, ["--import", "tsx", HANGING_WORKER, redis.url, name, "1000"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let said = "";
    dying.stdout.on("data", (chunk: Buffer) => (said += chunk.toString("utf8")));
    await until("the first job to start in the other process", () => said.includes("started first"));
    dying.kill("SIGKILL");

    const ran: string[] = [];
    const taker = await queueNamed(name, { lockMs: 1_000 });
    taker.start(
      async (job) => {
        ran.push(job);
        await sleep(1);
      },
      () => undefined,
    );
    await until("both jobs on the other worker", () => ran.length === 2, 30_000);
    expect(ran).toEqual(["first", "second"]);
    await sleep(1_500);
    expect(ran).toEqual(["first", "second"]);
  }, 40_000);

  it("runs at most the per-key number of one installation's jobs at a time across workers", async () => {
    const name = fresh();
    const options = {
      url: redis.url,
      name,
      concurrency: 4,
      sweepMs: 200,
      parse: (value: unknown) => (typeof value === "string" ? value : undefined),
      perKey: { keyOf: (job: string) => job.split(":")[0], max: 1 },
      // A job over the limit is tried again after min(2 s, the lock): a short lock keeps the test short.
      lockMs: 500,
    };
    const workers = [await createRedisQueue<string>(options), await createRedisQueue<string>(options)];
    open.push(...workers);
    let running = 0;
    let most = 0;
    const ran: string[] = [];
    for (const worker of workers) {
      worker.start(
        async (job) => {
          if (job.startsWith("org1:")) running += 1;
          most = Math.max(most, running);
          await sleep(30);
          if (job.startsWith("org1:")) running -= 1;
          ran.push(job);
        },
        () => undefined,
      );
    }
    for (let i = 0; i < 6; i++)
      await workers[0]!.add(`org1:${String(i)}`, { id: `o1-${String(i)}`, group: `g${String(i)}` });
    await workers[0]!.add("org2:x", { id: "o2", group: "other" });
    await until("all seven jobs", () => ran.length === 7, 30_000);
    expect(most).toBe(1);
  }, 40_000);
});
