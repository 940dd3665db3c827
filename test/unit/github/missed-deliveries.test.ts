import { describe, expect, it } from "vitest";
import {
  MAX_REDELIVERIES,
  REDELIVERY_WINDOW_MS,
  attemptsToRedeliver,
  type DeliveryAttempt,
} from "../../../src/github/missed-deliveries.js";

const NOW = Date.parse("2026-11-25T12:00:00Z");
let nextId = 1;
const at = (minutesAgo: number): string => new Date(NOW - minutesAgo * 60_000).toISOString();
const attempt = (guid: string, statusCode: number, minutesAgo: number, extra: Partial<DeliveryAttempt> = {}) => ({
  id: nextId++,
  guid,
  deliveredAt: at(minutesAgo),
  redelivery: false,
  statusCode,
  event: "issue_comment",
  ...extra,
});

describe("which missed deliveries to ask for again", () => {
  it("asks for the latest failed attempt of a delivery no attempt of which succeeded", () => {
    const first = attempt("a", 0, 30);
    const retry = attempt("a", 502, 20, { redelivery: true });
    expect(attemptsToRedeliver([first, retry], NOW)).toEqual([retry.id]);
  });

  it("leaves alone what succeeded once, what the app refused on purpose, and other events", () => {
    expect(attemptsToRedeliver([attempt("b", 0, 30), attempt("b", 200, 20, { redelivery: true })], NOW)).toEqual([]);
    expect(attemptsToRedeliver([attempt("c", 401, 30)], NOW)).toEqual([]);
    expect(attemptsToRedeliver([attempt("c2", 413, 30)], NOW)).toEqual([]);
    expect(attemptsToRedeliver([attempt("d", 0, 30, { event: "push" })], NOW)).toEqual([]);
  });

  it("asks again after a 5xx, a 429 or no answer at all, while GitHub still keeps the delivery", () => {
    const ids = [attempt("e", 500, 10), attempt("f", 429, 10), attempt("g", 0, 10)];
    expect(attemptsToRedeliver(ids, NOW)).toEqual(ids.map((a) => a.id));
    const old = attempt("h", 0, REDELIVERY_WINDOW_MS / 60_000 + 1);
    expect(attemptsToRedeliver([old], NOW)).toEqual([]);
  });

  it("gives up after a bounded number of redeliveries", () => {
    const tries = [attempt("i", 0, 60)];
    for (let k = 0; k < MAX_REDELIVERIES; k++) tries.push(attempt("i", 0, 50 - k, { redelivery: true }));
    expect(attemptsToRedeliver(tries, NOW)).toEqual([]);
    expect(attemptsToRedeliver(tries.slice(0, -1), NOW)).toEqual([tries.at(-2)!.id]);
  });
});
