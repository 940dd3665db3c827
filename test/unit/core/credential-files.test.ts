import { describe, expect, it } from "vitest";
import { isCredentialPath } from "../../../src/core/credential-files.js";

describe("files that may hold credentials", () => {
  it("are .env files, package manager and git credentials, and private keys, wherever they are", () => {
    for (const path of [
      ".env",
      "app/.env.local",
      ".env.production",
      ".npmrc",
      "deploy/.netrc",
      ".pypirc",
      "certs/server.pem",
      "keys/signing.key",
      "home/.ssh/id_ed25519",
      "release/app.p12",
      "android/release.keystore",
      "auth.json",
    ]) {
      expect(isCredentialPath(path), path).toBe(true);
    }
  });

  it("are not templates that show the variables, public keys, or files that only sound like them", () => {
    for (const path of [
      ".env.example",
      "config/.env.sample",
      ".env.template",
      "id_rsa.pub",
      "src/env.ts",
      "docs/keys.md",
    ]) {
      expect(isCredentialPath(path), path).toBe(false);
    }
  });
});
