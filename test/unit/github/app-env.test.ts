import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { needsSetup, normalizePrivateKey, parseAppEnv } from "../../../src/github/app-env.js";

const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 1024,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

describe("app environment", () => {
  it("needs the set-up page without an App ID or a key", () => {
    expect(needsSetup({})).toBe(true);
    expect(needsSetup({ APP_ID: "1" })).toBe(true);
    expect(needsSetup({ APP_ID: "1", PRIVATE_KEY_PATH: "key.pem" })).toBe(false);
  });

  it("reads probot's variables and builds the GHE API base", () => {
    const result = parseAppEnv({
      APP_ID: "123",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: "s3cret",
      PORT: "0",
      GHE_HOST: "ghe.example.com",
      GHE_PROTOCOL: "http",
      PATCHSMITH_THROTTLE: "off",
    });
    expect(result.ok && result.env).toMatchObject({
      appId: "123",
      port: 0,
      host: "localhost",
      webhookPath: "/api/github/webhooks",
      baseUrl: "http://ghe.example.com/api/v3",
      throttle: false,
      concurrency: 2,
    });
  });

  it("uses github.com without GHE_HOST and refuses a missing webhook secret", () => {
    const ok = parseAppEnv({ APP_ID: "1", PRIVATE_KEY: privateKey, WEBHOOK_SECRET: "x" });
    expect(ok.ok && ok.env.baseUrl).toBeUndefined();
    const missing = parseAppEnv({ APP_ID: "1", PRIVATE_KEY: privateKey, WEBHOOK_SECRET: "" });
    expect(missing).toMatchObject({ ok: false });
    expect(!missing.ok && missing.message).toContain("WEBHOOK_SECRET");
  });

  it("keeps the job queue in PATCHSMITH_DATA_DIR, else in the user's XDG state folder", () => {
    const base = { APP_ID: "1", PRIVATE_KEY: privateKey, WEBHOOK_SECRET: "x" };
    const dirOf = (vars: Record<string, string>): string | false => {
      const result = parseAppEnv({ ...base, ...vars });
      return result.ok && result.env.dataDir;
    };
    expect(dirOf({ PATCHSMITH_DATA_DIR: "/data" })).toBe("/data");
    expect(dirOf({ XDG_STATE_HOME: "/state", HOME: "/home/p" })).toBe("/state/patchsmith");
    expect(dirOf({ HOME: "/home/p" })).toBe("/home/p/.local/state/patchsmith");
    expect(dirOf({})).toBe(".patchsmith-data");
  });

  it("takes the shared queue's URL and its limits, and refuses a URL that is not Redis's", () => {
    const base = { APP_ID: "1", PRIVATE_KEY: privateKey, WEBHOOK_SECRET: "x" };
    const result = parseAppEnv({
      ...base,
      PATCHSMITH_REDIS_URL: "redis://r:6379/2",
      PATCHSMITH_GLOBAL_CONCURRENCY: "12",
      PATCHSMITH_WORKER_LOCK_SECONDS: "5",
    });
    expect(result.ok && result.env).toMatchObject({
      redisUrl: "redis://r:6379/2",
      globalConcurrency: 12,
      workerLockMs: 5000,
    });
    const embedded = parseAppEnv(base);
    expect(embedded.ok && embedded.env).toMatchObject({ redisUrl: undefined, globalConcurrency: undefined });
    const wrong = parseAppEnv({ ...base, PATCHSMITH_REDIS_URL: "http://r" });
    expect(!wrong.ok && wrong.message).toContain("PATCHSMITH_REDIS_URL must be a redis:// or rediss:// URL");
  });

  it("accepts a key with escaped newlines, quoted, or base64, and refuses anything else", () => {
    const escaped = `"${privateKey.replace(/\n/g, "\\n")}"`;
    expect(normalizePrivateKey(escaped)).toBe(privateKey);
    expect(normalizePrivateKey(Buffer.from(privateKey).toString("base64"))).toBe(privateKey);
    expect(normalizePrivateKey("not a key")).toBeUndefined();
    expect(parseAppEnv({ APP_ID: "1", PRIVATE_KEY: "nope", WEBHOOK_SECRET: "x" })).toMatchObject({ ok: false });
  });
});
