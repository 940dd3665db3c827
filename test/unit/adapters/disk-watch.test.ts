import { describe, expect, it } from "vitest";
import { diskExhausted, type FreeSpace } from "../../../src/adapters/sandbox/disk-watch.js";

const GiB = 1024 ** 3;
const free = (bytes: number, files = 1_000_000, filesTotal = 2_000_000): FreeSpace => ({ bytes, files, filesTotal });

describe("diskExhausted", () => {
  it("stops a run that took more than its share of the free space", () => {
    expect(diskExhausted(free(100 * GiB), free(99 * GiB), 16 * GiB)).toBe(false);
    expect(diskExhausted(free(100 * GiB), free(83 * GiB), 16 * GiB)).toBe(true);
  });

  it("keeps a reserve for the service, or half of what a nearly full volume had", () => {
    expect(diskExhausted(free(10 * GiB), free(0.9 * GiB), 16 * GiB)).toBe(true);
    expect(diskExhausted(free(1.5 * GiB), free(0.9 * GiB), 16 * GiB)).toBe(false);
    expect(diskExhausted(free(1.5 * GiB), free(0.7 * GiB), 16 * GiB)).toBe(true);
  });

  it("counts files where the volume counts them", () => {
    expect(diskExhausted(free(50 * GiB), free(50 * GiB, 90_000), 16 * GiB)).toBe(true);
    expect(diskExhausted(free(50 * GiB), free(50 * GiB, 500_000), 16 * GiB)).toBe(false);
    expect(diskExhausted(free(50 * GiB, 0, 0), free(50 * GiB, 0, 0), 16 * GiB)).toBe(false);
  });
});
