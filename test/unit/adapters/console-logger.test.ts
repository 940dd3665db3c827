import { describe, expect, it } from "vitest";
import { createConsoleLogger, levelFromEnv } from "../../../src/adapters/console-logger.js";
import { createSystemClock } from "../../../src/adapters/system-clock.js";

function capture(options: Parameters<typeof createConsoleLogger>[0] = {}): {
  lines: unknown[];
  logger: ReturnType<typeof createConsoleLogger>;
} {
  const lines: unknown[] = [];
  const logger = createConsoleLogger({
    now: () => new Date("2030-01-02T03:04:05.000Z"),
    ...options,
    write: (line) => {
      expect(line.endsWith("\n")).toBe(true);
      lines.push(JSON.parse(line));
    },
  });
  return { lines, logger };
}

describe("console logger", () => {
  it("writes one JSON object per line with time, level, message, bindings and fields", () => {
    const { lines, logger } = capture({ level: "debug", bindings: { job: "j1" } });
    logger.info("cloned", { repo: "o/r", files: 12 });
    expect(lines).toEqual([
      { job: "j1", repo: "o/r", files: 12, time: "2030-01-02T03:04:05.000Z", level: "info", msg: "cloned" },
    ]);
  });

  it("filters by level", () => {
    const { lines, logger } = capture({ level: "warn" });
    logger.debug("d");
    logger.info("i");
    logger.warn("w");
    logger.error("e");
    expect(lines.map((line) => (line as { msg: string }).msg)).toEqual(["w", "e"]);
    const silent = capture({ level: "silent" });
    silent.logger.error("x");
    expect(silent.lines).toEqual([]);
  });

  it("redacts secrets in the message, nested fields and errors", () => {
    const { lines, logger } = capture({ secrets: ["hunter2-password"] });
    const error = new Error(
      "push failed for https://x-access-token:ghs_abcdefghijklmnopqrstuvwxyz012345@github.com/o/r",
    );
    const shared = { key: "sk-abcdefghijklmnopqrstuvwxyz" };
    logger.error("token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked", {
      error,
      nested: { list: ["hunter2-password"] },
      a: shared,
      b: shared,
    });
    const text = JSON.stringify(lines);
    expect(text).not.toContain("ghp_abc");
    expect(text).not.toContain("ghs_abc");
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("sk-abc");
    expect(lines[0]).toMatchObject({
      msg: "token [redacted] leaked",
      error: { name: "Error" },
      a: { key: "[redacted]" },
      b: { key: "[redacted]" },
    });
  });

  it("survives cycles", () => {
    const { lines, logger } = capture();
    const loop: Record<string, unknown> = { name: "loop" };
    loop.self = loop;
    logger.info("cycle", { loop });
    expect(lines[0]).toMatchObject({ loop: { name: "loop", self: "[circular]" } });
  });

  it("reads PATCHSMITH_LOG_LEVEL", () => {
    expect(levelFromEnv({ PATCHSMITH_LOG_LEVEL: "DEBUG" })).toBe("debug");
    expect(levelFromEnv({ PATCHSMITH_LOG_LEVEL: "loud" })).toBe("info");
    expect(levelFromEnv({})).toBe("info");
  });
});

describe("system clock", () => {
  it("tells the time and sleeps at least the asked duration", async () => {
    const clock = createSystemClock();
    const before = clock.now();
    expect(Math.abs(before - Date.now())).toBeLessThan(1000);
    await clock.sleep(20);
    expect(clock.now()).toBeGreaterThanOrEqual(before + 19);
  });
});
