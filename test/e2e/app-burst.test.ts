/**
 * The App under a burst of signed deliveries and a `kill -9` in the middle of it, end to end: `node dist/cli.js serve`
 * against the fake GitHub (real git over HTTP) and the fake model. Four issues and one pull request each get a stream
 * of `/fix` commands, some delivered twice; the process is killed once a number of them are acknowledged, restarted,
 * and the rest (with whatever was in flight) is delivered again. Every acknowledged command must then have run exactly
 * once (one commit on its thread's branch) or have been refused with a reply that names it; per thread, in the order
 * the app acknowledged them; no comment may be left at "queued".
 */
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { git, makeNodeRepo } from "../fakes/git-repos.js";
import { startRedis, type RedisServer } from "../fakes/redis-server.js";
import type { RecordedRequest } from "../fakes/openai-server.js";
import {
  addPull,
  commentsOf,
  deliver,
  issueComment,
  publishRepo,
  startHarness,
  waitFor,
  type Harness,
} from "./app-harness.js";

const ISSUES = [1, 2, 3, 4];
const PULL = 5;
const THREADS = [...ISSUES, PULL];
const COMMANDS = 400;
/** Every fourth command is delivered a second time (same delivery id): 100 duplicates, 500 deliveries. */
const DUPLICATE_EVERY = 4;
const KILL_AFTER_ACKS = 220;
const TIMEOUT = 600_000;

let h: Harness | undefined;
let redis: RedisServer | undefined;

afterEach(async () => {
  await h?.stop();
  h = undefined;
  await redis?.stop();
  redis?.cleanup();
  redis = undefined;
});

const instruction = (n: number): string => `add the note for ticket T${String(n)}`;
const subject = (n: number): string => `docs: add note N${String(n)}`;

/** The model writes a new file per command, so every command that runs leaves exactly one commit. */
function modelReply(request: RecordedRequest): string {
  const text = JSON.stringify(request.body);
  const n = /ticket T(\d+)/.exec(text)?.[1];
  if (n === undefined) return "I cannot tell which ticket this is.";
  return [
    `notes/note-${n}.md`,
    "```",
    "<<<<<<< SEARCH",
    "=======",
    `Note number ${n}.`,
    ">>>>>>> REPLACE",
    "```",
    `COMMIT: ${subject(Number(n))}`,
  ].join("\n");
}

interface Delivery {
  readonly n: number;
  readonly thread: number;
  readonly id: string;
  readonly payload: unknown;
}

/** Per thread, the deliveries in the order they are sent: each command, and some of them again a little later. */
function plan(harness: Harness, full: string): Map<number, Delivery[]> {
  const streams = new Map<number, Delivery[]>(THREADS.map((t) => [t, []]));
  const later: Delivery[] = [];
  for (let n = 0; n < COMMANDS; n++) {
    const thread = THREADS[n % THREADS.length]!;
    const payload = issueComment(harness, full, thread, `/fix ${instruction(n)}`, {
      pull: thread === PULL,
      id: 50_000 + n,
    });
    const delivery = { n, thread, id: `burst-${String(n)}`, payload };
    const stream = streams.get(thread)!;
    stream.push(delivery);
    // A redelivery of an earlier command, a few commands after it.
    const due = later.findIndex((d) => d.thread === thread);
    if (due >= 0 && n % 3 === 0) stream.push(...later.splice(due, 1));
    if (n % DUPLICATE_EVERY === 0) later.push(delivery);
  }
  for (const d of later) streams.get(d.thread)!.push(d);
  return streams;
}

function branchLog(harness: Harness, full: string, branch: string): string[] {
  return execFileSync("git", ["log", "--reverse", "--format=%s", branch], {
    cwd: harness.github.gitDir(full),
    encoding: "utf8",
  })
    .split("\n")
    .filter((line) => line !== "");
}

