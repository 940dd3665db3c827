import { describe, expect, it } from "vitest";
import { credentialValues, isCredentialPath } from "../../../src/core/credential-files.js";

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

describe("the secret values a credential file holds", () => {
  it("are the values of settings named as secrets or that look generated, not ordinary settings", () => {
    const env = [
      "# local settings",
      "export API_KEY='pk_4f9a2c7e1b'",
      'DB_PASSWORD="correct horse"',
      "SESSION=8f14e45fceea167a5a36dedd4bea2543",
      "NODE_ENV=production",
      "DEBUG=true",
      "PORT=3000",
      "PUBLIC_URL=https://example.com/app",
      "API_URL=http://localhost:3000/api/v1/items",
    ].join("\n");
    expect(credentialValues(env)).toEqual(["pk_4f9a2c7e1b", "correct horse", "8f14e45fceea167a5a36dedd4bea2543"]);
  });

  it("reads npm's registry tokens, YAML and JSON settings, and netrc passwords", () => {
    expect(credentialValues("//registry.npmjs.org/:_authToken=npm_Zq81Lw0c\nsave-exact=true\n")).toEqual([
      "npm_Zq81Lw0c",
    ]);
    expect(
      credentialValues('{\n  "github-oauth": { "github.com": "0a1b2c3d4e5f6a7b8c9d" },\n  "password": "s3cr3t-pw"\n}'),
    ).toEqual(["0a1b2c3d4e5f6a7b8c9d", "s3cr3t-pw"]);
    expect(credentialValues("machine api.example.com login ci password Xk29fLq0z\n")).toEqual(["Xk29fLq0z"]);
  });
});
