import { describe, expect, it } from "vitest";
import { isSecretEnvName, redactSecrets, scrubEnv } from "../../../src/core/redact.js";

describe("redactSecrets", () => {
  it.each([
    ["classic GitHub token", "token ghp_0123456789abcdefghijABCDEFGHIJ012345 end", "token [redacted] end"],
    ["installation token", "ghs_0123456789abcdefghijABCDEFGHIJ", "[redacted]"],
    [
      "oauth, user, refresh tokens",
      "gho_aaaaaaaaaaaaaaaaaaaa ghu_bbbbbbbbbbbbbbbbbbbb ghr_cccccccccccccccccccc",
      "[redacted] [redacted] [redacted]",
    ],
    ["fine-grained PAT", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "[redacted]"],
    ["OpenAI key", "OPENAI_API_KEY=sk-proj-abcDEF0123456789ghiJKL_-xyz", "OPENAI_API_KEY=[redacted]"],
    ["AWS key id", "aws AKIAIOSFODNN7EXAMPLE here", "aws [redacted] here"],
    [
      "token in a URL",
      "fatal: unable to access 'https://x-access-token:abc123secret@github.com/o/r.git/'",
      "fatal: unable to access 'https://[redacted]@github.com/o/r.git/'",
    ],
    ["x-access-token pair", "user x-access-token:s3cr3tvalue", "user x-access-token:[redacted]"],
    [
      "Authorization header",
      "http.extraHeader=Authorization: Basic eC1hY2Nlc3MtdG9rZW46Zm9v",
      "http.extraHeader=Authorization: [redacted]",
    ],
    ["Bearer token", "sent Bearer abcdefghijklmnopqrstuvwxyz012345", "sent Bearer [redacted]"],
  ])("redacts a %s", (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it("redacts PEM private keys, whole or cut off", () => {
    const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----";
    expect(redactSecrets(`before\n${key}\nafter`)).toBe("before\n[redacted]\nafter");
    expect(redactSecrets("x -----BEGIN PRIVATE KEY-----\nMIIEv")).toBe("x [redacted]");
  });

  it("redacts known secret values wherever they appear, longest first", () => {
    expect(redactSecrets("a plain-secret-1 and plain-secret-12", ["plain-secret-1", "plain-secret-12"])).toBe(
      "a [redacted] and [redacted]",
    );
    expect(redactSecrets("regex chars a.b*c(d) stay literal: axbbc(d)", ["a.b*c(d)"])).toBe(
      "regex chars [redacted] stay literal: axbbc(d)",
    );
  });

  it("leaves ordinary text alone, including very short 'secrets'", () => {
    const text = "The token budget was 4000; the sky is blue; sk-short; Basic idea; ghp_short";
    expect(redactSecrets(text, ["the", "", "abc"])).toBe(text);
  });
});

describe("scrubEnv", () => {
  const env = {
    PATH: "/usr/bin:/bin",
    LANG: "C.UTF-8",
    TZ: "UTC",
    HOME: "/root",
    OPENAI_API_KEY: "sk-abc",
    OPENAI_BASE_URL: "http://x",
    GITHUB_TOKEN: "ghs_x",
    GH_TOKEN: "x",
    PATCHSMITH_DATA_DIR: "/data",
    APP_ID: "1",
    WEBHOOK_SECRET: "w",
    PRIVATE_KEY: "k",
    MY_SECRET: "s",
    AWS_ACCESS_KEY_ID: "a",
    NPM_AUTH: "n",
    DB_PASSWORD: "p",
    RANDOM: "r",
    UNDEFINED: undefined,
  };

  it("keeps only the allow-list", () => {
    expect(scrubEnv(env)).toEqual({ PATH: "/usr/bin:/bin", LANG: "C.UTF-8", TZ: "UTC" });
  });

  it("drops secret-looking names even when a caller allows them, and values that carry a token", () => {
    const allowed = ["PATH", "OPENAI_BASE_URL", "MY_SECRET", "APP_ID", "RANDOM", "LEAKY"];
    expect(scrubEnv({ ...env, LEAKY: "x ghp_0123456789abcdefghijABCDEFGHIJ" }, allowed)).toEqual({
      PATH: "/usr/bin:/bin",
      RANDOM: "r",
    });
  });

  it("names secret variables", () => {
    for (const name of [
      "GITHUB_TOKEN",
      "gh_host",
      "OPENAI_ORG",
      "PATCHSMITH_MODEL",
      "APP_ID",
      "WEBHOOK_PATH",
      "X_API_KEY",
      "SSH_AUTH_SOCK",
    ]) {
      expect(isSecretEnvName(name), name).toBe(true);
    }
    for (const name of ["PATH", "HOME", "LANG", "APP_IDEA", "NODE_ENV"])
      expect(isSecretEnvName(name), name).toBe(false);
  });
});