describe.each([
  ["the embedded store: one `serve`", false],
  ["Redis: `serve --workers 0` and three `patchsmith worker`", true],
] as const)("under a burst of deliveries and a kill -9 of every process, with %s", (_name, shared) => {
  it(
    "runs every acknowledged command once, in order per thread, or refuses it by name; leaves nothing queued",
    async () => {
      if (shared) redis = await startRedis();
      const harness = (h = await startHarness({
        env: {
          PATCHSMITH_CONCURRENCY: shared ? "2" : "5",
          PATCHSMITH_LOG_LEVEL: "info",
          // A killed worker's job is taken over by another after this long.
          PATCHSMITH_WORKER_LOCK_SECONDS: "2",
        },
        tmpInRoot: true,
        ...(redis === undefined ? {} : { redis: { url: redis.url, workers: 3 } }),
      }));
      harness.modelStep = modelReply;
      const work = makeNodeRepo({ bug: false, files: { ".github/patchsmith.yml": "test: node --test\n" } });
      git(work.dir, ["branch", "feature", "main"]);
      const full = publishRepo(harness, work, "burst");
      work.cleanup();
      for (const n of ISSUES) harness.github.issues.set(`${full}#${String(n)}`, { title: "Notes", body: "Notes." });
      addPull(harness, full, PULL, "feature");
      const streams = plan(harness, full);
      expect([...streams.values()].flat()).toHaveLength(COMMANDS + COMMANDS / DUPLICATE_EVERY);

      // Per thread, the commands in the order the app acknowledged them (each thread sends one at a time).
      const acked = new Map<number, number[]>(THREADS.map((t) => [t, []]));
      const ackedOnce = new Set<number>();
      let acks = 0;
      let killing: Promise<unknown> | undefined;
      const send = async (phase: "before" | "after"): Promise<void> => {
        await Promise.all(
          THREADS.map(async (thread) => {
            const stream = streams.get(thread)!;
            while (stream.length > 0) {
              if (phase === "before" && killing !== undefined) return;
              const next = stream[0]!;
              let status: number;
              try {
                status = await deliver(harness, "issue_comment", next.payload, { id: next.id });
              } catch {
                // Cut off by the kill: not acknowledged, so GitHub would show it as failed; it is sent again.
                return;
              }
              expect(status).toBe(200);
              stream.shift();
              if (!ackedOnce.has(next.n)) {
                ackedOnce.add(next.n);
                acked.get(thread)!.push(next.n);
              }
              acks += 1;
              if (phase === "before" && acks === KILL_AFTER_ACKS) killing = harness.kill("SIGKILL");
            }
          }),
        );
      };

      await send("before");
      expect(await killing).toEqual({ code: null, signal: "SIGKILL" });
      await harness.restart();
      await send("after");
      expect(ackedOnce.size).toBe(COMMANDS);
      // Three workers before the kill and three after it took the jobs; the webhook process took none.
      if (shared) expect(harness.output().match(/worker ready/g)).toHaveLength(6);

      const refusal = (n: number): string => `\`/fix ${instruction(n)}\` was not queued`;
      const outcomeOf = (n: number, comments: string[], logs: Map<number, string[]>) => {
        const thread = THREADS[n % THREADS.length]!;
        const ran = (logs.get(thread) ?? []).filter((s) => s === subject(n)).length;
        const refused = comments.filter((c) => c.includes(refusal(n))).length;
        return { ran, refused };
      };
      const snapshot = () => {
        const logs = new Map<number, string[]>();
        for (const thread of ISSUES) {
          const branch = `patchsmith/issue-${String(thread)}`;
          if (harness.github.branchSha(full, branch) !== undefined) logs.set(thread, branchLog(harness, full, branch));
        }
        logs.set(PULL, branchLog(harness, full, "feature"));
        return { logs, comments: commentsOf(harness, full) };
      };
      // Settled when every command has an answer and no comment still waits or works (the assertions below say
      // whether the answers are the right ones).
      // Progress: the comments change as each command is answered (the queue drains at the machine's pace). The
      // branches are read (a git process each) only once the comments say all is answered: polling them would take
      // the CPU the jobs need.
      const settled = await waitFor(
        harness,
        "every command to be answered",
        () => {
          const comments = commentsOf(harness, full);
          const open = comments.filter((c) => c.includes("⏳"));
          const named = new Set(comments.flatMap((c) => [...c.matchAll(/ticket T(\d+)`/g)].map((m) => Number(m[1]))));
          const answered = [...ackedOnce].every((n) => named.has(n));
          return answered && open.length === 0 ? snapshot() : undefined;
        },
        () => commentsOf(harness, full).join("\n"),
      );

      let ran = 0;
      for (const n of ackedOnce) {
        const o = outcomeOf(n, settled.comments, settled.logs);
        // Exactly once: one commit, or one refusal, never both, never twice (the answers say why when not).
        const answers = settled.comments.filter((c) => c.includes(`ticket T${String(n)}\``));
        expect({ n, ...o, answers }).toSatisfy(
          (x: { ran: number; refused: number }) => (x.ran === 1 && x.refused === 0) || (x.ran === 0 && x.refused === 1),
        );
        ran += o.ran;
      }
      // The cap let some through on every thread, and the kill interrupted work on some of them.
      expect(ran).toBeGreaterThanOrEqual(THREADS.length * 2);
      for (const thread of THREADS) {
        const order = acked.get(thread)!;
        const done = (settled.logs.get(thread) ?? [])
          .map((s) => /^docs: add note N(\d+)$/.exec(s)?.[1])
          .filter((x) => x !== undefined)
          .map(Number);
        expect(done.length).toBeGreaterThan(0);
        // The commits on the thread's branch follow the order the commands were acknowledged in.
        expect(done.map((n) => order.indexOf(n))).toEqual([...done.map((n) => order.indexOf(n))].sort((a, b) => a - b));
      }
      // A command queued behind another on the pull request built on its commits: none stopped for "the branch moved".
      expect(settled.comments.filter((c) => c.includes("the branch moved"))).toEqual([]);
      // Every progress comment ended in a final answer.
      const progress = settled.comments.filter((c) => c.includes("/fix add the note") && !c.includes("was not queued"));
      expect(progress).toHaveLength(ran);
      expect(progress.every((c) => c.includes("✅ done"))).toBe(true);
      if (shared) {
        const started = harness
          .output()
          .split("\n")
          .filter((line) => line.includes('"msg":"job started"'));
        expect(started.length).toBeGreaterThanOrEqual(ran);
      }
    },
    TIMEOUT,
  );
});
