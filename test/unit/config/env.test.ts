import { describe, expect, it } from "vitest";
import { parseEnv } from "../../../src/config/env.js";

describe("parseEnv: the sandbox's sizes", () => {
  it("reads sizes with their units", () => {
    const parsed = parseEnv({ PATCHSMITH_SANDBOX_MEMORY: "2G", PATCHSMITH_SANDBOX_DISK: " 500M " });
    expect(parsed).toMatchObject({
      ok: true,
      env: { PATCHSMITH_SANDBOX_MEMORY: 2 * 1024 ** 3, PATCHSMITH_SANDBOX_DISK: 500 * 1024 ** 2 },
    });
  });

  it("refuses a size too small or unreadable, naming the variable and an example", () => {
    const small = parseEnv({ PATCHSMITH_SANDBOX_MEMORY: "1M" });
    expect(small).toEqual({
      ok: false,
      message: 'invalid environment: PATCHSMITH_SANDBOX_MEMORY: must be a size of at least 64M, e.g. "4G"',
    });
    const unreadable = parseEnv({ PATCHSMITH_SANDBOX_DISK: "lots" });
    expect(unreadable).toEqual({
      ok: false,
      message: 'invalid environment: PATCHSMITH_SANDBOX_DISK: must be a size of at least 1M, e.g. "16G"',
    });
  });
});
