/**
 * The sending side of the answers bench, in a process of its own: in the bench's process its timers and answers
 * would share one event loop with the fake GitHub, which serves the App's API calls while the deliveries stream in,
 * and the figures would measure that loop instead of the App. Reads a plan as JSON on stdin, signs and sends each
 * delivery as GitHub does, and writes the latencies as JSON on stdout.
 */
import { createHmac } from "node:crypto";
import { performance } from "node:perf_hooks";
import { text } from "node:stream/consumers";

export interface ClientPlan {
  readonly url: string;
  readonly secret: string;
  /** "burst": `parallel` senders back to back; "paced": one delivery every 1000 / `perSecond` ms. */
  readonly mode: "burst" | "paced";
  readonly parallel: number;
  readonly perSecond: number;
  readonly deliveries: readonly { readonly id: string; readonly event: string; readonly body: string }[];
}

export interface ClientResult {
  readonly latenciesMs: number[];
  readonly statuses: Record<string, number>;
  readonly wallMs: number;
}

async function run(plan: ClientPlan): Promise<ClientResult> {
  const latenciesMs: number[] = [];
  const statuses: Record<string, number> = {};
  const send = async (delivery: ClientPlan["deliveries"][number]): Promise<void> => {
    const signature = `sha256=${createHmac("sha256", plan.secret).update(delivery.body).digest("hex")}`;
    const sent = performance.now();
    const response = await fetch(plan.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": delivery.event,
        "x-github-delivery": delivery.id,
        "x-hub-signature-256": signature,
      },
      body: delivery.body,
    });
    await response.text();
    latenciesMs.push(performance.now() - sent);
    statuses[String(response.status)] = (statuses[String(response.status)] ?? 0) + 1;
  };
  // Connections opened and the request path compiled before the clock starts: a fresh process's first requests
  // would otherwise make the tail.
  const health = new URL("/healthz", plan.url).href;
  for (let round = 0; round < 10; round++) {
    await Promise.all(Array.from({ length: plan.parallel }, async () => (await fetch(health)).text()));
  }
  const started = performance.now();
  if (plan.mode === "burst") {
    let next = 0;
    await Promise.all(
      Array.from({ length: plan.parallel }, async () => {
        for (let i = next++; i < plan.deliveries.length; i = next++) await send(plan.deliveries[i]!);
      }),
    );
  } else {
    const inFlight: Promise<void>[] = [];
    for (const [i, delivery] of plan.deliveries.entries()) {
      const wait = started + (i * 1000) / plan.perSecond - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      inFlight.push(send(delivery));
    }
    await Promise.all(inFlight);
  }
  return { latenciesMs, statuses, wallMs: performance.now() - started };
}

const plan = JSON.parse(await text(process.stdin)) as ClientPlan;
process.stdout.write(JSON.stringify(await run(plan)));
